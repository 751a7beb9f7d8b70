"""Sweeps over a user's program: its parameters go into the command line or the environment,
every config plays the same units as the bots would (common random numbers), and `pick`
exports the command with the chosen values."""

import subprocess
import sys
from pathlib import Path

import pytest

from bots.base import ConfigError
from bots.program import ProgramConfig, write_bundle
from engine.holdem_training import judge as ht_judge
from engine.holdem_training.rules import Action
from flows import sweep_record
from flows.store import read_only
from flows.sweep import SweepSpec, parse_grid, sweep_flow, validate

DATA = Path(__file__).parent / "data"
RAISER = f"{sys.executable} {DATA / 'ht_raiser.py'}"
CG_FIXED = f"{sys.executable} {Path(__file__).parents[1] / 'cg_holdem' / 'data' / 'caller.py'} 0 1"


class _Raiser:
    """The program's rule, in process: the oracle for what the program must score."""

    def __init__(self, size):
        self.size = size

    def start_match(self, hands, budget):
        pass

    def act(self, view, rate):
        return Action("RAISE", min(self.size, view.stack)) if view.stack > 0 else Action("CHECK", 0)

    def observe(self, *args):
        pass

    def end_hand(self, *args):
        pass


@pytest.fixture(scope="module")
def ht_sweep(tmp_path_factory):
    db = tmp_path_factory.mktemp("program") / "h.duckdb"
    spec = SweepSpec(game="holdem-training", bot="program", program=RAISER + " {size}",
                     grid=parse_grid(["size=1,7"]), units=120, chunk_size=60, seed=11)
    validate(spec)
    return spec, db, sweep_flow(spec, db=str(db))


def test_each_config_scores_exactly_what_its_rule_scores_in_process_on_the_same_hands(ht_sweep):
    _, db, outcome = ht_sweep
    con = read_only(str(db))
    for run in outcome.runs:
        size = int(run.overrides["size"])
        expected = ht_judge.play_chunk(_Raiser(size), seed=11, first=0, count=120, rate_budget=300 * 120)
        got = [p for (p,) in con.execute("SELECT payoff FROM units WHERE match_id = ? ORDER BY unit",
                                         [run.match_id]).fetchall()]
        assert got == expected.payoffs.tolist()
    deals = con.execute("SELECT count(DISTINCT deal_key), count(*) FROM stg_ht_hands h JOIN matches m "
                        "USING (match_id) WHERE m.sweep_id = ?", [outcome.sweep_id]).fetchall()[0]
    con.close()
    assert deals == (120, 240)  # both configs played the same 120 deals


def test_pick_exports_the_command_with_the_chosen_parameter(ht_sweep, tmp_path):
    _, db, outcome = ht_sweep
    con = read_only(str(db))
    picked = sweep_record.pick(con, "holdem-training", outcome.sweep_id)
    con.close()
    assert picked.bot == "program" and picked.overrides == {"size": outcome.best.overrides["size"]}
    config = picked.config
    run = write_bundle(ProgramConfig(config["template"], tuple(map(tuple, config["params"])), config["pass_as"]),
                       tmp_path / "bundle")
    assert f"ht_raiser.py {picked.overrides['size']}" in run.read_text()
    again = ht_judge.play_external([str(run)], seed=11, hands=120)
    assert again.log.payoffs.mean() == pytest.approx(outcome.best.mean)


def test_parameters_as_environment_variables_give_the_same_hands(ht_sweep, tmp_path):
    _, _, outcome = ht_sweep
    spec = SweepSpec(game="holdem-training", bot="program", program=RAISER, pass_as="env",
                     grid=parse_grid(["RAISE_SIZE=7"]), units=120, chunk_size=120, seed=11)
    env_run = sweep_flow(spec, db=str(tmp_path / "h.duckdb"), track=False).runs[0]
    args_run = next(r for r in outcome.runs if r.overrides["size"] == "7")
    assert env_run.mean == args_run.mean and env_run.units == 120


@pytest.mark.parametrize(("template", "grid", "pass_as", "message"), [
    (RAISER + " {size}", ["other=1"], "args", r"placeholder\(s\) \['size'\] with no value"),
    (RAISER + " {size}", ["size=1", "extra=2"], "args", r"key\(s\) \['extra'\] do not appear in --program"),
    (RAISER + " {size}", ["size=1"], "env", r"placeholder\(s\) \['size'\] but --pass-as env"),
    ("'unclosed", ["size=1"], "args", "is not a command line"),
])
def test_bad_program_templates_are_refused_before_any_play(template, grid, pass_as, message):
    spec = SweepSpec(game="holdem-training", bot="program", program=template, pass_as=pass_as,
                     grid=parse_grid(grid), units=10, chunk_size=10)
    with pytest.raises(ConfigError, match=message):
        validate(spec)


