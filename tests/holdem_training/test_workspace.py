"""Workspace wiring: the adapter, the hand-log SQL (raw tables, staging views, marts) on a
temporary DuckDB file, and `cardlab judge holdem-training` end to end."""

import sys
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from engine.core.cards import card_name
from engine.holdem_training import judge
from engine.holdem_training.rules import Action
from flows import events, games
from flows.games.holdem_training import SPEC
from flows.store import HandLog, log_judged_match, read_only

CONTESTANT = str(Path(__file__).parent / "data" / "contestant.py")


def test_the_adapter_plays_the_checker_for_showdown_payoffs_only():
    adapter = games.get("holdem-training")
    assert adapter.unit == "hand" and adapter.default_bot in adapter.bots and "checker" in adapter.bots
    spec = adapter.spec("checker")
    whole = adapter.play_chunk(spec, spec.default_config(), seed=3, first=0, count=60)
    assert set(whole.payoffs.tolist()) <= {0, 5, 10}
    options = adapter.options({"rate_budget_per_hand": "10"})
    assert options.rate_budget_per_hand == 10


def test_hand_log_views_and_marts(tmp_path):
    result = judge.play_external([sys.executable, CONTESTANT, "example", "0"], seed=9, hands=150, cpu_seconds=5)
    assert result.complete
    db = tmp_path / "hands.duckdb"
    match_id = log_judged_match(SPEC, bot="external", config={"command": "example"}, seed=9,
                                log=events.encode(result.log, SPEC), db=db)
    con = read_only(str(db))
    hands, mean, se, low, high, bob_folds, rate = con.execute(
        "SELECT hands, mean_profit, se, ci95_low, ci95_high, bob_fold_rate, rate_rollouts "
        "FROM mart_ht_profit WHERE match_id = ?", [match_id]).fetchone()
    payoffs = result.log.payoffs
    assert hands == 150 and abs(mean - payoffs.mean()) < 1e-9
    assert abs(se - payoffs.std(ddof=1) / np.sqrt(150)) < 1e-9 and low < mean < high
    ends = result.log.events["hands"]["end_code"]
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
    raises = int(np.sum(np.array(result.log.events["actions"]["action"]) == "RAISE"))
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


def _as_rows(columns: dict, names) -> list[tuple]:
    return list(zip(*[v if isinstance(v, list) else v.tolist() for v in (columns[n] for n in names)], strict=True))


def test_views_decode_the_packed_hands_like_the_judge(tmp_path):
    """ht_hand_rows / ht_action_rows (SQL) decode the encoder's packed hands into the judge's hands
    and actions events, and older logs' rows (one column per value) still count, once."""
    db = tmp_path / "hands.duckdb"
    log = judge.play_chunk(_Varied(), seed=4, first=7, count=120, rate_budget=10**6)
    encoded = events.encode(log, SPEC)
    assert set(encoded.tables) == {"ht_packed_hands"} and encoded.events is None
    match_id = log_judged_match(SPEC, bot="varied", config={}, seed=4, log=encoded, db=db)
    hands, actions = log.events["hands"], log.events["actions"]
    assert set(actions["action"]) == {"CHECK", "FOLD", "RAISE"}
    assert set(actions["response"]) == {"", "CHECK", "CALL", "FOLD"}
    assert set(hands["end_code"].tolist()) == {0, 1, 2} and hands["profit"].min() < 0 < hands["profit"].max()
    with read_only(db) as con:
        for view, rows in (("ht_hand_rows", hands), ("ht_action_rows", actions)):
            got = con.execute(f"SELECT {', '.join(rows)} FROM {view} WHERE match_id = ? ORDER BY ALL",
                              [match_id]).fetchall()
            assert got == _as_rows(rows, list(rows)), view
    # an old log, and stale old rows of a chunk since written again in packed form
    with HandLog(db) as store:
        for old in ("old", match_id):
            row = [old, 0, 1, 5, 6, 0, 1, 2, 3, 4, 5, 6, 7, 8, -1, 0, 4, 10, 0, 7]
            store.put("ht_hands", [dict(zip(store.table_columns("ht_hands"), row, strict=True))])
            store.put("ht_actions", [dict(zip(store.table_columns("ht_actions"),
                                              [old, 0, 1, 1, "CHECK", 0, "CHECK", 10, 100, 7], strict=True))])
    with read_only(db) as con:
        for view, n in (("stg_ht_hands", len(hands["hand"])), ("stg_ht_actions", len(actions["hand"]))):
            counts = dict(con.execute(f"SELECT match_id, count(*) FROM {view} GROUP BY ALL").fetchall())
            assert counts == {"old": 1, match_id: n}, view


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
    assert lines[-2] == "points 0 (statement's formula), 0 (reference, capped at 100)"  # about 5 per hand


def test_cli_judge_reports_the_verdict_of_a_bad_program():
    """A wrong answer ends the match without -1, as the reference interactor does."""
    runner = CliRunner()
    result = runner.invoke(_cli(), ["judge", "holdem-training", "--hands", "30", "--no-log",
                                    "--", sys.executable, CONTESTANT, "unknown", "4"])
    assert result.exit_code == 1
    lines = result.stdout.strip().splitlines()
    assert "-1" not in lines and "hands 4/30" in result.stdout and "status aborted" in result.stdout
    assert any(line.startswith("verdict WA: ") and "without -1" in line for line in lines)


def test_bench_commands_run_and_name_their_peer():
    runner = CliRunner()
    app = _cli()
    no_download = "--no-omp"  # the OMPEval peer fetches a 72 MB sdist once: not in unit tests
    evaluator = runner.invoke(app, ["bench", "holdem-training", "evaluator", "--hands", "2000", "--repeat", "1",
                                    no_download])
    assert evaluator.exit_code == 0, evaluator.output
    assert "phevaluator 0.6.0" in evaluator.stdout and "evaluate_7cards" in evaluator.stdout
    equity = runner.invoke(app, ["bench", "holdem-training", "equity", "--decisions", "400", "--repeat", "1",
                                 no_download])
    assert equity.exit_code == 0 and "decisions/s" in equity.stdout
    judged = runner.invoke(app, ["bench", "holdem-training", "judge", "--hands", "100", "--repeat", "1"])
    assert judged.exit_code == 0 and "hands/s" in judged.stdout
