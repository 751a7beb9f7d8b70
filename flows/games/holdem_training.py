"""Hold'em Training in the workspace: the primary bot is Alice against the contest's fixed Bob.

unit = one hand. payoff = Alice's profit in chips (ending stack - 100); the contest's W is
its mean over a match. Hand i is dealt from (seed, i), so chunks and sweeps share deals.
"""

from dataclasses import dataclass

from bots.base import Ranged, ranged
from bots.holdem_training import BOTS
from engine.holdem_training import judge
from engine.holdem_training.rules import BOB_ROLLOUTS, CPU_SECONDS, MAX_HANDS, RATE_BUDGET
from flows.games.base import HOUSE, DecisionDefaults, GameSpec, LeagueRules, python_and_cpp
from flows.games.holdem_training_log import export_phh, packed_hands
from flows.games.holdem_training_luck import unit_luck
from flows.league_play import GamePlan, argv
from flows.league_spec import LeagueSpec


@dataclass(frozen=True)
class MatchOptions(Ranged):
    # RATE rollouts a chunk may spend per hand it plays (the contest: 3,000,000 per 10,000 hands).
    rate_budget_per_hand: int = ranged(RATE_BUDGET // MAX_HANDS, 0, RATE_BUDGET)
    # Bob's Monte Carlo completions per call decision (CPU-bound: 100x the contest's is plenty)
    bob_rollouts: int = ranged(BOB_ROLLOUTS, 1, 100 * BOB_ROLLOUTS)


def play_chunk(spec, config, *, seed: int, first: int, count: int, options=None):
    options = options or MatchOptions()
    return judge.play_chunk(spec.make(config), seed=seed, first=first, count=count,
                            rate_budget=options.rate_budget_per_hand * count, bob_rollouts=options.bob_rollouts)


def program_cpu_seconds(hands: int) -> float:
    """The one CPU policy for a program playing `hands` hands in its own process (sweep chunks and league
    games alike): the contest's 10 s for a whole 10,000-hand match; fewer hands get their share of it
    plus 1 s for the program's start-up (a new process each time), never more than 10 s."""
    return min(CPU_SECONDS, CPU_SECONDS * hands / MAX_HANDS + 1.0)


def play_program(config, *, seed: int, first: int, count: int, options=None, keep_on_interrupt: bool = False):
    """A user's program as Alice on hands first..first+count-1, through the contest's own judge,
    with program_cpu_seconds(count). Ctrl-C, SIGTERM or SIGHUP is an interrupt, not the program's fault:
    with `keep_on_interrupt` (a judged match) the hands finished are returned, else it is raised again, so a
    match or sweep drops the chunk as interrupted rather than recording a failed one."""
    options = options or MatchOptions()
    result = judge.play_external(config.argv(), env=config.env(), seed=seed, first=first, hands=count,
                                 rate_budget=options.rate_budget_per_hand * count, bob_rollouts=options.bob_rollouts,
                                 cpu_seconds=program_cpu_seconds(count))
    if result.status == "interrupted":  # play_external kept the hands played (engine.core.ending)
        if keep_on_interrupt:
            return result.log
        raise KeyboardInterrupt(result.reason)
    if result.status != "ok":  # the contest ends the match here; a chunk is all or nothing
        raise judge.MatchAborted(f"{result.status} after {result.hands_played} of {count} hands: {result.reason}")
    return result.log


LEAGUE_HANDS = 1000  # per league game; the contest's match is 10,000 hands (set `hands` in the options)


def play_league_game(league: LeagueSpec, plan: GamePlan):
    """One entrant's program as Alice for `hands` hands of the round's deal, through the contest's judge."""
    hands = league.option("hands", LEAGUE_HANDS)
    cpu = league.option("cpu_seconds", program_cpu_seconds(hands))  # the sweeps' policy unless the league sets one
    result = judge.play_external(argv(plan.seats[0]), seed=plan.seed, hands=hands, cpu_seconds=cpu)
    profit = float(result.log.payoffs.sum()) / hands  # hands not played count 0 (docs/leagues.md)
    fault = "" if result.complete else f"{result.status}: {result.reason}"
    return [profit], [1], [fault], [result.cpu_seconds], result.log


SPEC = GameSpec(
    name="holdem-training",
    title="Hold'em Training: Alice against Bob's 100-rollout call rule (profit per hand = the contest's W)",
    unit="hand",
    bots=BOTS,
    default_bot="rate_equity",
    play_chunk=play_chunk,
    sql_file="holdem_training.sql",
    options_type=MatchOptions,
    default_grid={"threshold": ("0.55", "0.6", "0.65"), "raise_fraction": ("0.25", "0.5")},
    default_units=2000,
    demo_sweep=("exploit", ("future_flop=0.4,0.6,1.0",)),  # the strongest bot over a knob worth tuning
    payoff_label="profit per hand (chips; the contest's W)",
    play_program=play_program,
    payoff_kind=HOUSE,
    # d1: 0.5 chips/hand, what the fixed design decided sweeps replace (20,000 hands per config) resolves
    # at 5%/5% errors on a pair of paired sd 21 (3.29 x 21 / sqrt(20,000)): the sequential test is held to
    # that design's resolution, not a finer one (a smaller step is --d1). The first look waits for 2,000
    # hands and then comes every 250: raw differences can be extremely skewed (skewness -13.8, kurtosis 338
    # between two exploit configs: looking from 1,000 on erred in 5.7% / 5.8% of resampled runs); on 80,000
    # real paired hands with the luck taken out, resampled, 2,000 / 250 erred in at most 4.5% (every upper bound
    # below 5%) and decided the null pair in 3,670 hands per config, 5.4x fewer than 2 x 20,000 (3,000 / 1,000:
    # 4,550, 4.4x; 2,000 / 500: 3,840, 5.2x; `bench decisions --pool 80000 --seed 8000 --repeats 10000`).
    decision=DecisionDefaults(d1=0.5, batch=250, first_look=2000),
    luck=unit_luck,  # the cards' luck, AIVAT-style (engine/holdem_training/luck.py)
    league=LeagueRules(play=play_league_game, units_option="hands", default_units=LEAGUE_HANDS,
                       options={"hands": int, "cpu_seconds": float}),
    phh=export_phh,
    log_layout=packed_hands,
    panels="reports.panels.holdem_training",
    replay="reports.replay.holdem_training",
    commands="cardlab.commands.holdem_training",
    rules_doc="docs/rules/holdem_training.md",
    starters=python_and_cpp("bots/holdem_training/starters", ('cardlab judge holdem-training --hands 200 {program}',)),
    opponent_model="flows.opponents.holdem_training",  # Bob's call rule recovered from the logged raises
)
