"""Tractor in the workspace: full rounds between bots, each replayed through the contest simulator.

unit = one round (deal, hidden cards, 25 cards each). payoff = the primary bot's team's level
change minus the other team's level change that round (the CR update of the contest), from
the primary team's side; odd rounds seat the primary bot on team 2 (MatchOptions.swap_seats).
"""

import io

import numpy as np

from bots.base import Accepts, declare
from bots.tractor import BOTS
from engine.core.log import ChunkLog
from engine.tractor import judge
from engine.tractor.simulate import run
from flows.games.base import REFERENCE, DecisionDefaults, GameSpec, LeagueRules, python_and_cpp
from flows.league_play import GamePlan, argv
from flows.league_spec import LeagueSpec

declare(judge.MatchOptions, opponent=Accepts(choices=tuple(sorted(BOTS))))  # engine code cannot import bots


def play_chunk(spec, config, *, seed: int, first: int, count: int, options=None):
    return judge.play_chunk(spec, config, seed=seed, first=first, count=count, options=options, bots=BOTS)


LEAGUE_CASES = 10  # rounds per simulator run (one contest input file)


def league_cases(league: LeagueSpec, round_: int):
    """The round's fresh cases: rounds played by the project's random and rule bots (as
    `cardlab judge tractor --program` makes them), as contest input, with the reference
    simulator's output on that input."""
    count = league.option("cases", LEAGUE_CASES)
    rounds = judge.play_rounds(BOTS["random"].make(), BOTS["rule"].make(), seed=league.seed, first=round_ * count,
                               count=count)
    text, expected = judge.contest_input(rounds), io.StringIO()
    error = run(text, expected)
    if error is not None:  # our own rounds: a malformed case is a bug here, not the program's fault
        raise RuntimeError(f"league round {round_}: the reference simulator rejects our input: {error}")
    return rounds, text, expected.getvalue()


def play_league_game(league: LeagueSpec, plan: GamePlan):
    """One entrant's simulator on the round's cases, scored by agreement with the reference's output."""
    rounds, text, expected = league_cases(league, plan.round)
    verdict = judge.run_program(argv(plan.seats[0]), text, expected)
    # The contest credits an input only when accepted; a wrong answer still shows how far it agreed.
    agreed = verdict.cases if verdict.verdict == "accepted" else (
        verdict.matched if verdict.verdict == "wrong answer" else 0)
    flags = np.array([1.0 if i < agreed else 0.0 for i in range(verdict.cases)])
    fault = "" if verdict.verdict in ("accepted", "wrong answer") else verdict.verdict
    log = ChunkLog(first=rounds[0].index, payoffs=flags, events=judge.round_events(rounds),
                   stats={"matched": float(verdict.matched), "cpu_seconds": verdict.cpu_seconds})
    return [float(flags.mean())], [1], [fault], [verdict.cpu_seconds], log


SPEC = GameSpec(
    name="tractor",
    title="Tractor (SPOJ TRACTOR): full rounds, checked against the single-round simulator",
    unit="round",
    bots=BOTS,
    default_bot="rule",
    play_chunk=play_chunk,
    sql_file="tractor.sql",
    options_type=judge.MatchOptions,
    default_grid={"dump_points": ("true", "false"), "min_block_rank": ("6", "9")},
    default_units=200,
    payoff_label="levels gained minus levels conceded per round",
    league=LeagueRules(play=play_league_game, units_option="cases", default_units=LEAGUE_CASES, options={"cases": int}),
    decision=DecisionDefaults(d1=0.1, batch=200, first_look=400),
    payoff_kind=REFERENCE,  # the contest: a simulator checked against the reference (leagues rank so)
    panels="reports.panels.tractor",
    replay="reports.replay.tractor",
    commands="cardlab.commands.tractor",
    rules_doc="docs/rules/tractor.md",
    starters=python_and_cpp("bots/tractor/starters", ('cardlab judge tractor --rounds 3 --program "{program}"',)),
)
