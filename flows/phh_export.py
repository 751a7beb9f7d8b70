"""Hands from the hand log as PHH files (`cardlab phh export`): any match of the two
hold'em contests. Hold'em Training: one file per match; CodinGame Hold'em: one file per game.
Each file holds its hands as PHH sections PokerKit's ``HandHistory.load_all`` reads."""

from dataclasses import dataclass
from pathlib import Path

from engine.cg_holdem.phh import hand_histories as cg_histories
from engine.cg_holdem.protocol import parse_board, parse_seat_cards
from engine.cg_holdem.state import HandRecord
from engine.core.errors import BadValue
from engine.holdem_training.phh import LoggedHand
from engine.holdem_training.phh import hand_histories as ht_histories

GAMES = ("holdem-training", "cg-holdem")


class NotExportable(BadValue):
    """The match is unknown or not of a hold'em contest."""


@dataclass(frozen=True)
class Exported:
    match_id: str
    game: str
    files: tuple[Path, ...]
    hands: int


def match_game(con, match_id: str) -> str:
    found = con.execute("SELECT game FROM matches WHERE match_id = ?", [match_id]).fetchall()
    if not found:
        recent = [r[0] for r in con.execute(
            "SELECT match_id FROM matches WHERE game IN ('holdem-training', 'cg-holdem') "
            "ORDER BY started_at DESC LIMIT 5").fetchall()]
        raise NotExportable(f"no match {match_id!r} in the hand log; recent hold'em matches: "
                            f"{', '.join(recent) or 'none'}")
    game = found[0][0]
    if game not in GAMES:
        raise NotExportable(f"match {match_id} is a {game} match; PHH export takes {' or '.join(GAMES)} matches")
    return game


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


def export_match(con, match_id: str, out_dir: Path) -> Exported:
    game = match_game(con, match_id)
    out_dir.mkdir(parents=True, exist_ok=True)
    if game == "holdem-training":
        hands = ht_hands(con, match_id)
        path = out_dir / f"{match_id}.phhs"
        path.write_text(ht_histories(hands, event=f"holdem-training match {match_id}"))
        return Exported(match_id, game, (path,), len(hands))
    files, count = [], 0
    for unit, (names, records) in sorted(cg_games(con, match_id).items()):
        path = out_dir / f"{match_id}-game{unit}.phhs"
        path.write_text(cg_histories(records, names=names, game=f"cg-holdem match {match_id} game {unit}"))
        files.append(path)
        count += sum(not r.cancelled for r in records)
    return Exported(match_id, game, tuple(files), count)
