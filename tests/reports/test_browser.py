"""The report and a replay page opened in headless Chromium (Debian's package, installed by
.ci/install-browser.sh from run.sh's test path): they show what they claim, and screenshots
come out as PNG files."""

import os
import re
import shutil
from pathlib import Path

import pytest

from reports import browser
from reports.sweep_report import build_report
from tests.reports.conftest import connect

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None and shutil.which("chromium-browser") is None,
                                reason="chromium is not installed (run .ci/install-browser.sh as root)")

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow  # renders pages in Chromium
def test_report_and_replay_render_in_chromium(ht_sweep, tmp_path):
    report = build_report(ht_sweep, out_dir=tmp_path)
    dom = browser.dump_dom(report.page)
    verdict = re.search(r'id="recommendation">([^<]+)<', dom)
    assert verdict and re.match(r"(Switch to|Keep the baseline)", verdict.group(1))
    assert dom.count("<img") >= 5
    replay = report.replays[0]
    unit = int(replay.stem.rsplit("-", 1)[1])
    con = connect()
    hole, bob = con.execute("SELECT alice_hole, bob_hole FROM stg_ht_hands WHERE match_id = ? AND hand = ?",
                            [report.replays[0].stem.rsplit("-", 1)[0], unit + 1]).fetchone()
    con.close()
    dom = browser.dump_dom(replay)
    shown = set(re.findall(r'<span class="card[^"]*">(\w\w)</span>', dom))
    assert {hole[:2], hole[2:], bob[:2], bob[2:]} <= shown
    # The script ran: exactly one step is shown, and the counter says which.
    assert dom.count('class="step on"') == 1 and re.search(r'id="where">1 / \d+<', dom)
    for page, name in ((report.page, "report.png"), (replay, "replay.png")):
        png = browser.screenshot(page, tmp_path / "shots" / name)
        data = png.read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000


def _shots(tmp_path):
    """Where the screenshots go: CARDLAB_SCREENSHOT_DIR (docs/screenshots to refresh the docs' pictures), else
    the test's own folder."""
    return Path(os.environ.get("CARDLAB_SCREENSHOT_DIR") or tmp_path / "shots")


@pytest.mark.slow  # renders five pages in Chromium
def test_every_page_renders_what_it_claims_and_is_screenshotted(ht_sweep, league, tmp_path, monkeypatch):
    from flows.league_ratings import board_from_log
    from flows.match import MatchPlan, run_match
    from flows.settings import Paths
    from flows.store import HandLog
    from reports.index import build_index
    from reports.leaderboard import write_page
    from reports.replay import write_replay

    out = tmp_path / "out"
    report = build_report(ht_sweep, out_dir=out / "reports" / ht_sweep)
    dom = browser.dump_dom(report.page)
    assert 'id="shape"' in dom and 'src="profit_vs_future_flop.png"' in dom

    name, matches = league
    con = connect()
    try:
        league_page = write_page(board_from_log(name, str(Paths.from_env().db)), out / "leagues", con=con)
        cg_replay = write_replay(con, matches[0], 0, tmp_path / "replays")
        third = con.execute("SELECT hand FROM cgh_hands WHERE match_id = ? AND unit = 0 ORDER BY hand LIMIT 1 "
                            "OFFSET 2", [matches[0]]).fetchone()[0]
    finally:
        con.close()
    dom = browser.dump_dom(league_page)
    assert dom.count('">replay</a>') == 2 and "no answer within 0.05 s" in dom and 'src="ratings.png"' in dom

    index = build_index(out=out)
    dom = browser.dump_dom(index)
    assert re.search(rf"{ht_sweep}</a></td>.*?<td>future_flop=[\d.]+</td></tr>", dom)
    assert f'href="../leagues/{name}/index.html"' in dom

    dom = browser.dump_dom(cg_replay, fragment=f"hand-{third}")  # the hand index's link opens the hand
    (shown,) = re.findall(r'<div class="step on">(.*?)</div>', dom, flags=re.S)
    assert f"Hand {third}</h2>" in shown and "blinds posted" in shown

    with HandLog() as store:
        rated = run_match(MatchPlan(game="holdem-training", bot="rate_equity", seed=7, units=20, chunk_size=20),
                          store).match_id
    con = connect()
    try:
        ht_replay = write_replay(con, rated, 4, tmp_path / "replays")
    finally:
        con.close()
    dom = browser.dump_dom(ht_replay, fragment="all-steps")
    assert re.search(r"RATE 75: win \d\.\d{6}, tie \d\.\d{6}\. Alice", dom) and "unit 4" in dom

    shots = _shots(tmp_path)
    for page, png, fragment, height in ((report.page, "report.png", "", 4200), (index, "index.png", "", 700),
                                        (league_page, "league.png", "", 1300),
                                        (ht_replay, "replay.png", "all-steps", 1400),
                                        (cg_replay, "replay-codingame.png", f"hand-{third}", 900)):
        data = browser.screenshot(page, shots / png, fragment=fragment, height=height).read_bytes()
        assert data.startswith(PNG) and len(data) > 10_000
