"""A user's program is identified by the hash of its files and of its folder, recorded with every result
(the sweep's matches, MLflow, picked.json, the nightly), so a rebuilt program is named as the cause of a
changed replay; `pick` says how to make the chosen values the program's own defaults (issue 30 item 4)."""

import contextlib
import io
import json
import shutil
import sys
from pathlib import Path

import pytest
from mlflow.tracking import MlflowClient

from bots.program import ProgramConfig, folder_version, program_version, source_hints
from flows import games, nightly, submissions, tracking
from flows.league_spec import version_of
from flows.settings import Paths
from flows.store import HandLog, read_only
from flows.sweep import SweepSpec, parse_grid, sweep_flow, validate

RAISER = Path(__file__).parent / "data" / "ht_raiser.py"


def _bot(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(RAISER, folder / "bot.py")
    (folder / "helper.py").write_text("EDGE = 1\n")
    return folder / "bot.py"


def test_the_hash_is_the_leagues_and_changes_with_the_file_or_its_folder(tmp_path):
    bot = _bot(tmp_path / "mine")
    command = f"{sys.executable} {bot} 3"
    config = ProgramConfig(f"{sys.executable} {bot} {{size}}", (("size", "3"),))
    assert config.program_hash == program_version(command) == version_of(command)  # one function for both
    assert config.folder_hash == folder_version(tmp_path / "mine") != ""
    (tmp_path / "mine" / "helper.py").write_text("EDGE = 2\n")  # a module it imports: the folder changes
    edited = ProgramConfig(config.template, config.params)
    assert edited.program_hash == config.program_hash and edited.folder_hash != config.folder_hash
    bot.write_text(bot.read_text() + "# rebuilt\n")
    assert ProgramConfig(config.template, config.params).program_hash != config.program_hash
    assert edited == config  # the hashes say what was played; they are not the config's identity


@pytest.mark.parametrize(("template", "pass_as", "says"), [
    ("python3 {bot} {size}", "args", "reads size from argv[1] of its command line: set its default to 7"),
    ("./ht_thresh --size={size}", "args", "reads size from the argument '--size={size}' of its command line"),
    ("./ht_thresh", "env", "reads size from the environment variable size: set its default to 7"),
])
def test_pick_tells_where_the_program_reads_each_value(tmp_path, template, pass_as, says):
    bot = _bot(tmp_path)
    config = ProgramConfig(template.replace("{bot}", str(bot)), (("size", "7"),), pass_as)
    assert [says in hint for hint in source_hints(config)] == [True]


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    folder = tmp_path_factory.mktemp("identity")
    bot = _bot(folder / "mybot")
    spec = SweepSpec(game="holdem-training", bot="program", program=f"{sys.executable} {bot} {{size}}",
                     grid=parse_grid(["size=2,5"]), units=40, chunk_size=40, seed=9)
    validate(spec)
    db = folder / "h.duckdb"
    return bot, db, sweep_flow(spec, db=str(db))


@pytest.mark.slow  # a program sweep logged to MLflow
def test_every_config_of_a_sweep_is_recorded_with_the_programs_hash(swept):
    bot, db, outcome = swept
    expected = program_version(f"{sys.executable} {bot} 2")
    con = read_only(str(db))
    configs = [json.loads(c) for (c,) in con.execute("SELECT config FROM matches WHERE sweep_id = ? ORDER BY "
                                                     "match_id", [outcome.sweep_id]).fetchall()]
    con.close()
    assert [c["program_hash"] for c in configs] == [expected, program_version(f"{sys.executable} {bot} 5")]
    assert {c["folder_hash"] for c in configs} == {folder_version(bot.parent)}
    client = MlflowClient(Paths.from_env().tracking_uri)
    runs = client.search_runs([tracking.experiment_id("holdem-training")],
                              f"tags.`cardlab.sweep_id` = '{outcome.sweep_id}' and tags.`cardlab.kind` = 'config'")
    assert sorted(r.data.params["program_hash"] for r in runs) == sorted(c["program_hash"] for c in configs)


@pytest.mark.slow  # a program sweep logged to MLflow
def test_pick_records_the_hash_and_says_how_to_set_the_values_in_the_source(swept, tmp_path, monkeypatch):
    from cardlab import cli

    bot, db, outcome = swept
    monkeypatch.setenv("CARDLAB_DB", str(db))
    out = io.StringIO()
    monkeypatch.setattr(sys, "argv", ["cardlab", "pick", "holdem-training", "--sweep", outcome.sweep_id,
                                      "--out", str(tmp_path / "bundle")])
    with pytest.raises(SystemExit) as done, contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        cli.main()
        sys.exit(0)
    assert (done.value.code or 0) == 0
    size = outcome.best.overrides["size"]
    picked = json.loads((tmp_path / "bundle" / "picked.json").read_text())
    assert picked["program_hash"] == program_version(f"{sys.executable} {bot} {size}")
    text = " ".join(out.getvalue().split())
    assert f"your program reads size from argv[1] of its command line: set its default to {size}" in text
    assert f"program: files {picked['program_hash']}" in text and "changed since the sweep" not in text
    bot.write_text(bot.read_text() + "# rebuilt\n")
    try:
        out.seek(0), out.truncate()
        with pytest.raises(SystemExit), contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            monkeypatch.setattr(sys, "argv", ["cardlab", "pick", "holdem-training", "--sweep", outcome.sweep_id])
            cli.main()
        assert "the program changed since the sweep" in " ".join(out.getvalue().split())
    finally:
        bot.write_text(RAISER.read_text())


def test_the_nightly_names_a_changed_program_as_the_cause(tmp_path):
    bot = _bot(tmp_path / "mybot")
    db = tmp_path / "h.duckdb"
    config = ProgramConfig(f"{sys.executable} {bot} {{size}}", (("size", "3"),))
    with HandLog(db) as store:
        store.ensure_game(games.get("holdem-training"))
        submissions.record(store, game="holdem-training", bot="program", source="pick",
                           config={"template": config.template, "params": [["size", "3"]], "pass_as": "args",
                                   "program_hash": config.program_hash, "folder_hash": config.folder_hash})
    first = nightly.run_check("holdem-training", units=40, db=str(db), say=lambda _: None)
    assert first.verdict == "baseline" and "changed" not in first.detail
    bot.write_text(bot.read_text().replace("min(size, stack)", "min(size + 4, stack)"))  # rebuilt, plays otherwise
    again = nightly.run_check("holdem-training", units=40, db=str(db), say=lambda _: None)
    now = ProgramConfig(config.template, config.params).program_hash
    assert again.verdict == "changed" and again.differing_units > 0
    assert f"the program changed (its files: hash {config.program_hash} -> {now}" in again.detail
    assert "config changed" not in again.detail  # the parameters are the same


@pytest.mark.slow  # a program sweep logged to MLflow (the module's)
def test_a_sweep_is_not_resumed_with_a_rebuilt_program(swept):
    from flows.sweep import ResumeRefused, resume_spec

    bot, db, outcome = swept
    before = program_version(f"{sys.executable} {bot} 2")
    bot.write_text(bot.read_text() + "# rebuilt\n")
    try:
        con = read_only(str(db))
        with pytest.raises(ResumeRefused, match=f"played the program with hash {before}; it is now "
                                                f"{program_version(f'{sys.executable} {bot} 2')}: resuming would mix"):
            resume_spec(con, outcome.sweep_id, {"game": "holdem-training"}, retry_failed=True)
        con.close()
    finally:
        bot.write_text(RAISER.read_text())


def test_a_league_entrant_run_in_its_folder_is_versioned_with_that_folder(tmp_path):
    from flows.league_spec import build

    bot = _bot(tmp_path / "mine")  # a program, with a module beside it

    def versions(game: str) -> dict:
        league = build(name="v", game=game, programs=[("a", f"{sys.executable} {bot}"), ("b", "cat")], games=1)
        return {e.name: e.version for e in league.entrants}

    splendor, cg = versions("splendor"), versions("cg-holdem")
    assert cg["a"] == program_version(f"{sys.executable} {bot}") != splendor["a"]
    (tmp_path / "mine" / "helper.py").write_text("EDGE = 3\n")
    assert versions("splendor")["a"] != splendor["a"]  # Splendor's arbiter runs it in its folder
    assert versions("cg-holdem")["a"] == cg["a"]  # CodinGame runs it in a folder of its own
