"""Seats: who decides for one seat of a game the referee loop (engine/core/referee.py) plays.

A seat is told where it sits at the start of each unit (`begin`), asked for an action at each
of its decisions (`act`, with its view and the legal actions), told the unit's returns (`end`)
and closed once the match (or chunk) is over (`close`, which reports what it used). Kinds:

- `BotSeat`: an in-process bot object (the contract's bot shapes, engine/core/contract.py);
- `ProgramSeat`: an untrusted program run by the one runner (engine.core.process.LineProcess),
  talking the game's declared line protocol, under its declared limits and bad-output rule;
- a fitted opponent model (future `ModelSeat`) is an in-process seat too: a model object whose
  `act` draws from the generator it is handed, i.e. `BotSeat(model, ask=act_with_generator)`.
  BotSeat seeds that generator per (unit, seat), so a model's play replays bit for bit.

A seat that cannot answer raises `SeatFault` (what went wrong, in one line); the referee then
applies the seat's `rule` (a `BadOutputRule`). A program that is gone (crashed, timed out, broke
a limit) can answer nothing more: its fault ends the match whatever the rule, keeping every unit
already played.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np

from engine.core.errors import BadValue, IllegalMove
from engine.core.process import LimitExceeded, LineProcess, ProcessReport, ProgramEnded, exit_text, last_lines
from engine.core.seeds import Purpose, generator, unit_key

FORFEIT_UNIT = "forfeit_unit"  # the unit ends; the faulting seat gets `forfeit`, every other seat `others`
DEFAULT_ACTION = "default_action"  # the seat plays `fallback(legal)` instead, and the unit goes on
END_MATCH = "end_match"  # the match ends; every unit already played is kept
RULES = (FORFEIT_UNIT, DEFAULT_ACTION, END_MATCH)
STDERR_TAIL_CHARS = 400  # of a failed program's stderr, in its fault's reason


class BadOutput(ValueError):
    """A program's line that the game's protocol cannot read as an action (str(): why)."""


class SeatFault(Exception):
    """A seat gave no usable action. `kind`: 'bad-output' or 'illegal' (the seat is still there),
    or, with `gone` True, 'crash', 'time', 'cpu', 'memory' or 'output' (a program that is gone)."""

    def __init__(self, kind: str, reason: str, *, gone: bool = False):
        super().__init__(f"{kind}: {reason}")
        self.kind, self.reason, self.gone = kind, reason, gone


def first_legal(legal: Sequence) -> Any:
    return legal[0]


@dataclass(frozen=True)
class BadOutputRule:
    """What the contest does with an unreadable or illegal answer (a game declares one)."""

    kind: str = END_MATCH
    forfeit: float = 0.0  # forfeit_unit: the faulting seat's return for the unit
    others: float = 0.0  # forfeit_unit: every other seat's return for the unit
    fallback: Callable[[Sequence], Any] = first_legal  # default_action: legal actions -> the one played

    def __post_init__(self):
        if self.kind not in RULES:
            raise BadValue(f"unknown bad-output rule {self.kind!r}; accepted: {', '.join(RULES)}")


@dataclass(frozen=True)
class ProgramLimits:
    """A program's limits (a game declares them): wall-clock seconds per answer (the first answer
    may include the program's start-up), CPU seconds for the whole run, peak resident memory."""

    turn_seconds: float = 1.0
    first_turn_seconds: float = 5.0
    cpu_seconds: float | None = None
    memory_mb: float | None = None


@runtime_checkable
class Seat(Protocol):
    """What the referee loop plays. A seat may also have `start_match(key)`: called once before its first
    unit with the match's own key (unit 0's seat key, whichever unit a chunk starts at), for draws that
    span units, as a judge gives a bot that learns across a match."""

    rule: BadOutputRule

    def begin(self, game, seat: int, unit_seed: int) -> None:
        """A unit starts with this seat at game seat `seat`; `unit_seed` seeds the seat's own
        randomness (never the deal's). May raise SeatFault (a program that cannot start)."""

    def act(self, view, legal: Sequence) -> Any:
        """The action for this decision; SeatFault if there is none."""

    def end(self, returns: tuple[float, ...]) -> None:
        """The unit is over, with these returns (every seat's)."""

    def close(self) -> Any:
        """The match is over: stop what runs and report it (None if nothing to report)."""


def seat_key(unit_seed: int, seat: int) -> int:
    """A seat's key for one unit: the key the Tractor and Splendor judges seed their bots with."""
    return unit_key(unit_seed, seat, Purpose.BOT)


def act_on_view(bot, view, legal, rng) -> Any:
    return bot.act(view)


def act_with_generator(bot, view, legal, rng) -> Any:
    """For bots that take the judge's seeded generator (TurnBot: `act(view, rng)`)."""
    return bot.act(view, rng)


