"""Every page renders from the hand log: replays of the four games, the index, and the CLI
commands that write them (phh export, replay, report)."""

import html
import json
import re
from datetime import datetime

import pytest
from typer.testing import CliRunner

from flows.match import MatchPlan, run_match
from flows.settings import Paths
from flows.store import HandLog, read_only
from reports.index import build_index
from reports.replay import NoReplay, write_replay


def _match(game, bot, units, **kw) -> str:
    with HandLog() as store:
        return run_match(MatchPlan(game=game, bot=bot, seed=7, units=units, chunk_size=units, **kw), store).match_id


def _replay(match_id, unit, tmp_path) -> str:
    con = read_only()
    try:
        return write_replay(con, match_id, unit, tmp_path).read_text()
    finally:
        con.close()


def test_holdem_training_replay_shows_both_hands_and_the_profit(ht_sweep, tmp_path):
    con = read_only()
    hole, bob, profit = con.execute("SELECT alice_hole, bob_hole, profit FROM stg_ht_hands WHERE match_id = ? "
                                    "AND hand = 5", [f"{ht_sweep}-c0"]).fetchone()
    con.close()
    text = _replay(f"{ht_sweep}-c0", 4, tmp_path)
    shown = re.findall(r'<span class="card[^"]*">(\w\w)</span>', text)
    assert {hole[:2], hole[2:], bob[:2], bob[2:]} <= set(shown)
    assert f"profit <b>{profit:+d}</b>" in text and "Round 1" in text and 'id="next"' in text


def test_splendor_and_tractor_replays_step_through_turns_and_tricks(tmp_path):
    spl = _match("splendor", "greedy", 2)
    text = _replay(spl, 1, tmp_path)
    assert "Round 1, seat 1" in text and "every turn agreed with the hand log" in text
    assert text.count("Bank:") == text.count('<div class="step">') > 10 and "level 3" in text
    tr = _match("tractor", "rule", 2)
    con = read_only()
    rounds = [r for (r,) in con.execute("SELECT round FROM tr_rounds WHERE match_id = ?", [tr]).fetchall()]
    tricks = con.execute("SELECT count(*) FROM tr_tricks WHERE match_id = ? AND round = ?", [tr, rounds[0]]).fetchone()
    con.close()
    text = _replay(tr, rounds[0], tmp_path)
    assert text.count('<div class="step">') == tricks[0] > 0 and "Points so far" in text
    with pytest.raises(NoReplay, match="no Tractor round"):
        _replay(tr, 999, tmp_path)


def test_index_lists_sweeps_leagues_and_submissions(ht_sweep, tmp_path):
    league = tmp_path / "leagues" / "spring" / "index.html"
    league.parent.mkdir(parents=True)
    league.write_text("<html></html>")
    with HandLog() as store:
        store.put("submissions", [{"submission_id": "sub-1", "game": "holdem-training", "bot": "exploit",
                                   "config": "{}", "source": "export", "bundle": "/tmp/b", "code_version": "abc",
                                   "submitted_at": datetime.now()}])
    text = build_index(out=tmp_path).read_text()
    assert ht_sweep in text and 'href="../leagues/spring/index.html"' in text
    assert "sub-1" in text and "Submitted candidates over time" in text


