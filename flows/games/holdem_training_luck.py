"""Hold'em Training's per-hand luck for decisions, from the hand log (engine/holdem_training/luck.py).

Read from the views (ht_hand_rows, ht_action_rows), which decode whatever raw layout the hands were
logged in, so in-process bots and programs judged by the contest's judge are treated alike.
"""

import numpy as np

from engine.holdem_training.luck import equities, luck

_CARDS = ("alice_c0", "alice_c1", "bob_c0", "bob_c1", "board_c0", "board_c1", "board_c2", "board_c3", "board_c4")


def unit_luck(query, match_id: str, units: int, start: int = 0) -> np.ndarray:
    """Per unit start..units-1 of the match (hand = unit + 1), the chips the cards moved (zero mean by
    construction; each hand's from its own cards and pots, so a later look reads only its new hands).
    `query(sql, params)` reads the hand log into a polars frame."""
    count = units - start
    hands = query(f"SELECT hand, deal_key, {', '.join(_CARDS)} FROM ht_hand_rows WHERE match_id = ? AND hand > ? "
                  f"AND hand <= ? ORDER BY hand", [match_id, start, units])
    if hands.height != count or (count and hands["hand"][-1] != units):
        raise ValueError(f"match {match_id}: {hands.height} hands logged for its units {start}..{units - 1}")
    acts = query("SELECT hand, round, pot_before FROM ht_action_rows WHERE match_id = ? AND hand > ? AND hand <= ?",
                 [match_id, start, units])
    pots = np.zeros((count, 4))
    pots[acts["hand"].to_numpy() - 1 - start, acts["round"].to_numpy() - 1] = acts["pot_before"].to_numpy()
    cards = hands.select(_CARDS).to_numpy()
    return luck(equities(cards, hands["deal_key"].to_numpy().astype(np.uint64)), pots)
