"""Sweeps that stop when decided, on the toy coin game: a config with edge e wins a flip when the flip's
uniform draw is below e, so on the same deals the paired difference of edges a > b is 2 with
probability a - b and 0 otherwise (mean 2 (a - b)): the right decision is known."""

from dataclasses import replace

import pytest
from mlflow.tracking import MlflowClient

from engine.core import seeds
from flows.decide import Rule, confirmation_seed, decided_sweep_flow, make_rule
from flows.settings import Paths
from flows.store import read_only
from flows.sweep import SweepFailed, SweepSpec, parse_grid

RULE = Rule(d1=0.1, first_look=200, bounds=(-1.0, 1.0))


def _spec(grid: str, **kw) -> SweepSpec:
    return SweepSpec(game="toy", bot="coin", grid=parse_grid([grid]), units=3000, seed=kw.pop("seed", 9),
                     chunk_size=100, baseline=kw.pop("baseline", ()), **kw)


@pytest.fixture(scope="module")
def switched(toy, tmp_path_factory):
    db = str(tmp_path_factory.mktemp("decide") / "h.duckdb")
    return db, decided_sweep_flow(_spec("edge=0.3,0.45,0.6"), RULE, db=db, max_in_flight=3)


def test_a_clearly_better_config_is_chosen_and_confirmed(switched):
    db, got = switched
    assert got.decision == "switch"
    assert got.best == {"edge": "0.6"} and got.baseline == {}
    assert got.confirmed["low"] < 0.2 < got.confirmed["high"]  # the true paired difference: 2 (0.6 - 0.5)
    assert got.confirmed["method"] == "anytime-valid normal mixture"
    assert "edge=0.3" in got.dropped  # hopeless: stopped by the race
    assert got.hands < 4 * 3000  # fewer units than the fixed design's 4 configs x the cap


def test_every_unit_played_is_counted_and_logged(switched):
    db, got = switched
    with read_only(db) as con:
        logged = con.execute("SELECT count(*) FROM units").fetchone()[0]
        row = con.execute("SELECT decision, hands, selection_units, confirm_units, confirmed_mean "
                          "FROM decisions WHERE sweep_id = ?", [got.sweep_id]).fetchone()
        path = con.execute("SELECT llr FROM mart_decision_path WHERE sweep_id = ? ORDER BY look",
                           [got.sweep_id]).fetchall()
        planned = con.execute("SELECT sum(units) FROM matches").fetchone()[0]
    assert got.hands == logged == row[1] == got.selection_units + got.confirm_units == planned
    assert row[0] == "switch" and row[4] == pytest.approx(got.confirmed["mean"])
    assert [p[0] for p in path] == pytest.approx([llr for _, llr in got.llr_path])
    assert path[-1][0] >= RULE.sprt().upper


def test_the_llr_path_and_the_decision_are_on_the_mlflow_parent_run(switched):
    _, got = switched
    client = MlflowClient(Paths.from_env().tracking_uri)
    run = client.get_run(got.mlflow_run_id)
    assert run.data.tags["cardlab.decision"] == "switch"
    assert run.data.metrics["decision_hands"] == got.hands
    history = client.get_metric_history(got.mlflow_run_id, "decision_llr")
    history = sorted(history, key=lambda m: m.step)
    assert [m.step for m in history] == [units for units, _ in got.llr_path]
    assert [m.value for m in history] == pytest.approx([llr for _, llr in got.llr_path])


def test_a_confirmation_never_reuses_a_selection_deal(switched):
    """The confirmation's units come from another seed: none of its deal streams is a selection's."""
    db, got = switched
    with read_only(db) as con:
        rows = con.execute("SELECT m.source, m.seed, u.unit FROM units u JOIN matches m USING (match_id)").fetchall()
    keys = {"sweep": set(), "confirm": set()}
    for source, seed, unit in rows:
        keys[source].add(seeds.unit_key(seeds.match_key(seed), unit, seeds.Purpose.DEAL))
    assert keys["sweep"] and keys["confirm"]
    assert not keys["sweep"] & keys["confirm"]
    assert got.deals["selection"]["seed"] == 9
    assert got.deals["confirmation"]["seed"] == confirmation_seed(9) != 9


def test_no_better_config_keeps_the_baseline(toy, tmp_path):
    got = decided_sweep_flow(_spec("edge=0.2,0.5"), RULE, db=str(tmp_path / "h.duckdb"), track=False)
    assert got.decision == "keep"
    assert got.best == got.baseline == {"edge": "0.5"}  # the grid holds the baseline's config: it stands for it
    assert got.challenger == {"edge": "0.2"} and got.selection_units == 0  # one challenger: straight to the test