@pytest.mark.slow  # the CLI end to end
def test_cli_exports_phh_writes_a_replay_and_the_report(ht_sweep, tmp_path):
    from cardlab.cli import app

    runner = CliRunner()
    done = runner.invoke(app, ["phh", "export", "--match", f"{ht_sweep}-c1", "--out", str(tmp_path / "phh")])
    assert done.exit_code == 0, done.output
    assert "wrote 600 hands of holdem-training" in done.output
    assert (tmp_path / "phh" / f"{ht_sweep}-c1.phhs").read_text().startswith("[1]\n")
    done = runner.invoke(app, ["phh", "export", "--match", "nope"])
    assert done.exit_code == 2 and "no match 'nope'" in done.output
    done = runner.invoke(app, ["replay", "--match", f"{ht_sweep}-c1", "--unit", "3", "--out", str(tmp_path)])
    assert done.exit_code == 0 and (tmp_path / f"{ht_sweep}-c1-3.html").exists()
    done = runner.invoke(app, ["report", ht_sweep, "--out", str(tmp_path / "r")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "r" / "index.html").exists() and (Paths.from_env().out / "reports" / "index.html").exists()


def test_mlflow_parent_run_carries_spec_report_and_commit(tmp_path):
    from mlflow.tracking import MlflowClient

    from flows import tracking

    run = tracking.ConfigRun("m-a", "exploit", {"future_flop": 0.8}, {}, 10, 1.0, 0.1, 0.8, 1.2, 100.0)
    (tmp_path / "index.html").write_text("<html>report</html>")
    (tmp_path / "plot.png").write_bytes(b"png")
    run_id = tracking.log_sweep(game="holdem-training", sweep_id="s-mlflow-test", bot="exploit", grid={}, seed=1,
                                runs=[run], best=run, runner_up=None, paired_diff=None, paired_se=None,
                                spec={"game": "holdem-training", "units": 10}, report_dir=tmp_path)
    client = MlflowClient(Paths.from_env().tracking_uri)
    names = {a.path for a in client.list_artifacts(run_id)} | {a.path for a in client.list_artifacts(run_id, "report")}
    assert {"sweep_spec.json", "report", "report/index.html", "report/plot.png"} <= names
    tags = client.get_run(run_id).data.tags
    assert re.fullmatch(r"[0-9a-f]{7,}(\+dirty)?|unknown", tags["cardlab.git_commit"])
    spec = json.loads(open(client.download_artifacts(run_id, "sweep_spec.json", str(tmp_path / "dl"))).read())
    assert spec["units"] == 10


def test_index_labels_the_best_config_by_the_parameters_swept(ht_sweep, tmp_path):
    """`future_flop=0.5`, not the start of the full config (`cpu_budget=0.0, ...`) or `params=[['x','0.55']]`."""
    from reports.index import _best_label
    from reports.sweep_data import config_values

    con = read_only()
    best, grid, spec = con.execute("SELECT m.config, s.grid, s.spec FROM sweeps s JOIN matches m "
                                   "ON m.match_id = s.best_match WHERE s.sweep_id = ?", [ht_sweep]).fetchone()
    con.close()
    text = build_index(out=tmp_path).read_text()
    row = re.search(rf"{ht_sweep}(?:</a>)?</td>(.*?)</tr>", text).group(1)
    assert f"<td>future_flop={config_values(json.loads(best))['future_flop']}</td>" in row
    assert "cpu_budget" not in row and "params" not in row
    program = json.dumps({"template": "./ht_thresh {x}", "params": [["x", "0.55"]]})
    assert _best_label(program, json.dumps({"x": ["0.55", "0.6"]}), None) == "x=0.55"


def test_holdem_training_replay_shows_the_rate_answers_and_numbers_the_unit_as_asked(tmp_path, monkeypatch):
    """`replay --unit 17` is unit 17 on the page (the contest's hand 18 beside it), and each RATE answer Alice
    got is shown before the action it preceded."""
    from bots.holdem_training.simple import RateEquityBot

    got = {}
    act = RateEquityBot.act

    def noting(self, view, rate):
        def asked(t):
            got[(view.hand, view.round)] = (t, *rate(t))
            return got[(view.hand, view.round)][1:]

        return act(self, view, asked)

    monkeypatch.setattr(RateEquityBot, "act", noting)
    match = _match("holdem-training", "rate_equity", 30)
    text = html.unescape(_replay(match, 17, tmp_path))
    assert re.search(r"<title>Hold'em Training unit 17 of ", text) and "the contest's hand 18" in text
    assert "numbered from 0" in text and f"{match}-17.html" in text
    answers = [(t, w, d) for (hand, _), (t, w, d) in sorted(got.items()) if hand == 18]
    assert answers and text.count("RATE 75: ") == len(answers)
    for t, w, d in answers:
        assert f"RATE {t}: win {w:.6f}, tie {d:.6f}." in text


def test_codingame_replay_lists_every_hand_with_a_link_to_its_first_step(cg_sweep, tmp_path):
    con = read_only()
    hands = [h for (h,) in con.execute("SELECT hand FROM cgh_hands WHERE match_id = ? AND unit = 0 ORDER BY hand",
                                       [f"{cg_sweep}-c0"]).fetchall()]
    con.close()
    text = _replay(f"{cg_sweep}-c0", 0, tmp_path)
    index = re.search(r'<p id="hands">Jump to hand: (.*?)</p>', text).group(1)
    assert re.findall(r'href="#hand-(\d+)"', index) == [str(h) for h in hands] and len(hands) > 1
    steps = text.split('<div class="step">')[1:]
    for h in hands:  # each link's target opens the hand's first step
        (first,) = [s for s in steps if f'id="hand-{h}"' in s]
        assert f"Hand {h}" in first and "blinds posted" in first
