"""Workspace wiring: the adapter, the hand-log SQL (raw tables, staging views, marts) on a
temporary DuckDB file, and `cardlab judge holdem-training` end to end."""

import sys
from pathlib import Path

import duckdb
import numpy as np
from typer.testing import CliRunner

from engine.core.cards import card_name
from engine.holdem_training import judge
from engine.holdem_training.rules import Action
from flows import games
from flows.store import log_judged_match

CONTESTANT = str(Path(__file__).parent / "data" / "contestant.py")


def test_the_adapter_plays_deterministic_chunks():
    adapter = games.get("holdem-training")
    assert adapter.unit == "hand" and adapter.default_bot in adapter.bots and "checker" in adapter.bots
    spec = adapter.spec("checker")
    whole = adapter.play_chunk(spec, spec.default_config(), seed=3, first=0, count=60)
    tail = adapter.play_chunk(spec, spec.default_config(), seed=3, first=40, count=20)
    assert whole.payoffs[40:].tolist() == tail.payoffs.tolist()
    assert set(whole.payoffs.tolist()) <= {0, 5, 10}
    options = adapter.options({"rate_budget_per_hand": "10"})
    assert options.rate_budget_per_hand == 10


def test_hand_log_views_and_marts(tmp_path):
    result = judge.play_external([sys.executable, CONTESTANT, "example", "0"], seed=9, hands=150, cpu_seconds=5)
    assert result.complete
    db = tmp_path / "hands.duckdb"
    match_id = log_judged_match("holdem-training", bot="external", config={"command": "example"}, seed=9,
                                log=result.log, db=db)
    con = duckdb.connect(str(db), read_only=True)
    hands, mean, se, low, high, bob_folds, rate = con.execute(
        "SELECT hands, mean_profit, se, ci95_low, ci95_high, bob_fold_rate, rate_rollouts "
        "FROM mart_ht_profit WHERE match_id = ?", [match_id]).fetchone()
    payoffs = result.log.payoffs
    assert hands == 150 and abs(mean - payoffs.mean()) < 1e-9
    assert abs(se - payoffs.std(ddof=1) / np.sqrt(150)) < 1e-9 and low < mean < high
    ends = result.log.tables[judge.HANDS_TABLE]["end_code"]
    assert abs(bob_folds - (ends == 2).mean()) < 1e-9 and rate == result.rate_used
    row = con.execute("SELECT alice_hole, alice_c0, alice_c1, hole_kind, hole_class FROM stg_ht_hands "
                      "WHERE match_id = ? ORDER BY hand LIMIT 1", [match_id]).fetchone()
    assert row[0] == card_name(row[1]) + card_name(row[2])
    kinds = dict(con.execute("SELECT hole_kind, sum(hands) FROM mart_ht_starting_hands WHERE match_id = ? "
                             "GROUP BY ALL", [match_id]).fetchall())
    assert sum(kinds.values()) == 150 and set(kinds) <= {"pair", "suited", "offsuit"}
    responses = con.execute("SELECT street, call_rate + fold_rate, raises FROM mart_ht_responses "
                            "WHERE match_id = ?", [match_id]).fetchall()
    assert all(abs(total - 1.0) < 1e-9 for _, total, _ in responses)
    raises = int(np.sum(np.array(judge.action_rows(result.log.tables[judge.HANDS_TABLE])["action"]) == "RAISE"))
    assert sum(r for _, _, r in responses) == raises and {s for s, _, _ in responses} <= {
        "preflop", "flop", "turn", "river"}
    con.close()


class _Varied:
    """Every action kind and response, RATE queries of different sizes (deterministic)."""

    def start_match(self, hands, rate_budget):
        pass

    def act(self, view, rate):
        if (view.hand + view.round) % 3 == 0:
            rate(10 * view.round)
        if view.round == 4 and view.hand % 5 == 0:
            return Action("FOLD")
        if (view.hand * view.round) % 4 == 1:
            return Action("RAISE", min(view.stack, 1 + view.hand % 60))
        return Action("CHECK")

    def observe(self, view, action, response):
        pass

    def end_hand(self, hand, delta):
        pass


def test_action_rows_view_decodes_the_packed_actions_like_the_judge(tmp_path):
    """ht_action_rows (SQL) and judge.action_rows (numpy) read the same packed columns alike,
    and chunks logged the old way (one ht_actions row per action) still count, once."""
    db = tmp_path / "hands.duckdb"
    log = judge.play_chunk(_Varied(), seed=4, first=7, count=120, rate_budget=10**6)
    match_id = log_judged_match("holdem-training", bot="varied", config={}, seed=4, log=log, db=db)
    columns = ("hand", "round", "action", "amount", "response", "pot_before", "stack_before", "rate_rollouts")
    rows = judge.action_rows(log.tables[judge.HANDS_TABLE])
    expected = list(zip(*[rows[c] if isinstance(rows[c], list) else rows[c].tolist() for c in columns], strict=True))
    assert {a for _, _, a, *_ in expected} == {"CHECK", "FOLD", "RAISE"}
    assert {r for *_, r, _, _, _ in expected} == {"", "CHECK", "CALL", "FOLD"}
    with duckdb.connect(str(db)) as con:
        got = con.execute(f"SELECT {', '.join(columns)} FROM ht_action_rows WHERE match_id = ? ORDER BY hand, round",
                          [match_id]).fetchall()
        assert got == expected
        # an old log's rows, and stale old rows of a chunk since written again the new way
        legacy = [("old", 0, 1, 1, "RAISE", 3, "CALL", 10, 100, 7),
                  (match_id, 0, 8, 1, "CHECK", 0, "CHECK", 10, 100, 0)]
        con.executemany("INSERT INTO ht_actions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", legacy)
        counts = dict(con.execute("SELECT match_id, count(*) FROM stg_ht_actions GROUP BY ALL").fetchall())
        assert counts == {"old": 1, match_id: len(expected)}


def _cli():
    from cardlab.cli import app

    return app


def test_cli_judge_ends_with_the_contest_score_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(_cli(), ["judge", "holdem-training", "--hands", "30", "--seed", "2", "--no-log",
                                    "--", sys.executable, CONTESTANT, "check"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[-1].startswith("SCORE ") and len(lines[-1].split()[1].split(".")[1]) == 6
    assert lines[-2] == "points 0"  # checking scores about 5 per hand: below 8, no points


def test_cli_judge_reports_minus_one_for_a_bad_program():
    runner = CliRunner()
    result = runner.invoke(_cli(), ["judge", "holdem-training", "--hands", "30", "--no-log",
                                    "--", sys.executable, CONTESTANT, "unknown", "4"])
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert lines[-1] == "-1" and "hands 4/30" in result.stdout and "status aborted" in result.stdout


def test_bench_commands_run_and_name_their_peer():
    runner = CliRunner()
    app = _cli()
    evaluator = runner.invoke(app, ["bench", "holdem-training", "evaluator", "--hands", "2000", "--repeat", "1"])
    assert evaluator.exit_code == 0, evaluator.output
    assert "phevaluator 0.6.0" in evaluator.stdout and "evaluate_7cards" in evaluator.stdout
    equity = runner.invoke(app, ["bench", "holdem-training", "equity", "--decisions", "400", "--repeat", "1"])
    assert equity.exit_code == 0 and "decisions/s" in equity.stdout
    judged = runner.invoke(app, ["bench", "holdem-training", "judge", "--hands", "100", "--repeat", "1"])
    assert judged.exit_code == 0 and "hands/s" in judged.stdout
