"""`match`, `sweep` and `judge` while another process holds the hand log: each prints its result
and either logs it (after waiting its turn) or spools it with one line saying where and how to
ingest it; `cardlab ingest` then stores it whole. Run as separate processes, as a user would."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
import pytest

from tests.flows.holders import Holder

pytestmark = pytest.mark.slow  # every command a process of its own (the store's sharing: tests/flows/test_sharing.py)

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(tmp_path):
    env = dict(os.environ)
    env.update(CARDLAB_DB=str(tmp_path / "handlog.duckdb"), CARDLAB_OUT=str(tmp_path / "out"),
               MLFLOW_TRACKING_URI=f"sqlite:///{tmp_path / 'mlflow.db'}",
               CARDLAB_ARTIFACT_ROOT=str(tmp_path / "artifacts"), CARDLAB_EXTRA_GAMES="toy=tests.flows.toy_game",
               CARDLAB_LOCK_WAIT="1", CARDLAB_READ_WAIT="1", PYTHONPATH=str(ROOT))  # the toy game lives in tests/
    return env


def run(env, *args, timeout=300) -> subprocess.CompletedProcess:
    return subprocess.run([CARDLAB, *args], env=env, capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT)


def run_past(reader: Holder, env, *args, timeout=300) -> tuple[bool, subprocess.CompletedProcess]:
    """Run a command while `reader` holds the file, letting go only once the command waits for it:
    (whether it waited, its result). A reader with a fixed deadline lets go before a slow start."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:  # no pipe to fill
        process = subprocess.Popen([CARDLAB, *args], env=env, stdout=out, stderr=err, text=True, cwd=ROOT)
        waited = reader.release_when_waited_for(process, timeout)
        process.wait(timeout=timeout)
        out.seek(0)
        err.seek(0)
        return waited, subprocess.CompletedProcess(process.args, process.returncode, out.read(), err.read())


def count(env, sql: str) -> int:
    con = duckdb.connect(env["CARDLAB_DB"], read_only=True)
    try:
        return con.execute(sql).fetchall()[0][0]
    finally:
        con.close()


def one_note(stderr: str, env) -> str:
    """The one line saying where the unlogged writes went (a reader may add one saying it read a copy)."""
    lines = [line for line in stderr.splitlines() if line.startswith("note:") and "read a copy" not in line]
    assert len(lines) == 1, stderr
    assert env["CARDLAB_DB"] + ".spool" in lines[0] and "cardlab ingest" in lines[0]
    return lines[0]


def test_match_waits_for_a_brief_reader_and_logs(env):
    assert run(env, "match", "toy", "--hands", "10").returncode == 0  # creates the hand log
    with Holder(Path(env["CARDLAB_DB"]), read_only=True) as reader:
        waited, done = run_past(reader, env | {"CARDLAB_LOCK_WAIT": "30"}, "match", "toy", "--hands", "300",
                                "--chunk", "100")
    assert done.returncode == 0, done.stderr
    assert waited
    assert "n=300" in done.stdout and "note:" not in done.stderr
    assert count(env, "SELECT count(*) FROM units") == 310


def test_match_spools_while_a_writer_holds_the_file_and_ingest_stores_it(env):
    assert run(env, "match", "toy", "--hands", "10").returncode == 0
    with Holder(Path(env["CARDLAB_DB"]), read_only=False) as holder:
        done = run(env, "match", "toy", "--hands", "300", "--chunk", "100", "--seed", "4")
        assert done.returncode == 0, done.stderr
        assert "n=300" in done.stdout and "95% CI" in done.stdout
        assert f"held by PID {holder.pid}" in one_note(done.stderr, env)
        refused = run(env, "ingest")
        assert refused.returncode == 2 and "held by PID" in refused.stderr
    match_id = done.stdout.split("match id ")[1].split()[0]
    ingested = run(env, "ingest")
    assert ingested.returncode == 0 and "stored 5 spooled write(s)" in ingested.stdout
    assert count(env, f"SELECT count(*) FROM units WHERE match_id = '{match_id}'") == 300
    assert count(env, f"SELECT count(*) FROM matches WHERE match_id = '{match_id}' AND seconds > 0") == 1


def test_judge_json_log_prints_its_json_and_spools_while_the_file_is_held(env, tmp_path):
    strategy = tmp_path / "s.txt"
    made = run(env, "twocarddraw", "generate", "--bet1", "3", "--bet2", "7", "--steps", "2000", "--seed", "2",
               "--out", str(strategy))
    assert made.returncode == 0, made.stderr
    assert run(env, "match", "toy", "--hands", "10").returncode == 0
    with Holder(Path(env["CARDLAB_DB"]), read_only=True):
        judged = run(env, "judge", "twocarddraw", "--strategy", str(strategy), "--bot", "sample", "--hands", "200",
                     "--seed", "3", "--json", "--log")
    assert judged.returncode == 0, judged.stderr
    out = json.loads(judged.stdout)
    assert out["hands_played"] == 200 and out["match_id"].startswith("j-")
    one_note(judged.stderr, env)
    assert run(env, "ingest").returncode == 0
    assert count(env, f"SELECT count(*) FROM units WHERE match_id = '{out['match_id']}'") == 200
    assert count(env, f"SELECT count(*) FROM tcd_hands WHERE match_id = '{out['match_id']}'") > 0


