"""The one referee loop: any contract game (engine/core/contract.py) played by any kind of seat.

Usage: a game declares how a program talks to it, then plays programs and bots alike::

    from engine.core.referee import play_units
    from engine.core.seats import BadOutput, BadOutputRule, BotSeat, ProgramLimits, ProgramSeat

    class HighCardLines:                       # the game's line protocol
        def opening(self, game, seat):         # sent at the start of each unit
            return [f"seat {seat}"]
        def turn(self, view, legal):           # sent at each decision; the program answers one line
            return [f"card {view.card}", " ".join(legal)]
        def parse(self, line, legal):          # BadOutput if unreadable; IllegalMove if refused
            if line.strip() not in legal:
                raise BadOutput(f"expected one of {', '.join(legal)}")
            return line.strip()

    RULE = BadOutputRule("forfeit_unit", forfeit=-1.0, others=1.0)   # or "default_action", "end_match"
    LIMITS = ProgramLimits(turn_seconds=1.0, cpu_seconds=10.0, memory_mb=512)

    seats = [ProgramSeat(["python3", "player.py"], HighCardLines(), rule=RULE, limits=LIMITS),
             BotSeat(house_bot)]
    log = play_units(GAME, seats, seed=7, first=0, count=100)        # a ChunkLog; payoff = seat 0's return
    played = play_match(GAME, seats, seed=7, first=0, count=100)     # the same, with faults and seat reports

How a unit is seeded (so a chunk's result depends only on (seed, unit), never on the chunking):
with `key = engine.core.seeds.match_key(seed)`,

- the deal: `game.start_unit(seed, unit)` if the game has that optional hook ("unit `unit` of the
  match `seed`, dealt as its judge deals it"; every built-in adapter has it),
  else `game.start(unit_key(key, unit, Purpose.DEAL))`;
- the seats: each seat's `begin` gets `unit_key(key, unit, Purpose.BOT)`; a BotSeat draws from
  `generator(unit_key(that, game_seat, Purpose.BOT))`, the stream the Tractor and Splendor judges
  hand their bots. Seats never see the deal's key.

Faults: an answer a seat cannot give (SeatFault) or the game refuses (IllegalMove) is a `Fault`,
handled by the seat's BadOutputRule; a program that is gone ends the match. A match that ends
keeps every unit already played (the chunk is then shorter than asked: `MatchPlay.ended`).
"""

import dataclasses
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np

from engine.core.contract import Game
from engine.core.errors import BadValue, IllegalMove
from engine.core.log import ChunkLog
from engine.core.seats import DEFAULT_ACTION, END_MATCH, FORFEIT_UNIT, Seat, SeatFault
from engine.core.seeds import Purpose, match_key, unit_key

EVENTS_TABLE = "referee_events"  # unit, step, seat, event (JSON text)
FAULTS_TABLE = "referee_faults"  # unit, seat, entrant, kind, rule, reason


@dataclass(frozen=True)
class Fault:
    """An answer not taken as given: `seat` is the game seat, `entrant` the index in the line-up
    passed to play_match (the same without seating), `rule` what was done about it."""

    unit: int
    seat: int
    kind: str  # SeatFault kinds: bad-output, illegal, crash, time, cpu, memory, output
    reason: str
    rule: str  # forfeit_unit, default_action or end_match
    entrant: int = -1


@dataclass(frozen=True)
class UnitResult:
    unit: int
    events: tuple[tuple[int, Any], ...]  # (acting seat, frozen event) in order
    returns: tuple[float, ...] | None  # None: the match ended during this unit
    faults: tuple[Fault, ...] = ()

    @property
    def ended_match(self) -> bool:
        return self.returns is None


@dataclass(frozen=True)
class MatchPlay:
    log: ChunkLog  # the units played (fewer than asked if the match ended)
    faults: tuple[Fault, ...]
    reports: tuple[Any, ...]  # each entrant's close() report, in line-up order
    ended: bool  # a fault ended the match before `count` units
    interrupted: bool = False  # an ending signal stopped it (only with keep_on_interrupt)


