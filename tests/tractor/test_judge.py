"""Full rounds with the bots agree with the simulator; the hand log and CLI work (chunking: test_conformance.py)."""

import dataclasses
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bots.tractor import BOTS
from engine.tractor.judge import MatchOptions, contest_input, disagreements, play_chunk, play_rounds
from flows.games.tractor import SPEC
from tests.tractor.helpers import typer_app

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def rounds():
    pairs = [("random", "random", 120), ("rule", "random", 90), ("rule", "rule", 90)]
    played = []
    for seed, (a, b, count) in enumerate(pairs):
        played += play_rounds(BOTS[a].make(), BOTS[b].make(), seed=seed, first=0, count=count)
    return played


def test_three_hundred_bot_rounds_agree_with_the_simulator(rounds):
    assert len(rounds) == 300
    assert disagreements(rounds) == []
    assert sum(r.faults for r in rounds) == 0  # the bots only make legal plays


def test_the_rounds_exercise_the_hard_rules(rounds):
    structures = Counter(t.structure for r in rounds for t in r.state.tricks)
    assert structures["pair"] > 100 and any(s.startswith("tractor") for s in structures)
    assert sum(n for s, n in structures.items() if "+" in s) > 100  # throws
    outcomes = [r.outcome for r in rounds]
    assert {o.multiplier for o in outcomes} >= {0, 2, 4}
    assert {o.winner_team for o in outcomes} == {0, 1, 2}
    assert any(o.ft_points == 0 for o in outcomes) and any(o.ft_points >= 120 for o in outcomes)
    assert {r.state.setup.main for r in rounds} == {0, 1, 2, 3, 4}


def test_rule_bot_beats_random(rounds):
    rule_vs_random = [r.payoff for r in rounds[120:210]]
    assert np.mean(rule_vs_random) > 0.2


def test_disagreements_are_reported():
    few = play_rounds(BOTS["rule"].make(), BOTS["rule"].make(), seed=9, first=0, count=3)
    text = contest_input(few)
    assert text.startswith("3\n\n") and text.count("\n\n") == 3
    assert disagreements(few) == []
    last = few[1].state.tricks[-1]
    few[1].state.tricks[-1] = dataclasses.replace(last, winner=(last.winner + 1) % 4)
    few[2].state.outcome = dataclasses.replace(few[2].outcome, ft_points=few[2].outcome.ft_points + 5)
    assert [p.split(":")[0] for p in disagreements(few)] == ["round 1", "round 2"]


def test_a_workspace_chunk_is_checked_against_the_simulator():
    spec, options = BOTS["rule"], MatchOptions(opponent="random")
    whole = play_chunk(spec, spec.default_config(), seed=5, first=0, count=6, options=options, bots=BOTS)
    assert whole.stats["simulator_disagreements"] == 0


def test_a_match_through_the_workspace_fills_the_hand_log(tmp_path):
    from flows.match import MatchPlan, run_match
    from flows.store import HandLog

    plan = MatchPlan(game="tractor", bot="rule", options=(("opponent", "random"),), seed=2, units=4, chunk_size=2)
    direct = SPEC.play_chunk(SPEC.spec("rule"), SPEC.spec("rule").default_config(), seed=2, first=0,
                                count=4, options=SPEC.options({"opponent": "random"}))
    with HandLog(tmp_path / "hands.duckdb") as store:
        result = run_match(plan, store)
        rounds = store.query("SELECT round, payoff, result FROM stg_tr_rounds ORDER BY round")
        tricks = store.query("SELECT count(*) AS n, sum(points) AS pts FROM stg_tr_tricks")
        roles = store.query("SELECT sum(rounds) AS n FROM mart_tr_roles")
        chunks = store.query("SELECT count(*) AS n FROM chunks WHERE match_id = ?", [result.match_id])
    assert rounds["payoff"].to_list() == [int(p) for p in direct.payoffs]  # chunked = one piece
    assert tricks["n"][0] == len(direct.events["tricks"]["round"]) and tricks["pts"][0] <= 4 * 200
    assert roles["n"][0] == 4 and chunks["n"][0] == 2


def test_export_bundle_runs_standalone(tmp_path):
    bundle = tmp_path / "sim"
    CliRunner().invoke(typer_app(), ["export", "--out", str(bundle)], catch_exceptions=False)
    case = DATA / "robustness" / "R1_multi_case_crlf.in"
    env = {**os.environ, "PYTHON": sys.executable, "PYTHONPATH": ""}
    done = subprocess.run([str(bundle / "run")], input=case.read_bytes(), capture_output=True, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == case.with_suffix(".out").read_bytes()
    bad = subprocess.run([str(bundle / "run")], input=b"1\n\nO Bob 2 2\nS2 S3 S4\n", capture_output=True,
                         env=env, timeout=60)
    assert bad.returncode == 2 and b"case 1" in bad.stderr


@pytest.mark.slow  # the CLI judge and its benchmark
def test_cli_judge_and_bench():
    runner = CliRunner()
    result = runner.invoke(typer_app(), ["judge", "--rounds", "4", "--seed", "1"])
    assert result.exit_code == 0 and "simulator disagreements" in result.stdout
    bad = runner.invoke(typer_app(), ["judge", "--bot", "nobody"])
    assert bad.exit_code == 2 and "accepted: random, rule" in bad.output
    bench = runner.invoke(typer_app(), ["bench", "simulate", "--input", str(DATA / "core" / "21_multi_case_4cases.in"),
                                        "--repeat", "1"])
    assert bench.exit_code == 0 and "simulated 4 cases" in bench.stdout
    generated = runner.invoke(typer_app(), ["tractor", "generate", "--rounds", "2", "--seed", "4"])
    again = runner.invoke(typer_app(), ["tractor", "simulate"], input=generated.stdout)
    assert again.exit_code == 0 and again.stdout.count("Case #") == 2


def test_simulate_log_writes_the_input_cases_to_the_hand_log(tmp_path, monkeypatch):
    from flows.store import HandLog

    db = tmp_path / "hands.duckdb"
    monkeypatch.setenv("CARDLAB_DB", str(db))
    case = DATA / "core" / "21_multi_case_4cases.in"
    result = CliRunner().invoke(typer_app(), ["tractor", "simulate", "--log"], input=case.read_bytes())
    assert result.exit_code == 0 and result.stdout == case.with_suffix(".out").read_text()
    with HandLog(db) as store:
        rounds = store.query("SELECT ft_points, winner_team, next_dealer FROM tr_rounds ORDER BY round")
        tricks = store.query("SELECT count(*) AS n FROM tr_tricks")
    assert rounds["ft_points"].to_list() == [0, 375, 320, 0]  # the .out file's second lines
    assert rounds["winner_team"].to_list() == [1, 0, 2, 0] and rounds["next_dealer"][3] == "Bob"
    assert tricks["n"][0] == sum(1 for line in case.read_text().splitlines() if line.count(" ") == 3
                                 and not line.startswith(("O ", "S ", "H ", "C ", "D ")))


def test_illegal_answers_are_replaced_and_counted():
    class Cheat:
        def act(self, view, rng):
            if view.to_hide:
                return view.hand[:3]  # too few cards
            return view.hand[:2] if view.trick else (view.hand[0], view.hand[-1])  # wrong size / mixed lead

    played = play_rounds(Cheat(), BOTS["rule"].make(), seed=3, first=0, count=2)
    assert all(r.state.done for r in played) and all(r.faults > 10 for r in played)
    assert disagreements(played) == []