@pytest.mark.slow  # a decided sweep run twice
def test_a_killed_decided_sweep_resumes_to_the_same_decision(toy, tmp_path):
    marker = tmp_path / "crash"
    marker.write_text("")
    db = str(tmp_path / "h.duckdb")
    crash = (("crash_unit", "150"), ("crash_file", str(marker)))  # every config, the baseline too, crashes
    spec = _spec("edge=0.3,0.6", fixed=crash, sweep_id="s-kill", baseline=crash)
    with pytest.raises(SweepFailed, match="toy crash"):  # the baseline crashed too: nothing to decide against
        decided_sweep_flow(spec, RULE, db=db, track=False, max_in_flight=2)
    with read_only(db) as con:
        kept = con.execute("SELECT count(*) FROM units").fetchone()[0]
    assert kept > 0  # the chunks before the crash stay, and the resumed sweep does not play them again
    marker.unlink()
    resumed = decided_sweep_flow(spec, RULE, db=db, track=False)
    fresh = decided_sweep_flow(replace(spec, sweep_id="s-fresh"), RULE, db=db, track=False)
    assert (resumed.decision, resumed.hands) == (fresh.decision, fresh.hands)
    # the same looks; DuckDB's parallel sums may differ in the last bits
    assert [u for u, _ in resumed.llr_path] == [u for u, _ in fresh.llr_path]
    assert [llr for _, llr in resumed.llr_path] == pytest.approx([llr for _, llr in fresh.llr_path], rel=1e-9)


def test_rule_refusals_name_the_flag(toy):
    with pytest.raises(Exception, match="--d1"):
        make_rule("no-such-game")
    with pytest.raises(Exception, match="--alpha"):
        make_rule("toy", alpha=0.7)
    assert make_rule("holdem-training").d1 == 0.5
    assert make_rule("holdem-training").luck and not make_rule("holdem-training", luck=False).luck
    assert not make_rule("toy").luck  # no correction to take out


@pytest.mark.slow  # many resampled decisions
def test_resampling_a_sweeps_real_differences_measures_the_sprts_errors(toy, tmp_path):
    """bench.decisions.resample: both signs of every pair, each with error shares and units per hypothesis."""
    from bench.decisions import resample
    from flows.sweep import sweep_flow

    db = str(tmp_path / "h.duckdb")
    got = sweep_flow(_spec("edge=0.4,0.6", sweep_id="s-fixed"), db=db, track=False)
    with read_only(db) as con:
        found = resample(con, got.sweep_id, Rule(d1=0.2, first_look=200), runs=200, cap=2000, batch=100)
    assert len(found) == 6  # 3 configs (the baseline edge=0.5 with them): 3 pairs, both signs
    for r in found:
        assert r.sd > 0 and r.runs == 200
        assert r.alpha <= 0.05 + 3 * (0.05 * 0.95 / 200) ** 0.5
        assert r.beta <= 0.05 + 3 * (0.05 * 0.95 / 200) ** 0.5
        assert 200 <= r.units_d0 <= 2000 and 200 <= r.units_d1 <= 2000
    skews = sorted(round(r.skewness, 6) for r in found)
    assert skews == sorted(-s for s in skews)  # each pair once each way


def _half_the_luck(query, match_id: str, units: int):
    """A zero-mean correction for the toy: half of each flip's departure from its config's exact mean 2e - 1."""
    import json

    edge = json.loads(query("SELECT config FROM matches WHERE match_id = ?", [match_id])["config"][0])["edge"]
    flips = query("SELECT payoff FROM units WHERE match_id = ? AND unit < ? ORDER BY unit", [match_id, units])
    return 0.5 * (flips["payoff"].to_numpy() - (2 * edge - 1))


def test_a_games_luck_correction_narrows_the_test_and_keeps_the_mean(toy, tmp_path, monkeypatch):
    from flows import games

    plain = decided_sweep_flow(_spec("edge=0.6", seed=4), RULE, db=str(tmp_path / "a.duckdb"), track=False)
    real = games.get
    monkeypatch.setattr(games, "get", lambda name: replace(real(name), luck=_half_the_luck) if name == "toy"
                        else real(name))
    lucky = decided_sweep_flow(_spec("edge=0.6", seed=4), replace(RULE, luck=True), db=str(tmp_path / "b.duckdb"),
                               track=False)
    c = lucky.confirmed
    assert c["luck_factor"] == pytest.approx(4.0)  # the adjusted differences are half the raw ones plus a constant
    assert c["adjusted_sd"] == pytest.approx(c["raw_sd"] / 2)
    assert "luck" in c["method"] and "luck_factor" not in (plain.confirmed or {})
    assert c["low"] < 0.2 < c["high"]  # the true difference 2 (0.6 - 0.5), inside the adjusted interval
    assert lucky.decision == plain.decision == "switch"
    assert lucky.llr_path[0][0] == plain.llr_path[0][0] and lucky.llr_path[0][1] > plain.llr_path[0][1]  # surer sooner
