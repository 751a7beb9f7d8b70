"""Game records in the arbiter's JSON shape (docs/rules/splendor.md#game-record), the inputs dump, and replay.

Records are byte-identical to the arbiter's: returned colours are written as strings (the
arbiter stores the agent's own tokens), and ``/`` is escaped as PHP's json_encode does. A
record holds the full deal, so replaying it never needs an RNG: ``replay`` rebuilds every
state from the recorded moves and checks every recorded field it can recompute (tokens,
returns, nobles, the arbiter's message) and, given the inputs folder, every agent's stdin.
"""

import json
import re
from pathlib import Path

from engine.core.errors import BadValue, IllegalMove
from engine.splendor import state as st
from engine.splendor.judge import GameResult
from engine.splendor.protocol import render_input
from engine.splendor.rules import BUY, RESERVE, TAKE_DIFFERENT, TAKE_TWO, SplendorConfig

PASS_PREFIX = "Sar peste "
# A DEL escape Python writes: \u007f preceded by an even number of backslashes (an odd number
# would make it a literal backslash's text, which stays as it is).
_DEL_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u007f")


def turn_json(log) -> dict:
    event = log.event
    return event_json(event, log.reply.kibitzes)


def event_json(event: st.TurnEvent, kibitzes=()) -> dict:
    # The arbiter records the return tokens as the agent wrote them (strings); cardlab writes
    # the canonical form, which is what a valid agent writes (see README on "+N" tokens).
    return {"tokens": list(event.tokens), "returns": [str(c) for c in event.returns], "nobleId": event.noble,
            "kibitzes": list(kibitzes), "arbiterMsg": event.message}


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
    """One line, as PHP's json_encode writes it (ASCII escapes, no spaces, "/" escaped, DEL raw).

    A "/" can only occur inside a JSON string, so escaping every one is exact. PHP escapes the
    control characters below 0x20 but writes DEL (0x7f) as it is; Python escapes it."""
    text = json.dumps(record, separators=(",", ":"), ensure_ascii=True).replace("/", "\\/")
    return _DEL_ESCAPE.sub(lambda m: m.group(1) + "\x7f", text) + "\n"


def save_game(result: GameResult, directory: Path, number: int, *, inputs: bool = False) -> Path:
    """Writes DIR/game-NNN.json (numbered from 1) and, if asked, DIR/inputs-NNN/ stdin files."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"game-{number:03d}.json"
    path.write_bytes(dumps(record_of(result)).encode())
    if inputs:
        folder = directory / f"inputs-{number:03d}"
        folder.mkdir(exist_ok=True)
        for (rnd, seat), text in result.inputs.items():
            (folder / _input_name(rnd, seat - 1)).write_bytes(text.encode())
    return path


def move_of_turn(turn: dict) -> st.Move | None:
    """The move a recorded turn made, or None for a pass (an invalid move)."""
    tokens, returns = turn["tokens"], tuple(int(c) for c in turn["returns"])
    if turn["arbiterMsg"].startswith(PASS_PREFIX):
        return None
    kind = tokens[0]
    if kind == TAKE_DIFFERENT:
        return st.Move(TAKE_DIFFERENT, tuple(c for c in range(5) if tokens[1 + c]), returns=returns)
    if kind == TAKE_TWO:
        return st.Move(TAKE_TWO, (tokens[1:6].index(2),), returns=returns)
    if kind in (RESERVE, BUY):
        return st.Move(kind, card=tokens[1], returns=returns)
    raise BadValue(f"record turn has unknown action {kind}: {turn}")


class ReplayMismatch(ValueError):
    """The record (or an inputs file) differs from what the engine computes; names where."""


def _input_name(rnd: int, seat: int) -> str:
    return f"round-{rnd:03d}-player-{seat + 1}.txt"


def _check_input(game: st.GameState, inputs: Path) -> str:
    name = _input_name(game.round, game.seat)
    path = inputs / name
    if not path.is_file():
        raise ReplayMismatch(f"{path}: missing (every turn's stdin is saved)")
    expected = render_input(st.observe(game, game.seat)).encode()
    if path.read_bytes() != expected:
        raise ReplayMismatch(f"{path}: differs from the stdin the engine renders for this turn")
    return name


def _replay_turn(game: st.GameState, turn: dict, name: str) -> st.TurnEvent:
    where = f"round {game.round} seat {game.seat + 1}"
    kibitz = turn.get("kibitzes")
    if not isinstance(kibitz, list) or not all(isinstance(k, str) for k in kibitz):
        raise ReplayMismatch(f"{where}: kibitzes must be a list of strings, got {kibitz!r}")
    move = move_of_turn(turn)
    if move is None:
        expected = event_json(st.apply_pass(game, "", name=name), kibitz)
        expected["arbiterMsg"] = turn["arbiterMsg"]  # the reason depends on the agent's output, not kept
    else:
        try:
            expected = event_json(st.apply(game, st.validate_move(game, move), name=name), kibitz)
        except IllegalMove as bad:
            raise ReplayMismatch(f"{where}: the recorded move is invalid here ({bad.reason})") from None
    for key, value in expected.items():
        if turn.get(key) != value:
            raise ReplayMismatch(f"{where}: {key} recorded {turn.get(key)!r}, replayed {value!r}")
    return expected


def replay(record: dict, inputs: Path | None = None, *, config: SplendorConfig | None = None) -> list[st.GameState]:
    """States after every turn of a record (the first entry is the initial state). Checks every
    turn's fields, that the game ends exactly where the record does, and, given the record's
    inputs folder, that it holds exactly the stdin of every turn, byte for byte."""
    deal = st.Deal(tuple(tuple(d) for d in record["decks"]), tuple(record["nobles"]))
    game = st.GameState.new(deal, config or SplendorConfig(players=len(record["players"])))
    states, seen = [game.copy()], set()
    for number, rnd in enumerate(record["rounds"], start=1):
        if game.over:
            raise ReplayMismatch(f"round {number}: the game was over after round {number - 1}")
        if len(rnd) != game.n:
            raise ReplayMismatch(f"round {number}: {len(rnd)} turns, expected {game.n}")
        for turn in rnd:
            if inputs is not None:
                seen.add(_check_input(game, inputs))
            _replay_turn(game, turn, record["players"][game.seat])
            states.append(game.copy())
    if not game.over:
        raise ReplayMismatch(f"the record ends after round {game.round - 1}, but the game is not over")
    if inputs is not None:
        extra = sorted(p.name for p in inputs.iterdir()) if inputs.is_dir() else []
        extra = [n for n in extra if n not in seen]
        if extra:
            raise ReplayMismatch(f"{inputs}: {len(extra)} files for turns the record does not have, e.g. {extra[0]}")
    return states


def check_file(path: Path, inputs: Path | None = None, *, config: SplendorConfig | None = None
               ) -> list[st.GameState]:
    """Replays a saved record and checks that its bytes are what cardlab (and the arbiter) write."""
    text = Path(path).read_text()
    record = json.loads(text)
    states = replay(record, inputs, config=config)
    if dumps(record) != text:
        raise ReplayMismatch(f"{path}: the JSON is not written byte for byte as the arbiter writes it")
    return states


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text())
