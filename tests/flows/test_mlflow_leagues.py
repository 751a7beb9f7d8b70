"""A league in MLflow (issue 30 item 8): a parent run per invocation with the league's figures, a child per
entrant version carrying the standings' numbers and its head-to-head pairs; an MLflow store that cannot take it
costs a note, never the hand log's games. MLFLOW_TRACKING_URI is the tests' temporary store (tests/conftest.py)."""

import math
import uuid

import pytest
from mlflow.tracking import MlflowClient

from flows import tracking
from flows.league import run_league
from flows.league_ratings import Leaderboard, Pairing, Standing, board_from_log
from flows.league_spec import build
from flows.settings import Paths


def _client() -> MlflowClient:
    return MlflowClient(Paths.from_env().tracking_uri)


def _children(client: MlflowClient, parent) -> dict:
    found = client.search_runs([parent.info.experiment_id], f"tags.`mlflow.parentRunId` = '{parent.info.run_id}'")
    return {run.data.tags["cardlab.entrant"]: run for run in found}


def _league(name: str, programs, games: int):
    return build(name=name, game="twocarddraw", programs=programs, games=games, options={"hands": 150})


@pytest.mark.slow  # two small leagues of project bots, each logged to MLflow
def test_each_league_run_has_a_child_per_entrant_version_with_the_standings(tmp_path):
    name = f"ml{uuid.uuid4().hex[:8]}"
    db = str(tmp_path / "h.duckdb")
    first = run_league(_league(name, [("a", "bot:sample"), ("b", "bot:oracle")], 2), db=db, workers=1)
    # a is a new program now: a new version with its own child, the old version's games kept apart
    second = run_league(_league(name, [("a", "bot:oracle"), ("b", "bot:oracle")], 3), db=db, workers=1)
    assert first.mlflow_run and second.mlflow_run and first.mlflow_run != second.mlflow_run, (first, second)
    assert second.mlflow_error is None
    client = _client()
    parent = client.get_run(second.mlflow_run)
    assert parent.data.tags["cardlab.kind"] == "league" and parent.data.tags["cardlab.league"] == name
    assert parent.data.params["game"] == "twocarddraw" and parent.data.params["games"] == "3"
    assert parent.data.metrics["games_played_now"] == second.played

    board = board_from_log(name, db)
    children = _children(client, parent)
    assert set(children) == {s.entrant for s in board.standings} and len(children) == 3
    assert len({s.name for s in board.standings}) == 2  # two versions of a, each its own run
    for position, s in enumerate(board.standings, start=1):
        child = children[s.entrant]
        metrics = child.data.metrics
        assert child.data.params["version"] == s.version and child.data.params["kind"] == "bot"
        assert child.data.tags["cardlab.command"].startswith("bot:")
        assert metrics["position"] == position and metrics["games"] == s.games
        assert metrics["measure"] == pytest.approx(s.measure) and metrics["ci_low"] == pytest.approx(s.ci_low)
        assert metrics["ci_high"] == pytest.approx(s.ci_high) and metrics["ci_low"] <= metrics["measure"]
        label = s.entrant.replace("@", ".")
        assert parent.data.metrics[f"measure/{label}"] == pytest.approx(s.measure)
    # Each pair is on both children, each from its own side (a paired difference changes sign).
    for p in board.pairs:
        mine, theirs = children[p.a].data.metrics, children[p.b].data.metrics
        a_label, b_label = p.a.replace("@", "."), p.b.replace("@", ".")
        assert mine[f"vs/{b_label}"] == pytest.approx(p.value)
        assert theirs[f"vs/{a_label}"] == pytest.approx(-p.value)
        assert theirs[f"vs_low/{a_label}"] == pytest.approx(-p.ci_high)
    # The first invocation's run stays as it was: the standings after two games each, two children.
    assert len(_children(client, client.get_run(first.mlflow_run))) == 2


def _share_board(game: str) -> Leaderboard:
    def standing(entrant, measure):
        name, _, version = entrant.partition("@")
        return Standing(entrant, name, version, 10, measure, measure - 0.2, min(1.0, measure + 0.2), measure,
                        None, None, 0, None)

    return Leaderboard(f"shares{uuid.uuid4().hex[:6]}", game, "ordinal", "win share", "share ahead",
                       (standing("x@111", 0.7), standing("y@222", 0.3)),
                       (Pairing("x@111", "y@222", 10, 0.8, 0.49, 0.94),))


def test_a_share_is_seen_from_the_other_side_as_one_minus_it():
    board = _share_board("cg-holdem")
    run_id = tracking.log_league(board, seed=1, games=10, players=2, options={}, entrants={}, planned=10,
                                 played=10, difference=False)
    client = _client()
    children = _children(client, client.get_run(run_id))
    y = children["y@222"].data.metrics
    assert y["vs/x.111"] == pytest.approx(0.2)
    assert (y["vs_low/x.111"], y["vs_high/x.111"]) == (pytest.approx(0.06), pytest.approx(0.51))
    assert "mu" not in y  # no rating: nothing logged rather than a made-up number
    assert children["y@222"].data.params["kind"] == "unknown"


def test_an_unwritable_store_keeps_the_leagues_games_and_says_why(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.touch()
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{blocker}/mlflow.db")
    db = str(tmp_path / "h.duckdb")
    spec = build(name="blocked", game="twocarddraw", programs=[("a", "bot:sample")], games=1,
                 options={"hands": 50})
    run = run_league(spec, db=db, workers=1)
    assert run.mlflow_run is None and run.mlflow_error and run.mlflow_error.startswith("FileExistsError")
    assert run.played == run.planned == 1
    board = board_from_log("blocked", db)
    assert [s.games for s in board.standings] == [1] and math.isfinite(board.standings[0].measure)
