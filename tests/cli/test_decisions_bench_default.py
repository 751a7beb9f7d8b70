"""`cardlab bench decisions` names no game itself: its default game is the main job's, read from the games'
declarations (a GameSpec declaring a demo sweep)."""

import pytest

from flows import games
from tests.cli.test_cli import cardlab as run_cli


def test_the_main_jobs_game_is_the_first_declaring_a_demo_sweep():
    declaring = [s.name for s in games.specs() if s.demo_sweep]
    assert declaring, "no game declares a demo sweep"
    assert games.demo_game() == sorted(declaring)[0]


@pytest.mark.parametrize("declared", ["cg-holdem", "twocarddraw"])
def test_the_default_game_comes_from_the_declarations(monkeypatch, declared):
    import bench.decisions
    from cardlab import prefect_local

    played = []
    monkeypatch.setattr(games, "demo_game", lambda: declared, raising=False)  # as if that game declared it
    monkeypatch.setattr(prefect_local, "ensure", lambda **_: None)
    monkeypatch.setattr(bench.decisions, "run", lambda game, **kw: played.append((game, kw["pairs"])) or [])
    code, _, err = run_cli(None, monkeypatch, "bench", "decisions", "--repeats", "1")
    assert code == 0, err
    assert played == [(declared, None)]


def test_an_unknown_pair_is_refused_with_the_default_games_own_pairs(monkeypatch):
    from bench.decisions import PAIRS

    code, _, err = run_cli(None, monkeypatch, "bench", "decisions", "--pair", "nope")
    assert code == 2
    assert f"accepted: {', '.join(p.name for p in PAIRS[games.demo_game()])}" in err