def test_sweep_waits_for_a_reader_and_sql_reads_between_its_writes(env):
    assert run(env, "match", "toy", "--hands", "10").returncode == 0
    with Holder(Path(env["CARDLAB_DB"]), read_only=True) as reader:
        waited, swept = run_past(reader, env | {"CARDLAB_LOCK_WAIT": "30"}, "sweep", "toy", "--grid",
                                 "edge=0.4,0.6", "--hands", "400", "--chunk", "100")
    assert swept.returncode == 0, swept.stderr
    assert waited
    assert "best by lower confidence bound: edge=0.6" in swept.stdout
    assert_whole(env, swept.stdout)


def assert_whole(env, stdout: str) -> str:
    """Every unit the sweep planned is in the hand log, for at least the two configs of its grid."""
    sweep_id = stdout.split("sweep ")[-1].split(":")[0]
    planned = count(env, f"SELECT sum(units) FROM matches WHERE sweep_id = '{sweep_id}'")
    stored = count(env, f"SELECT count(*) FROM units u JOIN matches m USING (match_id) WHERE m.sweep_id = '{sweep_id}'")
    assert planned == stored >= 800
    return sweep_id


def test_sweep_while_a_writer_holds_the_file_throughout_prints_its_ranking_and_spools(env):
    assert run(env, "match", "toy", "--hands", "10").returncode == 0
    with Holder(Path(env["CARDLAB_DB"]), read_only=False):
        swept = run(env, "sweep", "toy", "--grid", "edge=0.4,0.6", "--hands", "400", "--chunk", "100")
    assert swept.returncode == 0, swept.stderr
    assert "best by lower confidence bound: edge=0.6" in swept.stdout and "paired difference" in swept.stdout
    one_note(swept.stderr, env)
    assert run(env, "ingest").returncode == 0
    sweep_id = assert_whole(env, swept.stdout)
    assert count(env, f"SELECT count(*) FROM sweeps s JOIN matches m ON m.match_id = s.best_match "
                      f"WHERE s.sweep_id = '{sweep_id}' AND s.finished_at IS NOT NULL "
                      "AND m.config LIKE '%\"edge\": 0.6%'") == 1


def test_judge_cg_holdem_json_log_prints_its_json_and_spools_while_a_writer_holds_the_file(env):
    caller = f"{sys.executable} {ROOT / 'tests' / 'cg_holdem' / 'data' / 'caller.py'}"
    assert run(env, "match", "toy", "--hands", "10").returncode == 0
    with Holder(Path(env["CARDLAB_DB"]), read_only=False):
        judged = run(env, "judge", "cg-holdem", "--seed", "42", "--turn-ms", "2000", "--json", "--log", "--",
                     caller, caller)
    assert judged.returncode == 0, judged.stderr
    out = json.loads(judged.stdout)
    assert len(out["seats"]) == 2 and out["match_id"].startswith("j-")
    one_note(judged.stderr, env)
    assert run(env, "ingest").returncode == 0
    assert count(env, f"SELECT count(*) FROM units WHERE match_id = '{out['match_id']}'") == 1  # the unit is a game
    assert count(env, f"SELECT count(*) FROM cgh_seats WHERE match_id = '{out['match_id']}'") == 2


def test_judge_still_prints_its_json_when_the_match_can_be_neither_logged_nor_spooled(env, tmp_path):
    strategy = tmp_path / "s.txt"
    assert run(env, "twocarddraw", "generate", "--bet1", "3", "--bet2", "7", "--steps", "2000", "--seed", "2",
               "--out", str(strategy)).returncode == 0
    assert run(env, "match", "toy", "--hands", "10").returncode == 0
    Path(env["CARDLAB_DB"] + ".spool").write_text("a file where the spool folder would go")
    with Holder(Path(env["CARDLAB_DB"]), read_only=False):
        judged = run(env | {"CARDLAB_SPOOL_FALLBACK": ""}, "judge", "twocarddraw", "--strategy", str(strategy),
                     "--bot", "sample", "--hands", "200", "--seed", "3", "--json", "--log")  # no fallback folder
    assert judged.returncode == 0, judged.stderr
    out = json.loads(judged.stdout)
    assert out["hands_played"] == 200 and "match_id" not in out and out["log_error"].startswith("SpoolFull")
    assert "note: the match was not logged (SpoolFull" in judged.stderr
