"""CodinGame Hold'em's per-game all-in luck for decisions (engine/cg_holdem/luck.py), from the hand log.

A hand counts when it reached a showdown with betting closed before the river and at most one contender
with chips behind (nobody could act again), no seat timed out and the hand was not refunded at the round
cap; each such hand's stacks, as settled from the dealt board, must be the logged ones.
"""

import numpy as np

from engine.cg_holdem.luck import hand_luck
from engine.cg_holdem.rules import parse_card_text

SHOWN = {0: 0, 1: 3, 2: 4}  # board cards out when the last betting was preflop, on the flop, on the turn


def _cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split("_") if t and t != "X")


def all_in_hands(query, match_id: str, units: int, start: int = 0):
    """(unit, hand, dealer, board, shown) of the hands of units start..units-1 whose luck is taken out, and every
    seat row of them."""
    hands = query(
        "SELECT h.unit, h.hand, h.dealer, h.board, a.last_street FROM cgh_hands h JOIN ("
        "  SELECT unit, hand, max(street) AS last_street, bool_or(action = 'TIMEOUT') AS timeout FROM cgh_actions"
        "  WHERE match_id = ? AND unit >= ? AND unit < ? GROUP BY unit, hand) a USING (unit, hand) "
        "WHERE h.match_id = ? AND h.unit >= ? AND h.unit < ? AND h.showdown AND NOT h.cancelled AND NOT a.timeout "
        "AND a.last_street < 3 ORDER BY h.unit, h.hand", [match_id, start, units, match_id, start, units])
    seats = query("SELECT unit, hand, seat, cards, start_stack, put_in, end_stack, folded FROM cgh_hand_seats "
                  "WHERE match_id = ? AND unit >= ? AND unit < ? ORDER BY unit, hand, seat", [match_id, start, units])
    return hands, seats


def unit_luck(query, match_id: str, units: int, start: int = 0) -> np.ndarray:
    """Per unit start..units-1 (one game), the primary seat's finish score the all-in boards moved (zero mean;
    each game's from its own hands, so a later look reads only its new games)."""
    games = query("SELECT unit, players, primary_seat FROM cgh_games WHERE match_id = ? AND unit >= ? AND unit < ? "
                  "ORDER BY unit", [match_id, start, units])
    if games.height != units - start:
        raise ValueError(f"match {match_id}: {games.height} games logged for its units {start}..{units - 1}")
    seat_of = dict(zip(games["unit"].to_list(), zip(games["players"].to_list(), games["primary_seat"].to_list(),
                                                     strict=True), strict=True))
    hands, seats = all_in_hands(query, match_id, units, start)
    rows: dict[tuple[int, int], list[dict]] = {}
    for r in seats.iter_rows(named=True):
        rows.setdefault((r["unit"], r["hand"]), []).append(r)
    first, out = start, np.zeros(units - start)
    for h in hands.iter_rows(named=True):
        seat_rows = rows[(h["unit"], h["hand"])]
        hole = [_cards(r["cards"]) or None for r in seat_rows]
        folded = [bool(r["folded"]) or hole[i] is None for i, r in enumerate(seat_rows)]
        start = [int(r["start_stack"]) for r in seat_rows]
        put_in = [int(r["put_in"]) for r in seat_rows]
        behind = sum(not f and s > p for f, s, p in zip(folded, start, put_in, strict=True))
        if sum(not f for f in folded) < 2 or behind > 1:
            continue  # someone could still act: not an all-in run-out
        players, seat = seat_of[h["unit"]]
        got, after = hand_luck(start=start, put_in=put_in, folded=folded, hole=hole, board=_cards(h["board"]),
                               shown=SHOWN[h["last_street"]], dealer=int(h["dealer"]), seat=int(seat),
                               players=int(players))
        logged = tuple(int(r["end_stack"]) for r in seat_rows)
        if after != logged:
            raise ValueError(f"match {match_id} unit {h['unit']} hand {h['hand']}: the board settles to stacks "
                             f"{after}, the log says {logged}")
        out[h["unit"] - first] += got
    return out
