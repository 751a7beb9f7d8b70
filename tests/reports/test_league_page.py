"""The league page: a plot of each entrant's measure and rating with intervals, the pair table, fault
reasons per entrant, and every game with a link to its replay page (issue 30 item 6)."""

import re

import pytest

from flows.league import LEAGUE_SQL
from flows.league_ratings import leaderboard, openskill_ratings, seat_rows
from flows.store import HandLog, read_only
from reports.leaderboard import write_page

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture()
def league(cg_sweep) -> tuple[str, list[str]]:
    """Two real CodinGame matches of the sweep as the two games of a league of two entrants, one of whose
    seats faulted (the rows a league run writes, without playing it again)."""
    name = f"page-{cg_sweep}"
    games = [("r0:a@aaa111,b@bbb222", f"{cg_sweep}-c0", (1, 2), ("", "no answer within 0.05 s")),
             ("r1:b@bbb222,a@aaa111", f"{cg_sweep}-c1", (2, 1), ("", ""))]
    with HandLog() as store:
        store.apply_sql(LEAGUE_SQL)  # as a league run does first
        con = store.con
        con.execute("INSERT INTO leagues VALUES (?, 'cg-holdem', 1, 2, '{}', now())", [name])
        for k, (key, match, ranks, faults) in enumerate(games):
            con.execute("INSERT INTO league_games VALUES (?, ?, ?, ?, ?, 0.1, now())", [name, key, k, k, match])
            for seat, entrant in enumerate(key.split(":")[1].split(",")):
                con.execute("INSERT INTO league_seats VALUES (?, ?, ?, ?, ?, 1, ?, ?, NULL)",
                            [name, key, seat, entrant, 1.0 if ranks[seat] == 1 else 0.0, ranks[seat], faults[seat]])
        for entrant, (mu, sigma, ordinal) in openskill_ratings(seat_rows(store.query, name)).items():
            con.execute("INSERT INTO league_ratings VALUES (?, ?, ?, ?, ?, 2, now())",
                        [name, entrant, mu, sigma, ordinal])
    return name, [m for _, m, _, _ in games]


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
