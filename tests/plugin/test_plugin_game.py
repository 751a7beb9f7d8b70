"""A contest from another package is a game like the built-in five: installing it (pip, into a
scratch folder on PYTHONPATH) is all it takes, and cardlab judges, matches, sweeps, leagues,
reports and replays it with no file of cardlab changed.

The package (tests/plugin/highcard) declares a contract game, a bot, a line protocol and its
GameSpec, registered as a `cardlab.games` entry point; the one referee loop plays it."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flows.store import read_only

PACKAGE = Path(__file__).with_name("highcard")
CARDLAB = [str(Path(sys.executable).with_name("cardlab"))]  # the installed console script


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    """The package installed by pip (a wheel built from its pyproject) and a workspace of its own."""
    root = tmp_path_factory.mktemp("plugin")
    shutil.copytree(PACKAGE, root / "src")  # the build writes beside the sources: not into the clone
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--no-index",
                    "--target", str(root / "site"), str(root / "src")], check=True, capture_output=True, text=True)
    home = root / "home"
    home.mkdir()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "site"), os.environ.get("PYTHONPATH", "")]),
               CARDLAB_HOME=str(home), CARDLAB_DB=str(home / "handlog.duckdb"), CARDLAB_OUT=str(home / "out"),
               CARDLAB_ARTIFACT_ROOT=str(home / "artifacts"), MLFLOW_TRACKING_URI=f"sqlite:///{home / 'mlflow.db'}",
               PREFECT_HOME=str(home / "prefect"),
               PREFECT_API_DATABASE_CONNECTION_URL=f"sqlite+aiosqlite:///{home / 'prefect' / 'prefect.db'}")
    env.pop("CARDLAB_EXTRA_GAMES", None)  # found as an installed package, not through the variable
    env.pop("PREFECT_API_URL", None)
    (home / "prefect").mkdir()
    (home / "seven.py").write_text("import sys\nfor line in sys.stdin:\n"
                                   "    print('BET' if int(line.split()[1]) >= 7 else 'FOLD', flush=True)\n")
    (home / "garbled.py").write_text("import sys\nfor i, line in enumerate(sys.stdin):\n"
                                     "    print('BET' if i % 3 else 'what', flush=True)\n"
                                     "    if i == 20:\n        sys.exit(3)\n")

    def cardlab(*args: str, ok: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([*CARDLAB, *args], cwd=home, env=env, capture_output=True, text=True, timeout=600)
        if ok:
            assert done.returncode == 0, done.stdout + done.stderr
        return done

    return home, cardlab, env


def _log(home: Path, sql: str, params=()):
    with read_only(str(home / "handlog.duckdb")) as con:
        return con.execute(sql, list(params)).fetchall()


@pytest.mark.slow  # installs a package, then the CLI
def test_an_installed_package_adds_a_game_that_matches_judges_and_replays(plugin):
    home, cardlab, _ = plugin
    assert "highcard" in cardlab("games").stdout
    matched = cardlab("match", "highcard", "--set", "min_rank=7", "--hands", "600", "--seed", "3")
    match_id = matched.stdout.split("match id ")[1].split(";")[0].split()[0]
    assert "per hand" in matched.stdout
    # the bot's play, read back from the events the referee recorded: it bets from rank 7 up, and
    # each payoff is the rules' (fold -1, bet +2 / 0 / -2 on the ranks)
    hands = _log(home, "SELECT action, card // 4, house // 4, payoff FROM stg_highcard_hands WHERE match_id = ?",
                 [match_id])
    assert len(hands) == 600
    for action, mine, theirs, payoff in hands:
        assert action == ("BET" if mine >= 7 else "FOLD")
        assert payoff == (-1.0 if action == "FOLD" else 2.0 if mine > theirs else -2.0 if mine < theirs else 0.0)

    # judged as a program, on the same deals: the same choices give the same payoffs hand for hand
    judged = json.loads(cardlab("judge", "highcard", "--units", "600", "--seed", "3", "--log", "--json", "--",
                                "python3", str(home / "seven.py")).stdout.strip().splitlines()[-1])
    assert judged["units"] == 600
    pairs = _log(home, "SELECT a.payoff, b.payoff FROM units a JOIN units b USING (unit) "
                       "WHERE a.match_id = ? AND b.match_id = ?", [match_id, judged["match_id"]])
    assert len(pairs) == 600 and all(a == b for a, b in pairs)

    # a program that garbles answers forfeits those hands and its crash ends the match: one line, exit 2
    failed = cardlab("judge", "highcard", "--units", "100", "--", "python3", str(home / "garbled.py"), ok=False)
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert "ended the match after 21 of 100 units: crash" in failed.stderr and "exit status 3" in failed.stderr

    page = cardlab("replay", "--match", match_id, "--unit", "4").stdout.split("replay: ")[1].strip()
    text = Path(page).read_text()
    action = _log(home, "SELECT action FROM stg_highcard_hands WHERE match_id = ? AND unit = 4", [match_id])[0][0]
    assert "Step 1: seat 0" in text and f"&quot;{action}&quot;" in text


@pytest.mark.slow
def test_an_installed_package_adds_a_game_that_sweeps_leagues_and_reports(plugin):
    home, cardlab, _ = plugin
    swept = cardlab("sweep", "highcard", "--grid", "min_rank=3,9", "--hands", "1200", "--chunk", "600")
    assert "best by lower confidence bound" in swept.stdout
    sweep_id = swept.stdout.split("sweep ")[-1].split(":")[0]
    configs = _log(home, "SELECT count(*), sum(units) FROM matches WHERE sweep_id = ?", [sweep_id])
    assert configs == [(3, 3600)]  # the baseline (min_rank=6) and the two grid values
    report = cardlab("report", sweep_id).stdout
    page = Path(report.split("report: ")[1].split()[0])
    assert page.is_file() and list((page.parent / "replays").glob("*.html"))

    board = json.loads(cardlab("league", "highcard", "--program", "seven=python3 seven.py",
                               "--program", "garbled=python3 garbled.py", "--games", "2", "--opt", "units=50",
                               "--json").stdout.strip().splitlines()[-1])
    assert board["game"] == "highcard" and board["played"] == 4
    by_name = {row["name"]: row for row in board["leaderboard"]}
    assert by_name["garbled"]["faults"] == 2 and by_name["seven"]["faults"] == 0
    refused = cardlab("league", "highcard", "--program", "a=python3 seven.py", "--opt", "hands=5", ok=False)
    assert refused.returncode == 2 and "unknown league option(s) hands for highcard; accepted: units" in refused.stderr


@pytest.mark.slow
def test_the_generic_judge_keeps_the_hands_played_when_signalled(plugin):
    """SIGTERM ends `cardlab judge highcard` like the built-in judges: the hands played are logged,
    the status says interrupted, exit 143."""
    import re
    import signal
    import time

    home, _, env = plugin
    (home / "slow.py").write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(0.005)\n"
                                  "    print('BET', flush=True)\n")
    err = home / "judge-stderr.txt"
    with err.open("w") as stderr:
        proc = subprocess.Popen([*CARDLAB, "judge", "highcard", "--units", "1000000", "--log", "--json", "--",
                                 "python3", str(home / "slow.py")], cwd=home, stdout=subprocess.PIPE, stderr=stderr,
                                env=env | {"CARDLAB_PROGRESS_SECONDS": "0.5"}, text=True)
        try:
            deadline = time.monotonic() + 240
            while not re.search(r": [1-9][\d,]*/", err.read_text()):
                assert proc.poll() is None and time.monotonic() < deadline, err.read_text()
                time.sleep(0.2)
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=240)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 143 and "Traceback" not in err.read_text(), err.read_text()[-2000:]
    result = json.loads(out.strip().splitlines()[-1])
    assert result["status"] == "interrupted" and 0 < result["units"] < 1_000_000
    assert _log(home, "SELECT count(*) FROM units WHERE match_id = ?", [result["match_id"]]) == [(result["units"],)]