class BotSeat:
    """An in-process bot. `ask(bot, view, legal, rng) -> action` turns a decision into a call of the
    bot's own shape (default `bot.act(view)`); `rng` is generator(seat_key(...)), seeded per (unit,
    seat). `on_begin(bot, seat, key)`, if given, starts the bot's unit with that same key (e.g. a
    Splendor bot's `new_game(key)`). An exception the bot raises is a bug and propagates; an
    illegal action is a fault under `rule`."""

    def __init__(self, bot, *, ask: Callable[..., Any] = act_on_view, rule: BadOutputRule = BadOutputRule(),
                 on_begin: Callable[[Any, int, int], None] | None = None):
        self.bot, self.ask, self.rule, self.on_begin = bot, ask, rule, on_begin
        self.rng: np.random.Generator | None = None

    def begin(self, game, seat: int, unit_seed: int) -> None:
        key = seat_key(unit_seed, seat)
        self.rng = generator(key)
        if self.on_begin is not None:
            self.on_begin(self.bot, seat, key)

    def act(self, view, legal: Sequence) -> Any:
        return self.ask(self.bot, view, legal, self.rng)

    def end(self, returns: tuple[float, ...]) -> None:
        pass

    def close(self) -> None:
        return None


@runtime_checkable
class LineProtocol(Protocol):
    """How a game talks to a program, one text line at a time (the game declares one)."""

    def opening(self, game, seat: int) -> list[str]:
        """Lines sent at the start of each unit (the program lives for the whole match)."""

    def turn(self, view, legal: Sequence) -> list[str]:
        """Lines sent for one decision; the program answers one line."""

    def parse(self, line: str, legal: Sequence) -> Any:
        """The action the line means; BadOutput if unreadable, IllegalMove if refused."""


@dataclass(frozen=True)
class ProgramReport:
    """What a program seat did over a match: answers given, its failure (None: none) and the runner's report."""

    answers: int
    failure: str | None
    process: ProcessReport | None = field(default=None)


_WHY = {"wall": "time"}  # LimitExceeded kinds as fault kinds ('cpu', 'memory', 'output' stay)


class ProgramSeat:
    """A sandboxed program (engine.core.process.LineProcess) speaking `protocol`. Started at its
    first unit, kept for the match, stopped at `close`; a new `begin` after `close` starts it again.
    A crash, a timeout or a limit is a `gone` SeatFault whose reason names the exit status or signal
    and the tail of the program's stderr."""

    def __init__(self, argv: list[str], protocol: LineProtocol, *, rule: BadOutputRule = BadOutputRule(),
                 limits: ProgramLimits = ProgramLimits(), cwd: str | None = None, env: dict[str, str] | None = None,
                 namespaces: bool = True):
        self.argv, self.protocol, self.rule, self.limits = list(argv), protocol, rule, limits
        self.cwd, self.env, self.namespaces = cwd, env, namespaces
        self.process: LineProcess | None = None
        self.answers = 0
        self.failure: str | None = None
        self.report: ProcessReport | None = None

    def _fail(self, kind: str, message: str) -> SeatFault:
        """Stop the program; the fault, with how it ended and its stderr tail."""
        report = self.process.close(grace=0.2) if self.process is not None else self.report
        self.process, self.report = None, report
        reason = message
        if report is not None:  # how it ended and its stderr's end, unless the runner's message says them
            ended = exit_text(report.returncode) or "still running when stopped"
            tail = last_lines(report.stderr_tail[-STDERR_TAIL_CHARS:])
            parts = (ended, tail and f"stderr: {tail}")
            reason += "".join(f"; {part}" for part in parts if part and part not in reason)
        self.failure = f"{kind}: {reason}"
        return SeatFault(kind, reason, gone=True)

    def begin(self, game, seat: int, unit_seed: int) -> None:
        if self.failure is not None:
            raise SeatFault("crash", self.failure, gone=True)
        if self.process is None:
            lim = self.limits
            try:
                self.process = LineProcess(self.argv, cpu_seconds=lim.cpu_seconds, memory_mb=lim.memory_mb,
                                           cwd=self.cwd, env=self.env, namespaces=self.namespaces)
            except ProgramEnded as exc:
                raise self._fail("crash", str(exc)) from exc
        self._send(self.protocol.opening(game, seat))

    def _send(self, lines: list[str]) -> None:
        try:
            for line in lines:
                self.process.send(line)
        except LimitExceeded as exc:
            raise self._fail(_WHY.get(exc.kind, exc.kind), str(exc)) from exc
        except ProgramEnded as exc:
            raise self._fail("crash", str(exc)) from exc

    def act(self, view, legal: Sequence) -> Any:
        if self.process is None:
            raise SeatFault("crash", self.failure or "the program is not running", gone=True)
        self._send(self.protocol.turn(view, legal))
        timeout = self.limits.first_turn_seconds if self.answers == 0 else self.limits.turn_seconds
        try:
            line = self.process.read_line(timeout)
        except LimitExceeded as exc:
            raise self._fail(_WHY.get(exc.kind, exc.kind), str(exc)) from exc
        except ProgramEnded as exc:
            raise self._fail("crash", str(exc)) from exc
        self.answers += 1
        try:
            return self.protocol.parse(line, legal)
        except BadOutput as exc:
            raise SeatFault("bad-output", f"{str(exc) or 'unreadable'}: {line[:200]!r}") from exc
        except IllegalMove as exc:
            raise SeatFault("illegal", f"{exc.reason}: {line[:200]!r}") from exc

    def end(self, returns: tuple[float, ...]) -> None:
        pass

    def close(self) -> ProgramReport:
        if self.process is not None:
            self.report = self.process.close(grace=0.2)
            self.process = None
        out = ProgramReport(self.answers, self.failure, self.report)
        self.answers, self.failure, self.report = 0, None, None  # ready for another match
        return out
