"""The baseline (what the user has now) is always one of a sweep's configs."""


from flows.store import read_only
from flows.sweep import SweepSpec, baseline_for, parse_grid, sweep_flow


def _spec(grid: str, baseline=()) -> SweepSpec:
    return SweepSpec(game="toy", bot="coin", grid=parse_grid([grid]), units=300, seed=4, chunk_size=150,
                     baseline=baseline)


def test_the_defaults_are_added_first_when_the_grid_lacks_them(toy, tmp_path):
    db = tmp_path / "h.duckdb"
    outcome = sweep_flow(_spec("edge=0.3,0.7"), db=str(db), track=False)
    assert [r.overrides for r in outcome.runs] == [{}, {"edge": "0.3"}, {"edge": "0.7"}]
    assert outcome.baseline is outcome.runs[0] and outcome.baseline.config["edge"] == 0.5
    # Same flips for every config: edge 0.7 beats the baseline's 0.5 on every unit 0.5 wins, and more.
    assert outcome.best.overrides == {"edge": "0.7"} and outcome.baseline_diff > 0 and outcome.baseline_se > 0
    con = read_only(str(db))
    stored = con.execute("SELECT baseline_match FROM sweeps WHERE sweep_id = ?", [outcome.sweep_id]).fetchall()
    con.close()
    assert stored == [(outcome.baseline.match_id,)]


def test_a_grid_that_holds_the_baseline_config_plays_it_once(toy, tmp_path):
    outcome = sweep_flow(_spec("edge=0.5,0.7"), db=str(tmp_path / "h.duckdb"), track=False)
    assert [r.overrides for r in outcome.runs] == [{"edge": "0.5"}, {"edge": "0.7"}]
    assert outcome.baseline is outcome.runs[0]


def test_no_baseline_when_asked_for_none(toy):
    assert len(SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.3,0.7"])).plans()) == 2


def test_the_baseline_is_the_submitted_config_of_the_same_bot(toy, tmp_path):
    from flows import submissions
    from flows.store import HandLog

    db = tmp_path / "h.duckdb"
    assert baseline_for("toy", "coin", str(db)) == ()  # no hand log yet
    with HandLog(db) as store:
        store.ensure_game(__import__("flows.games", fromlist=["get"]).get("toy"))
        submissions.record(store, game="toy", bot="coin", config={"edge": 0.6, "label": "x", "crash_unit": -1,
                                                                    "crash_file": ""}, source="export")
    base = baseline_for("toy", "coin", str(db))
    assert dict(base) == {"edge": "0.6", "label": "x", "crash_unit": "-1", "crash_file": ""}
    assert baseline_for("toy", "other", str(db)) == ()
    outcome = sweep_flow(_spec("edge=0.3", baseline=base), db=str(db), track=False)
    assert outcome.baseline.config["edge"] == 0.6 and len(outcome.runs) == 2
