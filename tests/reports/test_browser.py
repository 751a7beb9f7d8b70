"""The report and a replay page opened in headless Chromium (Debian's package, installed by
.ci/install-browser.sh from run.sh's test path): they show what they claim, and screenshots
come out as PNG files."""

import re
import shutil

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
