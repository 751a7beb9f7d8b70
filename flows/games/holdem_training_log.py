"""Hold'em Training's hand log: the judge's events packed into ht_packed_hands (the encoder's layout
for this game, GameSpec.log_layout), and hands read back for PHH export and the replay page."""

from pathlib import Path

import numpy as np

from engine.core.events import EventBatch
from engine.holdem_training.events import CARDS
from engine.holdem_training.phh import LoggedHand, hand_histories
from engine.holdem_training.rules import CALL, CHECK, FOLD, RAISE, ROUNDS, START_POT, START_STACK

# A hand is one row of a few integers: a fast bot plays some 30,000 hands a second and the log
# costs per value stored (`cardlab bench store`: about 3x the ingest rate of a row per action).
# data/sql/holdem_training.sql decodes the same layout in its views ht_hand_rows / ht_action_rows.
PACKED_TABLE = "ht_packed_hands"
# (name, lowest bit, bits, offset added before packing) per field of each integer column
_CARD_FIELDS = tuple((name, 6 * k, 6, 0) for k, name in enumerate(CARDS))
_OUTCOME_FIELDS = (("showdown", 0, 2, 1), ("end_code", 2, 2, 0), ("rounds_played", 4, 3, 0),
                   ("final_pot", 7, 10, 0), ("profit", 17, 10, 512), ("rate_rollouts", 27, 31, 0))
# Alice acts once per round: her action in round r is column action_r<r>, 0 when the hand ended
# before it. An action: 1 CHECK, 2 FOLD, 3 RAISE; Bob's response 0 none (Alice folded), 1 CHECK,
# 2 CALL, 3 FOLD.
_ACTION_FIELDS = (("action", 0, 2, 0), ("response", 2, 2, 0), ("amount", 4, 8, 0), ("pot_before", 12, 10, 0),
                  ("stack_before", 22, 8, 0), ("rate_rollouts", 30, 31, 0))
ACTION_COLUMNS = tuple(f"action_r{r}" for r in range(1, ROUNDS + 1))
_ACTION_CODE = {CHECK: 1, FOLD: 2, RAISE: 3}
_RESPONSE_CODE = {"": 0, CHECK: 1, CALL: 2, FOLD: 3}
# The rules bound pots, stacks and profits (|profit| <= pot + stack); _pack checks the RATE counts.
assert START_POT + 2 * START_STACK < 1 << 9 and START_STACK < 1 << 8


def packed_hands(events: EventBatch) -> dict[str, dict[str, object]]:
    """The judge's hands and actions events as ht_packed_hands' columns: one row per hand."""
    hands, actions = events["hands"], events["actions"]
    numbers = np.asarray(hands["hand"], np.int64)
    codes = {**actions, "action": [_ACTION_CODE[a] for a in actions["action"]],
             "response": [_RESPONSE_CODE[r] for r in actions["response"]]}
    packed = np.zeros((ROUNDS, len(numbers)), np.int64)
    packed[np.asarray(actions["round"], np.int64) - 1, np.searchsorted(numbers, actions["hand"])] = (
        _pack(_ACTION_FIELDS, codes))
    return {PACKED_TABLE: {"hand": numbers, "deal_key": hands["deal_key"], "opponent_key": hands["opponent_key"],
                           "cards": _pack(_CARD_FIELDS, hands), "outcome": _pack(_OUTCOME_FIELDS, hands),
                           **dict(zip(ACTION_COLUMNS, packed, strict=True))}}


def _pack(fields, values) -> np.ndarray:
    packed = None
    for name, shift, bits, offset in fields:
        column = np.asarray(values[name], np.int64) + offset
        if len(column) and (column.min() < 0 or column.max() >> bits):
            raise ValueError(f"cannot log {name} = {column.max() - offset}: the hand log keeps {bits} bits")
        packed = column << shift if packed is None else packed | column << shift
    return packed


def ht_hands(con, match_id: str, hands: list[int] | None = None) -> list[LoggedHand]:
    """The match's hands (all, or those numbered in `hands`) in hand order."""
    where, params = ("AND hand IN (SELECT unnest(?::INTEGER[]))", [match_id, hands]) if hands else ("", [match_id])
    rows = con.execute(
        "SELECT hand, alice_c0, alice_c1, bob_c0, bob_c1, board_c0, board_c1, board_c2, board_c3, board_c4, "
        f"end_code, profit FROM ht_hand_rows WHERE match_id = ? {where} ORDER BY hand", params).fetchall()
    acts: dict[int, list] = {}
    for hand, round_, action, amount, response, stack in con.execute(
            "SELECT hand, round, action, amount, response, stack_before FROM ht_action_rows "
            f"WHERE match_id = ? {where} ORDER BY hand, round", params).fetchall():
        acts.setdefault(hand, []).append((round_, action, amount, response, stack))
    return [LoggedHand(hand=r[0], alice=(r[1], r[2]), bob=(r[3], r[4]), board=tuple(r[5:10]),
                       actions=tuple(acts.get(r[0], ())), end_code=r[10], profit=r[11]) for r in rows]


def export_phh(con, match_id: str, out_dir: Path) -> tuple[tuple[Path, ...], int]:
    """The whole match as one .phhs file (PokerKit's HandHistory.load_all reads it)."""
    hands = ht_hands(con, match_id)
    path = out_dir / f"{match_id}.phhs"
    path.write_text(hand_histories(hands, event=f"holdem-training match {match_id}"))
    return (path,), len(hands)