def test_a_game_without_program_sweeps_says_so():
    spec = SweepSpec(game="tractor", bot="program", program="x {a}", grid=parse_grid(["a=1"]), units=10)
    with pytest.raises(ValueError, match="tractor cannot sweep a program yet"):
        validate(spec)


@pytest.mark.slow  # a sweep of programs
def test_codingame_program_sweep_plays_the_bots_deals_and_seatings(tmp_path):
    from engine.cg_holdem import judge as cg_judge
    from flows.games import cg_holdem

    class Fixed:
        def __init__(self, answer):
            self.answer = answer

        def start(self, setup):
            pass

        def act(self, turn):
            return self.answer

    spec = SweepSpec(game="cg-holdem", bot="program", program=CG_FIXED + " {action}", units=4, chunk_size=2,
                     grid=parse_grid(["action=CALL,FOLD"]),
                     # 2 s a turn, not the arena's 50 ms: a timeout under load would make the program's
                     # games differ from the in-process ones this compares with (the clock has its own tests)
                     options=(("players", "2"), ("opponents", "station"), ("turn_ms", "2000")))
    validate(spec)
    outcome = sweep_flow(spec, db=str(tmp_path / "h.duckdb"), track=False)
    options = cg_holdem.SPEC.options({"players": "2", "opponents": "station"})
    for run in outcome.runs:
        makers, names = cg_holdem.lineup(None, None, options)
        makers[0] = lambda answer=run.overrides["action"]: Fixed(answer)
        expected = cg_judge.play_chunk(makers, seed=1, first=0, count=4, names=names)
        assert run.mean == pytest.approx(expected.payoffs.mean())
    assert {r.overrides["action"] for r in outcome.runs} == {"CALL", "FOLD"}


@pytest.mark.slow  # a program sweep, pick and export through the CLI
def test_the_cli_sweeps_a_program_picks_and_exports_it(tmp_path):
    env = {"CARDLAB_DB": str(tmp_path / "h.duckdb"), "CARDLAB_OUT": str(tmp_path / "out"),
           "MLFLOW_TRACKING_URI": f"sqlite:///{tmp_path / 'mlflow.db'}",
           "CARDLAB_ARTIFACT_ROOT": str(tmp_path / "art")}
    import os

    cardlab = [str(Path(sys.executable).with_name("cardlab"))]
    done = subprocess.run([*cardlab, "sweep", "holdem-training", "--program", RAISER + " {size}",
                           "--grid", "size=2,9", "--hands", "100", "--chunk", "50", "--seed", "3"],
                          env=os.environ | env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "best by lower confidence bound: size=" in done.stdout
    out = tmp_path / "bundle"
    done = subprocess.run([*cardlab, "pick", "holdem-training", "--out", str(out)], env=os.environ | env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ht_raiser.py" in (out / "run").read_text()


def test_the_nightly_replays_a_submitted_program(tmp_path):
    from flows import games, nightly, submissions
    from flows.store import HandLog

    db = tmp_path / "h.duckdb"
    config = {"template": RAISER + " {size}", "params": [["size", "3"]], "pass_as": "args"}
    with HandLog(db) as store:
        store.ensure_game(games.get("holdem-training"))
        submissions.record(store, game="holdem-training", bot="program", config=config, source="pick")
    first = nightly.run_check("holdem-training", units=60, db=str(db), say=lambda _: None)
    again = nightly.run_check("holdem-training", units=60, db=str(db), say=lambda _: None)
    assert (first.bot, first.verdict) == ("program", "baseline")
    assert (again.verdict, again.differing_units) == ("same", 0)
    expected = ht_judge.play_chunk(_Raiser(3), seed=nightly.NIGHTLY_SEED, first=0, count=60, rate_budget=300 * 60)
    con = read_only(str(db))
    got = [p for (p,) in con.execute("SELECT payoff FROM units WHERE match_id = ? ORDER BY unit",
                                     [again.match_id]).fetchall()]
    con.close()
    assert got == expected.payoffs.tolist()
