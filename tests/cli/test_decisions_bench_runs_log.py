"""`cardlab bench decisions --runs-log FILE`: one JSON line per full run (its pair, seed, decision, LLR path
and the confirmation's looks), so the error rates over many runs can be counted again from the runs themselves."""

import json

from flows.decide import Decision, make_rule
from tests.cli.test_cli import cardlab as run_cli


def _decision(r: int, decision: str) -> Decision:
    return Decision(sweep_id=f"s-{r}", decision=decision, best={}, challenger={"seed": "1"}, baseline={},
                    hands=4000 + r, selection_units=0, confirm_units=4000 + r, confirmed=None, deals={}, llr=-3.0,
                    llr_path=((2000, -1.0), (2250, -3.0)), dropped={}, rule=make_rule("holdem-training"),
                    mlflow_run_id=None, seconds=1.0)


def test_every_run_is_appended_as_a_json_line(monkeypatch, tmp_path):
    import bench.decisions
    from cardlab import prefect_local

    def fake_run(game, *, repeats, progress, record, pairs, **_):
        pair = bench.decisions.PAIRS[game][0]
        for r in range(repeats):
            got = _decision(r, ["keep", "switch"][r % 2])
            progress(pair, r, got)
            record(pair, r, got, [{"units": 2000, "mean": 0.1 * r, "sd": 11.0, "llr": -1.0}])
        return []

    monkeypatch.setattr(prefect_local, "ensure", lambda **_: None)
    monkeypatch.setattr(bench.decisions, "run", fake_run)
    log = tmp_path / "runs.jsonl"
    code, _, err = run_cli(None, monkeypatch, "bench", "decisions", "--game", "holdem-training", "--repeats", "3",
                           "--seed", "500", "--runs-log", str(log))
    assert code == 0, err
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(r["run"], r["seed"], r["decision"], r["hands"]) for r in rows] == \
        [(0, 500, "keep", 4000), (1, 501, "switch", 4001), (2, 502, "keep", 4002)]
    assert (rows[0]["game"], rows[0]["pair"]) == ("holdem-training", "null")
    assert rows[0]["llr_path"] == [[2000, -1.0], [2250, -3.0]]
    assert [r["looks"][0]["mean"] for r in rows] == [0.0, 0.1, 0.2]  # each run's own confirmation looks


def test_a_runs_log_in_a_missing_folder_is_refused_in_one_line(monkeypatch, tmp_path):
    code, _, err = run_cli(None, monkeypatch, "bench", "decisions", "--game", "holdem-training", "--repeats", "1",
                           "--runs-log", str(tmp_path / "nowhere" / "runs.jsonl"))
    assert code == 2
    assert "--runs-log" in err and "folder does not exist" in err
