"""One league game, played by the game's own league rules (GameSpec.league.play: thin functions
over the judge's public entry points, declared with the game).

A game is keyed by (league, round, seating): the same round always deals the same cards (or
the same simulator cases), whichever table and seating plays it, so luck cancels between
seatings and a key is never played twice. Everything here runs in a worker thread: no
database; the flow process writes what `play` returns.
"""

import math
import shlex
import time
from dataclasses import dataclass

from engine.core.log import ChunkLog
from engine.core.seeds import Purpose, match_key, unit_key
from flows import events, games
from flows.league_spec import Entrant, LeagueSpec, rules_of


@dataclass(frozen=True)
class GamePlan:
    key: str  # unique in the league: round and seating
    round: int
    seats: tuple[Entrant, ...]  # in seat order (one seat for the fixed-opponent and reference games)
    seed: int  # the round's deal (shared by every seating of the round)


@dataclass(frozen=True)
class GameOutcome:
    plan: GamePlan
    payoffs: tuple[float, ...]  # per seat: profit per hand, win share, or cases agreed
    ranks: tuple[int, ...]  # per seat, 1 = best (equal ranks tie)
    faults: tuple[str, ...]  # per seat: '' or the contest's verdict on the program's fault
    cpu_seconds: tuple[float | None, ...]
    log: ChunkLog  # the hand log's rows for this game (payoffs of seat 0)
    seconds: float
    units: int = 1  # hands or cases a payoff is over (what a share's interval counts)


def round_seed(seed: int, round_: int) -> int:
    """The round's match seed: a 63-bit key from (league seed, round)."""
    return unit_key(match_key(seed), round_, Purpose.DEAL) >> 1


def table_size(spec: LeagueSpec) -> int:
    return spec.players if rules_of(spec.game).multi_seat else 1


def units_per_game(spec: LeagueSpec) -> int:
    """Hands or cases one game's payoff is over (1 at a table of several entrants)."""
    rules = rules_of(spec.game)
    if table_size(spec) > 1 or rules.units_option is None:
        return 1
    return spec.option(rules.units_option, rules.default_units)


def argv(entrant: Entrant) -> list[str]:
    """The entrant's program command as the runner takes it."""
    return shlex.split(entrant.command)


def games_per_round(spec: LeagueSpec) -> int:
    """Games one entrant plays in a round: every table it sits at, in every seating."""
    p = table_size(spec)
    return math.comb(len(spec.entrants) - 1, p - 1) * p


def plan_games(spec: LeagueSpec) -> list[GamePlan]:
    """Every game the league holds now: rounds until each entrant has at least `spec.games`
    games; a round plays every table of `players` entrants in every rotation on one deal."""
    import itertools

    p = table_size(spec)
    rounds = -(-spec.games // games_per_round(spec))
    plans = []
    for r in range(rounds):
        seed = round_seed(spec.seed, r)
        for table in itertools.combinations(spec.entrants, p):
            for k in range(p):
                seats = table[k:] + table[:k]
                plans.append(GamePlan(f"r{r}:" + ",".join(e.key for e in seats), r, seats, seed))
    return plans


def play(spec: LeagueSpec, plan: GamePlan) -> GameOutcome:
    started = time.perf_counter()
    payoffs, ranks, faults, cpu, log = rules_of(spec.game).play(spec, plan)
    log = events.encode(log, games.get(spec.game))  # the store takes tables
    return GameOutcome(plan, tuple(payoffs), tuple(ranks), tuple(faults), tuple(cpu), log,
                       time.perf_counter() - started, units_per_game(spec))
