"""Splendor program sweeps (issue 30 item 7): a user's program plays the candidate's seat, a fresh
process per move, on the bots' deals and seats; every config is reproducible from the seed; a
config whose program crashes without answering is recorded as failed with the reason."""

import io
import runpy
import sys
from pathlib import Path

import pytest

from engine.splendor.agents import AgentReply
from engine.splendor.judge import play_chunk
from engine.splendor.program import ProgramCrashed, play_program_chunk
from flows.games.splendor import SplendorOptions, opponent_agents
from flows.store import read_only
from flows.sweep import SweepSpec, parse_grid, sweep_flow, validate

# The league tests' buyer (points: the most points; cheap: the cheapest): it reads the cards file it is given,
# so a missing one crashes it (exit status 1, a traceback, no move) on its first move.
BUYER = Path(__file__).parents[1] / "flows" / "league_programs" / "splendor_buyer.py"
CARDS = Path(__file__).parent / "data" / "cards.csv"
MISSING = Path(__file__).parent / "data" / "no-such-cards.csv"
# -S: no site import, a faster start for a program started once per move (it needs the stdlib only)
TEMPLATE = f"{sys.executable} -S {BUYER} {{cards}} {{style}}"
SEED, GAMES = 3, 2


class _SameRule:
    """The program's own code run in process on each move's input: the oracle for what each config must play."""

    name = "program"

    def __init__(self, style: str):
        self.style = style

    def new_game(self, key: int) -> None:
        pass

    def respond(self, stdin_text: str) -> AgentReply:
        saved = sys.argv, sys.stdin, sys.stdout
        sys.argv, sys.stdin, sys.stdout = [str(BUYER), str(CARDS), self.style], io.StringIO(stdin_text), io.StringIO()
        try:
            runpy.run_path(str(BUYER), run_name="__main__")
            return AgentReply(sys.stdout.getvalue())
        finally:
            sys.argv, sys.stdin, sys.stdout = saved


def test_a_program_that_crashes_without_answering_stops_its_chunk_with_the_reason():
    with pytest.raises(ProgramCrashed, match=r"crashed without answering on its move 1: exit status 1: .*FileNotFound"):
        play_program_chunk([sys.executable, "-S", str(BUYER), str(MISSING), "points"],
                           opponent_agents(SplendorOptions()), seed=SEED, first=0, count=1)


def test_the_test_oracle_is_the_program_itself():
    """The in-process oracle plays the program's own code: a move of each style differs somewhere."""
    options = SplendorOptions()
    cheap = play_chunk(_SameRule("cheap"), opponent_agents(options), seed=SEED, first=0, count=GAMES)
    points = play_chunk(_SameRule("points"), opponent_agents(options), seed=SEED, first=0, count=GAMES)
    assert cheap.events.columns["turns"]["tokens"] != points.events.columns["turns"]["tokens"]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    db = tmp_path_factory.mktemp("splendor-program") / "h.duckdb"
    grid = parse_grid([f"cards={CARDS},{MISSING}", "style=points,cheap"])
    spec = SweepSpec(game="splendor", bot="program", program=TEMPLATE, grid=grid, units=GAMES, chunk_size=1, seed=SEED,
                     options=(("opponent", "greedy"),))
    validate(spec)
    return db, sweep_flow(spec, db=str(db), track=False)


@pytest.mark.slow  # a sweep of programs started once per move
def test_each_config_plays_what_its_rule_plays_in_process_on_the_same_deals(swept):
    db, outcome = swept
    con = read_only(str(db))
    try:
        for run in outcome.runs:
            style = run.overrides["style"]
            if run.overrides["cards"] == str(MISSING):
                continue
            assert run.failure is None and run.units == GAMES
            expected = play_chunk(_SameRule(style), opponent_agents(SplendorOptions()), seed=SEED, first=0,
                                  count=GAMES)
            payoffs = [p for (p,) in con.execute("SELECT payoff FROM units WHERE match_id = ? ORDER BY unit",
                                                 [run.match_id]).fetchall()]
            assert payoffs == expected.payoffs.tolist()
            turns = expected.events.columns["turns"]
            moves = [t for t, mine in zip(turns["tokens"], turns["is_candidate"], strict=True) if mine]
            stored = [t for (t,) in con.execute("SELECT tokens FROM spl_turns WHERE match_id = ? AND is_candidate "
                                                "ORDER BY game, round", [run.match_id]).fetchall()]
            assert stored == moves and len(moves) > 10
    finally:
        con.close()


@pytest.mark.slow  # a sweep of programs started once per move
def test_a_config_whose_program_crashes_is_recorded_as_failed_with_its_reason(swept):
    _, outcome = swept
    crashed = [r for r in outcome.runs if r.overrides["cards"] == str(MISSING)]
    assert len(crashed) == 2 and len(outcome.runs) == 4
    for run in crashed:
        assert run.units == 0 and f"cards={MISSING}" in run.failure
        assert "ProgramCrashed" in run.failure and "exit status 1" in run.failure
    assert outcome.best.overrides["cards"] == str(CARDS) and outcome.best.failure is None
