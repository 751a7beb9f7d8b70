"""One Splendor game turn by turn: the board (chips, face-up cards, nobles), every seat's
chips, cards, reservations and nobles, and each move.

The hand log keeps each turn's move but not the board, so the game is played again: the
match's seed deals the same cards and seeds the same bots, which move the same way. Every
replayed turn is checked against the logged one; if they part, the page shows the logged
turns only and says where the replay parted."""

import json

from engine.splendor import state as st
from engine.splendor.agents import InProcessAgent
from engine.splendor.judge import bot_key, game_deal, play_game
from engine.splendor.rules import CARDS, COLOURS, NOBLES
from flows import games
from flows.games.splendor import opponent_agents
from reports.html import esc, table
from reports.panels import rows
from reports.replay import NoReplay, Replay

ACTIONS = {0: "pass (invalid move)", 1: "take different chips", 2: "take two chips", 3: "reserve", 4: "buy"}
SHORT = "RGBWK*"  # red green blue white black, gold


def replay(con, match_id: str, unit: int) -> Replay:
    turns = rows(con, "SELECT * FROM spl_turns WHERE match_id = ? AND game = ? ORDER BY round, seat",
                 [match_id, unit])
    game = rows(con, "SELECT * FROM spl_games WHERE match_id = ? AND game = ?", [match_id, unit])
    if not turns or not game:
        raise NoReplay(f"match {match_id} has no Splendor game for unit {unit}")
    g = game[0]
    states, parted = _states(con, match_id, unit, g, turns)
    steps = []
    for k, t in enumerate(turns):
        card = f" card {t['card']}" if t["card"] else ""
        noble = f"; receives noble {t['noble']}" if t["noble"] else ""
        who = f"seat {t['seat'] + 1}" + (" (candidate)" if t["is_candidate"] else "")
        head = (f"<h2>Round {t['round']}, {esc(who)}</h2><p>{esc(ACTIONS.get(t['action'], '?'))}{esc(card)}"
                f"{esc(noble)} &nbsp; record: <code>{esc(t['tokens'])}</code>"
                f"{' &nbsp; ' + esc(t['message']) if t['message'] else ''}; after the turn: "
                f"{t['chips']} chips, {t['points']} points</p>")
        steps.append(head + (_board(states[k], g["cand_seat"]) if k < len(states) else ""))
    note = ("<p class=note>The board is rebuilt by playing the game again from the match's seed; every turn "
            "agreed with the hand log.</p>" if parted is None else
            f"<p class=note>The board could not be rebuilt: {esc(parted)}; the logged turns follow.</p>")
    intro = (f"<p>Match <code>{esc(match_id)}</code>, game {unit}: {g['players']} players, the candidate in seat "
             f"{g['cand_seat'] + 1}, {g['rounds']} rounds, candidate's points {g['cand_points']} (best opponent "
             f"{g['opp_best_points']}), win share {g['cand_share']:.2f}.</p>{note}")
    return Replay(f"Splendor game {unit} of {match_id}", intro, tuple(steps))


def _states(con, match_id: str, unit: int, g: dict, turns: list[dict]) -> tuple[list, str | None]:
    """The game state after each logged turn, or ([], why) when the replay cannot follow the log."""
    bot, config, options, seed = con.execute("SELECT bot, config, options, seed FROM matches WHERE match_id = ?",
                                             [match_id]).fetchone()
    try:
        adapter = games.get("splendor")
        spec = adapter.spec(bot)
        stored = json.loads(config)
        config_obj = spec.config_from({k: "/".join(map(str, v)) if isinstance(v, list) else str(v)
                                       for k, v in stored.items()})
        opts = adapter.options({k: str(v) for k, v in json.loads(options or "{}").items()})
    except Exception as exc:  # noqa: BLE001 - a judged match of external programs, say
        return [], f"the match's bots cannot be rebuilt here ({type(exc).__name__}: {exc})"
    seated = opponent_agents(opts)
    seated.insert(g["cand_seat"], InProcessAgent(f"{bot}*", spec.make(config_obj)))
    for seat, agent in enumerate(seated):
        agent.new_game(bot_key(int(seed), unit, seat))
    states = []
    play_game(seated, game_deal(int(seed), unit, len(seated)), on_turn=lambda state, log: states.append(
        (state.copy(), " ".join(map(str, log.event.tokens)))))
    for k, t in enumerate(turns):
        if k >= len(states) or states[k][1] != t["tokens"]:
            return [], f"turn {k + 1} of the replay differs from the log"
    return [s for s, _ in states], None


def _chips(values) -> str:
    return " ".join(f"{SHORT[c]}{n}" for c, n in enumerate(values) if n)


def _card(cid: int) -> str:
    if cid <= 0:
        return "-" if cid == 0 else f"(level {-cid}, hidden)"
    c = CARDS[cid]
    return f"#{cid} {COLOURS[c.bonus]} {c.points}pt cost {_chips(c.cost) or '0'}"


def _board(state: st.GameState, cand_seat: int) -> str:
    face = [[f"level {lv + 1}", *[esc(_card(c)) for c in row], str(len(state.piles[lv]))]
            for lv, row in enumerate(state.face_up)]
    nobles = ", ".join(f"#{n} needs {_chips(NOBLES[n].requires)}" for n in state.nobles) or "none"
    seats = [[f"{s + 1}" + (" (candidate)" if s == cand_seat else ""), esc(_chips(p.chips) or "0"),
              esc(_chips(p.bonus) or "0"), str(p.score), esc(", ".join(_card(c) for c, _ in p.reserve) or "-"),
              esc(", ".join(f"#{n}" for n in p.nobles) or "-")] for s, p in enumerate(state.players)]
    return (f"<p>Bank: {esc(_chips(state.board))} &nbsp; nobles on the board: {esc(nobles)}</p>"
            + table(["", "slot 1", "slot 2", "slot 3", "slot 4", "pile"], face)
            + table(["seat", "chips", "card bonuses", "points", "reserved", "nobles"], seats))
