"""A user's journey on a fresh workspace, as the README and docs/your-first-bot.md tell it: two bots of
their own from `cardlab new` (Python and C++), judged; a program sweep where one value crashes the
program; a league mixing their programs and a project bot under a changed turn limit; pick and submit;
the report and replays; every page opened in Chromium and screenshotted."""

import json
import re
import subprocess
from pathlib import Path

import pytest

from reports import browser
from tests.cli.test_signals import CARDLAB


def cardlab(env, cwd, *args, ok=True, timeout=900):
    done = subprocess.run([CARDLAB, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if ok:
        assert done.returncode == 0, f"cardlab {' '.join(args)}\n{done.stdout}\n{done.stderr}"
    return done


def shot(page, png):
    browser.screenshot(page, png)
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow  # programs, a sweep, a league and Chromium: a few minutes
def test_from_new_bots_to_a_submission(env, tmp_path):
    out = tmp_path / "out"
    # two bots of the user's own, in two languages, each judged as the contest would
    cardlab(env, tmp_path, "new", "holdem-training", "--dir", "ht")
    cardlab(env, tmp_path, "new", "cg-holdem", "--dir", "py")
    cardlab(env, tmp_path, "new", "cg-holdem", "--lang", "cpp", "--dir", "cpp")
    judged = cardlab(env, tmp_path, "judge", "cg-holdem", "--seed", "3", "--json", "python3 py/bot.py", "cpp/bot")
    seats = json.loads(judged.stdout.strip().splitlines()[-1])
    assert seats and "TIMEOUT" not in judged.stdout

    # a sweep of the Hold'em Training bot's setting where one value crashes the program
    swept = cardlab(env, tmp_path / "ht", "sweep", "holdem-training", "--program", "python3 bot.py {x}",
                    "--grid", "x=0.55,0.7,boom", "--hands", "600", "--chunk", "300")
    assert re.search(r"failed x=boom: .*", swept.stdout), swept.stdout
    sweep_id = re.search(r"sweep (s-\S+): ", swept.stdout).group(1)

    # a league of the user's programs and a project bot, the turn limit loosened for a busy machine
    league = cardlab(env, tmp_path, "league", "cg-holdem", "--program", "py=python3 py/bot.py",
                     "--program", "cpp=cpp/bot", "--program", "agg=bot:aggressive", "--games", "3", "--seed", "5",
                     "--turn-ms", "200", "--json")
    standings = json.loads(league.stdout.strip().splitlines()[-1])
    assert {e["name"] for e in standings["leaderboard"]} == {"py", "cpp", "agg"}
    assert all(e["games"] >= 3 for e in standings["leaderboard"])  # at least --games each

    # pick among the completed configs, submit, and the sweep's report and replays
    picked = cardlab(env, tmp_path / "ht", "pick", "holdem-training", "--sweep", sweep_id,
                     "--out", str(tmp_path / "sub"), "--submit")
    assert "x=boom" in picked.stdout and "failed" in picked.stdout
    assert re.search(r"bot\.py (0\.55|0\.7)", (tmp_path / "sub" / "run").read_text())
    submitted = cardlab(env, tmp_path, "sql", "--format", "json", "SELECT game, source, sweep_id FROM submissions")
    assert json.loads(submitted.stdout) == [{"game": "holdem-training", "source": "pick", "sweep_id": sweep_id}]
    reported = cardlab(env, tmp_path, "report", sweep_id).stdout
    report, index = (Path(re.search(rf"{what}: (\S+\.html)", reported).group(1)) for what in ("report", "index"))
    match = re.search(rf"({re.escape(sweep_id)}-c\d+)", swept.stdout).group(1)
    cardlab(env, tmp_path, "replay", "--match", match, "--unit", "4", "--out", str(out / "replays"))
    game = json.loads(cardlab(env, tmp_path, "sql", "--format", "json",
                              "SELECT match_id FROM matches WHERE game = 'cg-holdem' ORDER BY started_at DESC LIMIT 1")
                      .stdout)[0]["match_id"]
    cardlab(env, tmp_path, "replay", "--match", game, "--unit", "0", "--out", str(out / "replays"))

    pages = [report, index, *sorted((out / "replays").glob("*.html")), Path(standings["page"])]
    assert len(pages) >= 4 and [p for p in pages if not p.is_file()] == []
    for n, page in enumerate(pages):
        shot(page, tmp_path / f"page-{n}.png")
    assert "boom" in browser.dump_dom(pages[0])  # the failed config is on the sweep's page
