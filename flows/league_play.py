"""One league game, played through the contest's own judge: thin functions over each judge's
public entry points (the judges are not changed for leagues).

A game is keyed by (league, round, seating): the same round always deals the same cards (or
the same simulator cases), whichever table and seating plays it, so luck cancels between
seatings and a key is never played twice. Everything here runs in a worker thread: no
database; the flow process writes what `play` returns.
"""

import math
import shlex
import time
from dataclasses import dataclass

import numpy as np

from engine.core.log import ChunkLog
from engine.core.seeds import Purpose, match_key, unit_key
from flows.league_spec import FIXED_OPPONENT, REFERENCE, Entrant, LeagueSpec, project_bot

HOLDEM_HANDS = 1000  # per game; the contest's match is 10,000 hands (set `hands` in the options)
TCD_HANDS = 1000  # per game; a TopCoder test was 10,000 hands
TRACTOR_CASES = 10  # rounds per simulator run (one contest input file)
_UNITS = {"holdem-training": HOLDEM_HANDS, "twocarddraw": TCD_HANDS, "tractor": TRACTOR_CASES}


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
    return 1 if spec.game in FIXED_OPPONENT + REFERENCE else spec.players


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
    player = {"holdem-training": _holdem_training, "twocarddraw": _twocarddraw, "cg-holdem": _cg_holdem,
              "splendor": _splendor, "tractor": _tractor}[spec.game]
    payoffs, ranks, faults, cpu, log = player(spec, plan)
    key = "cases" if spec.game in REFERENCE else "hands"
    units = 1 if table_size(spec) > 1 else spec.option(key, _UNITS[spec.game])
    return GameOutcome(plan, tuple(payoffs), tuple(ranks), tuple(faults), tuple(cpu), log,
                       time.perf_counter() - started, units)


def _argv(e: Entrant) -> list[str]:
    return shlex.split(e.command)


def _holdem_training(spec: LeagueSpec, plan: GamePlan):
    from engine.holdem_training.judge import play_external
    from engine.holdem_training.rules import CPU_SECONDS

    hands = spec.option("hands", HOLDEM_HANDS)
    # The contest's limit is for a whole match; a shorter game keeps it whole, since a program's
    # start-up (loading tables, compiling) does not shrink with the hands.
    cpu = spec.option("cpu_seconds", CPU_SECONDS)
    result = play_external(_argv(plan.seats[0]), seed=plan.seed, hands=hands, cpu_seconds=cpu)
    profit = float(np.sum(result.log.payoffs)) / hands  # hands not played count 0 (see the README)
    fault = "" if result.complete else f"{result.status}: {result.reason}"
    return [profit], [1], [fault], [result.cpu_seconds], result.log


def _twocarddraw(spec: LeagueSpec, plan: GamePlan):
    from engine.twocarddraw.judge import OK, MatchOptions, load_server, play_bot
    from engine.twocarddraw.program import play_program

    server = load_server(MatchOptions(strategy=spec.option("strategy", "")))
    hands = spec.option("hands", TCD_HANDS)
    entrant = plan.seats[0]
    if entrant.bot_class:  # the user's class in its own sandboxed process, TopCoder's CPU accounting
        result, _ = play_program(*entrant.bot_class, server, seed=plan.seed, count=hands)
    else:
        bot = project_bot(entrant).make()
        result = play_bot(bot, server, seed=plan.seed, count=hands)  # CPU: the bot's own thread time
    fault = "" if result.status == OK else f"{result.status}: {result.record.message}"
    return [result.profit / hands], [1], [fault], [result.cpu_seconds], result.chunk_log()


def _cg_holdem(spec: LeagueSpec, plan: GamePlan):
    from engine.cg_holdem.judge import game_log, java_seed, play_programs
    from engine.cg_holdem.rules import GameConfig

    config = GameConfig(players=len(plan.seats))
    result = play_programs([_argv(e) for e in plan.seats], seed=java_seed(plan.seed), config=config)
    n = result.players
    payoffs = [(n - pos) / (n - 1) for pos in result.positions]
    faults = [r.get("failure") or "" for r in result.seat_reports]
    cpu = [r.get("cpu_seconds") for r in result.seat_reports]
    return payoffs, list(result.positions), faults, cpu, game_log(result, [e.key for e in plan.seats])


def _splendor(spec: LeagueSpec, plan: GamePlan):
    from engine.splendor.agents import ExternalAgent
    from engine.splendor.judge import chunk_log, game_deal, play_game

    agents = [ExternalAgent(name=e.key, command=e.command) for e in plan.seats]
    result = play_game(agents, game_deal(plan.seed, 0, len(agents)))
    payoffs = [result.share(s) for s in range(len(agents))]
    ranks = [1 if s in result.winners else 2 for s in range(len(agents))]
    faults = [""] * len(agents)
    cpu = [0.0] * len(agents)
    for turn in result.turns:  # the contest passes a faulty move; the league notes the first limit hit
        seat = turn.event.seat
        cpu[seat] += turn.reply.cpu_seconds
        if turn.reply.limit and not faults[seat]:
            faults[seat] = f"{turn.reply.limit} limit"
    return payoffs, ranks, faults, cpu, chunk_log(0, [(0, result, 0)])


def tractor_cases(spec: LeagueSpec, round_: int):
    """The round's fresh cases: rounds played by the project's random and rule bots (as
    `cardlab judge tractor --program` makes them), as contest input, with the reference
    simulator's output on that input."""
    import io

    from bots.tractor import BOTS
    from engine.tractor.judge import contest_input, play_rounds
    from engine.tractor.simulate import run

    count = spec.option("cases", TRACTOR_CASES)
    rounds = play_rounds(BOTS["random"].make(), BOTS["rule"].make(), seed=spec.seed, first=round_ * count,
                         count=count)
    text, expected = contest_input(rounds), io.StringIO()
    error = run(text, expected)
    if error is not None:  # our own rounds: a malformed case is a bug here, not the program's fault
        raise RuntimeError(f"league round {round_}: the reference simulator rejects our input: {error}")
    return rounds, text, expected.getvalue()


def _tractor(spec: LeagueSpec, plan: GamePlan):
    from engine.tractor.judge import round_tables, run_program

    rounds, text, expected = tractor_cases(spec, plan.round)
    verdict = run_program(_argv(plan.seats[0]), text, expected)
    # The contest credits an input only when accepted; a wrong answer still shows how far it agreed.
    agreed = verdict.cases if verdict.verdict == "accepted" else (
        verdict.matched if verdict.verdict == "wrong answer" else 0)
    flags = np.array([1.0 if i < agreed else 0.0 for i in range(verdict.cases)])
    fault = "" if verdict.verdict in ("accepted", "wrong answer") else verdict.verdict
    log = ChunkLog(first=rounds[0].index, payoffs=flags, tables=round_tables(rounds),
                   stats={"matched": float(verdict.matched), "cpu_seconds": verdict.cpu_seconds})
    return [float(flags.mean())], [1], [fault], [verdict.cpu_seconds], log
