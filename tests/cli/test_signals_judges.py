"""The other judges end on SIGINT, SIGTERM and SIGHUP the way `judge holdem-training` does: what
was played is logged, the output says `interrupted`, and the exit code is 128 + the signal.
Real `cardlab` processes (the helpers of tests/cli/test_signals.py)."""

import json
import re
import signal
import subprocess
import time

import pytest

from tests.cli.test_signals import CARDLAB, ROOT, hangup_default, query, signalled, stopped_cleanly

pytestmark = pytest.mark.slow  # a process per signal, interrupted mid-play


def test_tractor_judge_logs_the_rounds_played(env, tmp_path):
    done = signalled(env, tmp_path, ["judge", "tractor", "--rounds", "1000000", "--seed", "3", "--log"],
                     signal.SIGTERM)
    note = stopped_cleanly(done, signal.SIGTERM)
    played = int(re.search(r"status interrupted after ([\d,]+) of 1,000,000 rounds", done.stderr)
                 .group(1).replace(",", ""))
    assert played > 0 and played % 10 == 0  # whole pieces of ten rounds
    match_id = re.search(r"logged as (\S+);", note).group(1)
    assert query(env, f"SELECT count(*) FROM units WHERE match_id = '{match_id}'") == [(played,)]


def _cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime + stime in clock ticks (USER_HZ is 100 on Linux)


def test_twocarddraw_judge_logs_the_hands_played(env, tmp_path):
    strategy = tmp_path / "server.txt"
    subprocess.run([CARDLAB, "twocarddraw", "generate", "--bet1", "1", "--bet2", "2", "--steps", "2000",
                    "--seed", "5", "--out", str(strategy)], env=env, check=True, capture_output=True, cwd=ROOT)
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:  # no progress line: signalled once it has played a while
        proc = subprocess.Popen([CARDLAB, "judge", "twocarddraw", "--strategy", str(strategy), "--bot", "sample",
                                 "--hands", "5000000", "--log", "--json"], env=env, stdout=stdout, stderr=stderr,
                                cwd=ROOT, preexec_fn=hangup_default)
        try:
            deadline = time.monotonic() + 240
            while _cpu_seconds(proc.pid) < 6.0:
                assert proc.poll() is None, err.read_text()
                assert time.monotonic() < deadline, "it never got going"
                time.sleep(0.2)
            proc.send_signal(signal.SIGHUP)
            code = proc.wait(timeout=240)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    done = subprocess.CompletedProcess([], code, out.read_text(), err.read_text())
    note = stopped_cleanly(done, signal.SIGHUP)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["status"] == "interrupted" and 0 < result["hands_played"] < 5_000_000
    assert note.startswith(f"interrupted by SIGHUP: the {result['hands_played']:,} hands played are logged as "
                           f"{result['match_id']}")
    assert query(env, f"SELECT count(*) FROM units WHERE match_id = '{result['match_id']}'") == [
        (result["hands_played"],)]
