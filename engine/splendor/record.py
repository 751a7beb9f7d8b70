"""Game records in the arbiter's JSON shape (spec section 8), the inputs dump, and replay.

A record holds the full deal, so replaying it never needs an RNG: ``replay`` rebuilds every
state from the recorded tokens.
"""

import json
from pathlib import Path

from engine.splendor import state as st
from engine.splendor.judge import GameResult
from engine.splendor.rules import BUY, RESERVE, TAKE_DIFFERENT, TAKE_TWO, SplendorConfig

PASS_PREFIX = "Sar peste "


def turn_json(log) -> dict:
    event = log.event
    return {"tokens": list(event.tokens), "returns": list(event.returns), "nobleId": event.noble,
            "kibitzes": list(log.reply.kibitzes), "arbiterMsg": event.message}


def record_of(result: GameResult) -> dict:
    n = len(result.names)
    turns = [turn_json(t) for t in result.turns]
    return {
        "players": list(result.names),
        "decks": [list(d) for d in result.deal.decks],
        "nobles": list(result.deal.nobles),
        "rounds": [turns[i:i + n] for i in range(0, len(turns), n)],
    }


def dumps(record: dict) -> str:
    """One line, as PHP's json_encode writes it (ASCII escapes, no spaces)."""
    return json.dumps(record, separators=(",", ":"), ensure_ascii=True) + "\n"


def save_game(result: GameResult, directory: Path, number: int, *, inputs: bool = False) -> Path:
    """Writes DIR/game-NNN.json (numbered from 1) and, if asked, DIR/inputs-NNN/ stdin files."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"game-{number:03d}.json"
    path.write_text(dumps(record_of(result)))
    if inputs:
        folder = directory / f"inputs-{number:03d}"
        folder.mkdir(exist_ok=True)
        for (rnd, seat), text in result.inputs.items():
            (folder / f"round-{rnd:03d}-player-{seat}.txt").write_text(text)
    return path


def move_of_turn(turn: dict) -> st.Move | None:
    """The move a recorded turn made, or None for a pass (an invalid move)."""
    tokens, returns = turn["tokens"], tuple(turn["returns"])
    if turn["arbiterMsg"].startswith(PASS_PREFIX):
        return None
    kind = tokens[0]
    if kind == TAKE_DIFFERENT:
        return st.Move(TAKE_DIFFERENT, tuple(c for c in range(5) if tokens[1 + c]), returns=returns)
    if kind == TAKE_TWO:
        return st.Move(TAKE_TWO, (tokens[1:6].index(2),), returns=returns)
    if kind in (RESERVE, BUY):
        return st.Move(kind, card=tokens[1], returns=returns)
    raise ValueError(f"record turn has unknown action {kind}: {turn}")


def replay(record: dict) -> list[st.GameState]:
    """States after every turn of a record (the first entry is the initial state)."""
    deal = st.Deal(tuple(tuple(d) for d in record["decks"]), tuple(record["nobles"]))
    game = st.GameState.new(deal, SplendorConfig(players=len(record["players"])))
    states = [game.copy()]
    for rnd in record["rounds"]:
        for turn in rnd:
            name = record["players"][game.seat]
            move = move_of_turn(turn)
            if move is None:
                st.apply_pass(game, turn["arbiterMsg"][len(PASS_PREFIX) + len(name) + 2:], name=name)
            else:
                event = st.apply(game, st.validate_move(game, move), name=name)
                if list(event.tokens) != turn["tokens"] or event.noble != turn["nobleId"]:
                    raise ValueError(f"record diverges at round {event.round} seat {event.seat + 1}: "
                                     f"recorded {turn}, replayed {event}")
            states.append(game.copy())
    return states


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text())
