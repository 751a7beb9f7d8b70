"""The contest's text I/O, byte for byte: the agent's stdin, its stdout tokens, kibitz lines.

No rules here: ``Observation`` is exactly what one agent's stdin holds, and
``engine.splendor.state.observe`` decides what each seat may see.
"""

import re
from dataclasses import dataclass

from engine.core.errors import BadValue
from engine.splendor.rules import KIBITZ_PREFIX

# PHP's trim() and preg_split('/\s+/') as the arbiter uses them.
_PHP_TRIM = " \t\n\r\0\x0b"
_PHP_SPACE = re.compile(r"[ \t\n\x0b\f\r]+")


@dataclass(frozen=True)
class PlayerView:
    chips: tuple[int, ...]  # 6 colours
    cards: tuple[int, ...]  # purchase order
    reserved: tuple[int, ...]  # ids; -level for another player's blind reservation
    nobles: tuple[int, ...]


@dataclass(frozen=True)
class Observation:
    players: int
    me: int  # 0-based seat (the text holds me + 1)
    round: int  # 1-based
    board: tuple[int, ...]  # 6 colours
    piles: tuple[int, int, int]  # face-down counts per level
    face_up: tuple[tuple[int, ...], ...]  # [level][slot], 0 = empty
    nobles: tuple[int, ...]  # on the board, in draw order
    seats: tuple[PlayerView, ...]


def _list(values) -> str:
    return " ".join([str(len(values)), *map(str, values)])


def _ints(values) -> str:
    return " ".join(map(str, values))


def render_input(obs: Observation) -> str:
    """The agent's stdin: every line ends with a newline, no blank lines."""
    lines = [f"{obs.players} {obs.me + 1}", str(obs.round), _ints(obs.board)]
    lines += [f"{pile} {_ints(row)}" for pile, row in zip(obs.piles, obs.face_up, strict=True)]
    lines.append(_list(obs.nobles))
    for seat in obs.seats:
        lines += [_ints(seat.chips), _list(seat.cards), _list(seat.reserved), _list(seat.nobles)]
    return "\n".join(lines) + "\n"


class InputError(BadValue):
    """The stdin text does not follow the contest format; the message names the line."""


class _Lines:
    def __init__(self, text: str):
        self.rows = text.split("\n")
        self.at = 0

    def ints(self, count: int | None = None) -> list[int]:
        if self.at >= len(self.rows):
            raise InputError(f"line {self.at + 1}: missing (the input ended early)")
        row = self.rows[self.at]
        self.at += 1
        try:
            values = [int(w) for w in row.split()]
        except ValueError:
            raise InputError(f"line {self.at}: expected integers, got {row!r}") from None
        if count is not None and len(values) != count:
            raise InputError(f"line {self.at}: expected {count} integers, got {len(values)}")
        return values

    def counted(self) -> tuple[int, ...]:
        values = self.ints()
        if not values or values[0] != len(values) - 1:
            raise InputError(f"line {self.at}: expected a count followed by that many integers")
        return tuple(values[1:])


def parse_input(text: str) -> Observation:
    """Reads an agent's stdin back into an Observation (what a bot works from)."""
    lines = _Lines(text)
    players, me = lines.ints(2)
    (rnd,) = lines.ints(1)
    board = tuple(lines.ints(6))
    rows = [lines.ints(5) for _ in range(3)]
    nobles = lines.counted()
    seats = tuple(PlayerView(tuple(lines.ints(6)), lines.counted(), lines.counted(), lines.counted())
                  for _ in range(players))
    if not 1 <= me <= players:
        raise InputError(f"line 1: your_id {me} is not within 1..{players}")
    return Observation(players, me - 1, rnd, board, tuple(r[0] for r in rows), tuple(tuple(r[1:]) for r in rows),
                       nobles, seats)


def output_tokens(stdout: str) -> list[str]:
    """All of stdout, trimmed and split on whitespace, as the arbiter reads it."""
    trimmed = stdout.strip(_PHP_TRIM)
    return [t for t in _PHP_SPACE.split(trimmed) if t]


def kibitzes(stderr: str) -> list[str]:
    """stderr lines that start with exactly 'kibitz ', minus the prefix, trimmed of PHP's trim()
    characters only (ASCII space, tab, newlines, NUL, vertical tab; not other Unicode spaces)."""
    return [line[len(KIBITZ_PREFIX):].strip(_PHP_TRIM) for line in stderr.split("\n")
            if line.startswith(KIBITZ_PREFIX)]
