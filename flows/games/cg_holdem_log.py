"""CodinGame Hold'em games read back from the hand log: for PHH export and the replay page."""

from pathlib import Path

from engine.cg_holdem.phh import hand_histories
from engine.cg_holdem.protocol import parse_board, parse_seat_cards
from engine.cg_holdem.state import HandRecord


def cg_games(con, match_id: str, units: list[int] | None = None) -> dict[int, tuple[list[str], list[HandRecord]]]:
    """Per game (unit): the seats' bot names and the hands as the referee recorded them."""
    where, params = ("AND unit IN (SELECT unnest(?::INTEGER[]))", [match_id, units]) if units else ("", [match_id])
    names: dict[int, list[str]] = {}
    for unit, bot in con.execute(f"SELECT unit, bot FROM cgh_seats WHERE match_id = ? {where} ORDER BY unit, seat",
                                 params).fetchall():
        names.setdefault(unit, []).append(bot)
    seats: dict[tuple[int, int], list] = {}
    for row in con.execute("SELECT unit, hand, seat, cards, start_stack, posted, put_in, won, end_stack, folded "
                           f"FROM cgh_hand_seats WHERE match_id = ? {where} ORDER BY unit, hand, seat",
                           params).fetchall():
        seats.setdefault((row[0], row[1]), []).append(row[3:])
    acts: dict[tuple[int, int], list] = {}
    for unit, hand, round_, seat, action, chips, street in con.execute(
            "SELECT unit, hand, round, seat, action, chips, street FROM cgh_actions "
            f"WHERE match_id = ? {where} ORDER BY unit, hand, round", params).fetchall():
        acts.setdefault((unit, hand), []).append((round_, seat, action, chips, street))
    games: dict[int, tuple[list[str], list[HandRecord]]] = {u: (n, []) for u, n in names.items()}
    for (unit, hand, big_blind, dealer, sb, bb, board, showdown, cancelled, first, last) in con.execute(
            "SELECT unit, hand, big_blind, dealer, sb_seat, bb_seat, board, showdown, cancelled, first_round, "
            f"last_round FROM cgh_hands WHERE match_id = ? {where} ORDER BY unit, hand", params).fetchall():
        s = seats[(unit, hand)]
        games[unit][1].append(HandRecord(
            hand=hand, big_blind=big_blind, dealer=dealer, sb_seat=sb, bb_seat=bb,
            start_stacks=tuple(r[1] for r in s), posted=tuple(r[2] for r in s),
            cards=tuple(parse_seat_cards(r[0])[0] if r[0] else None for r in s), board=parse_board(board),
            actions=tuple(acts.get((unit, hand), ())), folded=tuple(r[6] for r in s), totals=tuple(r[3] for r in s),
            won=tuple(r[4] for r in s), end_stacks=tuple(r[5] for r in s), showdown=showdown, cancelled=cancelled,
            first_round=first, last_round=last))
    return games


def export_phh(con, match_id: str, out_dir: Path) -> tuple[tuple[Path, ...], int]:
    """One .phhs file per game of the match, each hand a section (cancelled hands are not counted)."""
    files, count = [], 0
    for unit, (names, records) in sorted(cg_games(con, match_id).items()):
        path = out_dir / f"{match_id}-game{unit}.phhs"
        path.write_text(hand_histories(records, names=names, game=f"cg-holdem match {match_id} game {unit}"))
        files.append(path)
        count += sum(not r.cancelled for r in records)
    return tuple(files), count