def deal(game: Game, seed: int, unit: int) -> Any:
    """Unit `unit` of the match `seed` (see the module docstring)."""
    start_unit = getattr(game, "start_unit", None)
    if start_unit is not None:
        return start_unit(seed, unit)
    return game.start(unit_key(match_key(seed), unit, Purpose.DEAL))


def play_unit(game: Game, seats: Sequence[Seat], seed: int, unit: int = 0) -> UnitResult:
    """Play unit `unit` of match `seed` to its end; seats[s] decides for game seat s."""
    if len(seats) != game.seats:
        raise BadValue(f"{game.name} has {game.seats} seats, got {len(seats)}")
    state = deal(game, seed, unit)
    seat_seed = unit_key(match_key(seed), unit, Purpose.BOT)
    events: list[tuple[int, Any]] = []
    faults: list[Fault] = []
    for s, seat in enumerate(seats):
        try:
            seat.begin(game, s, seat_seed)
        except SeatFault as exc:
            return UnitResult(unit, (), None, (Fault(unit, s, exc.kind, exc.reason, END_MATCH),))
    while (s := game.to_act(state)) is not None:
        legal = game.legal(state)
        seat = seats[s]
        try:
            events.append((s, game.apply(state, seat.act(game.view(state, s), legal))))
            continue
        except SeatFault as exc:
            kind, reason, gone = exc.kind, exc.reason, exc.gone
        except IllegalMove as exc:  # refused: the state is unchanged
            kind, reason, gone = "illegal", exc.reason, False
        rule = END_MATCH if gone else seat.rule.kind
        faults.append(Fault(unit, s, kind, reason, rule))
        if rule == END_MATCH:
            return UnitResult(unit, tuple(events), None, tuple(faults))
        if rule == FORFEIT_UNIT:
            returns = tuple(seat.rule.forfeit if i == s else seat.rule.others for i in range(game.seats))
            break
        assert rule == DEFAULT_ACTION
        events.append((s, game.apply(state, seat.rule.fallback(legal))))  # the declared fallback must be legal
    else:
        returns = tuple(game.returns(state))
    for seat in seats:
        seat.end(returns)
    return UnitResult(unit, tuple(events), returns, tuple(faults))


def rotation(seats: int) -> Callable[[int], tuple[int, ...]]:
    """A seating that moves entrant k to game seat (k + unit) % seats: over `seats` units every
    entrant sits everywhere (the Tractor judge's swap_seats, the CodinGame judge's rotation)."""
    return lambda unit: tuple((s - unit) % seats for s in range(seats))


