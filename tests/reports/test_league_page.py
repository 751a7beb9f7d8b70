"""The league page: a plot of each entrant's measure and rating with intervals, the pair table, fault
reasons per entrant, and every game with a link to its replay page (issue 30 item 6)."""

import re

from flows.league_ratings import leaderboard
from flows.store import HandLog, read_only
from reports.leaderboard import write_page

PNG = b"\x89PNG\r\n\x1a\n"


def test_league_page_plots_ratings_lists_faults_and_links_each_games_replay(league, tmp_path):
    name, matches = league
    with HandLog() as store:
        board = leaderboard(store.query, name)
    with read_only() as con:
        page = write_page(board, tmp_path, con=con)
    text = page.read_text()
    for png in ("standings.png", "ratings.png"):
        assert f'src="{png}"' in text and (page.parent / png).read_bytes().startswith(PNG)
    assert "Pairs: share of shared games finishing ahead" in text and "a@aaa111" in text
    assert re.search(r"<td>b@bbb222</td><td>1</td><td>no answer within 0.05 s</td>", text)
    links = re.findall(r'<a href="(replays/[^"]+)">replay</a>', text)
    assert links == [f"replays/{m}-0.html" for m in matches]
    for link, match in zip(links, matches, strict=True):
        assert f"CodinGame Hold&#x27;em game 0 of {match}" in (page.parent / link).read_text()
