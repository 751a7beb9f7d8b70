"""One Splendor game turn by turn: each mover's action, the card and chips it took or paid,
nobles received, and every seat's chips and points as the game went on."""

from reports.html import esc, table
from reports.panels import rows
from reports.replay import NoReplay, Replay

ACTIONS = {0: "pass (invalid move)", 1: "take different chips", 2: "take two chips", 3: "reserve", 4: "buy"}


def replay(con, match_id: str, unit: int) -> Replay:
    turns = rows(con, "SELECT * FROM spl_turns WHERE match_id = ? AND game = ? ORDER BY round, seat",
                 [match_id, unit])
    game = rows(con, "SELECT * FROM spl_games WHERE match_id = ? AND game = ?", [match_id, unit])
    if not turns or not game:
        raise NoReplay(f"match {match_id} has no Splendor game for unit {unit}")
    g = game[0]
    seats = {}
    steps = []
    for t in turns:
        seats[t["seat"]] = (t["chips"], t["gold"], t["points"], seats.get(t["seat"], (0, 0, 0, 0))[3]
                            + (1 if t["noble"] else 0))
        card = f" card {t['card']}" if t["card"] else ""
        noble = f"; receives noble {t['noble']}" if t["noble"] else ""
        who = f"seat {t['seat'] + 1}" + (" (candidate)" if t["is_candidate"] else "")
        board = [[f"{s + 1}" + (" (candidate)" if s == g["cand_seat"] else ""), str(c), str(gold), str(p), str(n)]
                 for s, (c, gold, p, n) in sorted(seats.items())]
        steps.append(f"<h2>Round {t['round']}, {esc(who)}</h2><p>{esc(ACTIONS.get(t['action'], '?'))}{esc(card)}"
                     f"{esc(noble)} &nbsp; record: <code>{esc(t['tokens'])}</code>"
                     f"{' &nbsp; ' + esc(t['message']) if t['message'] else ''}</p>"
                     + table(["seat", "chips", "gold", "points", "nobles"], board))
    intro = (f"<p>Match <code>{esc(match_id)}</code>, game {unit}: {g['players']} players, the candidate in seat "
             f"{g['cand_seat'] + 1}, {g['rounds']} rounds, candidate's points {g['cand_points']} (best opponent "
             f"{g['opp_best_points']}), win share {g['cand_share']:.2f}.</p><p class=note>The hand log keeps each "
             "turn's move, the mover's chips and points and the nobles it received; the face-up cards and nobles "
             "on the board are not logged, so the board itself cannot be drawn.</p>")
    return Replay(f"Splendor game {unit} of {match_id}", intro, tuple(steps))