def _plain(x):
    """An event as JSON-ready values: dataclasses and named tuples as objects with their type's name."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {"type": type(x).__name__, **{f.name: _plain(getattr(x, f.name)) for f in dataclasses.fields(x)}}
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return {"type": type(x).__name__, **{k: _plain(v) for k, v in zip(x._fields, x, strict=True)}}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if isinstance(x, (set, frozenset)):
        return [_plain(v) for v in sorted(x, key=lambda v: (type(v).__name__, repr(v)))]
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, Enum):
        return x.name
    if isinstance(x, (np.generic, np.ndarray)):
        return x.tolist()
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return repr(x)


def event_json(event) -> str:
    """One event as compact JSON text (the referee_events table's `event` column)."""
    return json.dumps(_plain(event), separators=(",", ":"))


def play_match(game: Game, seats: Sequence[Seat], *, seed: int, first: int, count: int, payoff_seat: int = 0,
               seating: Callable[[int], Sequence[int]] | None = None, record_events: bool = False,
               record_faults: bool = False, on_unit: Callable[[int], None] | None = None,
               keep_on_interrupt: bool = False) -> MatchPlay:
    """Units first..first+count-1 of match `seed` with this line-up of seats (entrants), closing
    every seat at the end. `seating(unit)[s]`: the entrant at game seat s in that unit (default:
    entrant s). payoff per unit: the return of entrant `payoff_seat`. Tables, only if asked:
    referee_events (unit, step, seat, event as JSON), referee_faults (unit, seat, entrant, kind,
    rule, reason). stats: faults, ended_early (1.0 if a fault ended the match). `on_unit(unit)` is
    called after each unit (a progress bar). `keep_on_interrupt` (a judged match, not a chunk of a
    sweep): Ctrl-C, SIGTERM or SIGHUP ends the match with the units finished so far, `interrupted`."""
    n = game.seats
    if len(seats) != n or len({id(s) for s in seats}) != n:
        raise BadValue(f"{game.name} needs {n} distinct seat objects, got {len(seats)}"
                       f" ({len({id(s) for s in seats})} distinct)")
    if not 0 <= payoff_seat < n:
        raise BadValue(f"payoff_seat must be 0..{n - 1}, got {payoff_seat}")
    if first < 0 or count < 0:
        raise BadValue(f"first and count must be non-negative, got {first} and {count}")
    payoffs: list[float] = []
    faults: list[Fault] = []
    events = {"unit": [], "step": [], "seat": [], "event": []}
    ended = interrupted = False
    for seat in seats:  # draws that span units follow the match, not the chunk (Seat's optional start_match)
        if hasattr(seat, "start_match"):
            seat.start_match(unit_key(match_key(seed), 0, Purpose.BOT))
    try:
        for unit in range(first, first + count):
            order = tuple(seating(unit)) if seating is not None else tuple(range(n))
            if sorted(order) != list(range(n)):
                raise BadValue(f"seating({unit}) must order the entrants 0..{n - 1}, got {order}")
            result = play_unit(game, [seats[k] for k in order], seed, unit)
            faults += [dataclasses.replace(f, entrant=order[f.seat]) for f in result.faults]
            if result.ended_match:
                ended = True
                break
            payoffs.append(result.returns[order.index(payoff_seat)])
            if record_events:
                for step, (s, event) in enumerate(result.events):
                    for column, value in zip(events, (unit, step, s, event_json(event)), strict=True):
                        events[column].append(value)
            if on_unit is not None:
                on_unit(unit)
    except KeyboardInterrupt:  # the unit in play is dropped; every unit before it is kept
        if not keep_on_interrupt:
            raise
        interrupted = True
        kept = first + len(payoffs)  # the signal may land between a unit's payoff and its rows
        rows = [i for i, u in enumerate(events["unit"]) if u < kept]
        events = {column: [values[i] for i in rows] for column, values in events.items()}
        faults = [f for f in faults if f.unit < kept]
    finally:
        reports = tuple(seat.close() for seat in seats)
    tables = {}
    if record_events:
        tables[EVENTS_TABLE] = events
    if record_faults:
        tables[FAULTS_TABLE] = {name: [getattr(f, name) for f in faults]
                                for name in ("unit", "seat", "entrant", "kind", "rule", "reason")}
    stats = {"faults": float(len(faults)), "ended_early": float(ended)}
    log = ChunkLog(first=first, payoffs=np.array(payoffs, dtype=np.float64), tables=tables, stats=stats)
    return MatchPlay(log, tuple(faults), reports, ended, interrupted)


def play_units(game: Game, seats: Sequence[Seat], *, seed: int, first: int, count: int, payoff_seat: int = 0,
               seating: Callable[[int], Sequence[int]] | None = None, record_events: bool = False,
               record_faults: bool = False) -> ChunkLog:
    """play_match's ChunkLog alone (see play_match)."""
    return play_match(game, seats, seed=seed, first=first, count=count, payoff_seat=payoff_seat, seating=seating,
                      record_events=record_events, record_faults=record_faults).log
