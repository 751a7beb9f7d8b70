"""`cardlab fit` as scripts call it: one JSON object on the last line; a game without a fitter in one line."""

import json

import pytest

from tests.cli.test_cli import cardlab as run_cli


def cardlab(monkeypatch, *args) -> tuple[int, str, str]:
    return run_cli(None, monkeypatch, *args)  # the CLI tests' own runner (its capsys is unused)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("CARDLAB_HOME", str(tmp_path))
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "handlog.duckdb"))
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")
    monkeypatch.setenv("CARDLAB_ARTIFACT_ROOT", str(tmp_path / "artifacts"))
    return tmp_path


@pytest.mark.slow  # a new MLflow store and a match: about 40 s on the shared machine
def test_fit_prints_the_model_and_its_held_out_scores_as_json(home, monkeypatch):
    code, _, err = cardlab(monkeypatch, "match", "cg-holdem", "--bot", "station", "--opt", "players=2",
                           "--opt", "opponents=pushfold", "--hands", "10", "--seed", "4")
    assert code == 0, err
    code, out, err = cardlab(monkeypatch, "fit", "cg-holdem", "--player", "pushfold", "--json")
    assert code == 0, err
    found = json.loads(out.strip().splitlines()[-1])
    assert found["decisions"] > 0 and found["model"].startswith("cg-holdem-pushfold-")
    assert found["heldout_logloss"] < found["uniform_logloss"]
    assert {"baseline_logloss", "heldout_decisions", "mlflow_run"} <= set(found)
    assert (home / "opponent_models" / f"{found['model']}.json").is_file()


def test_fit_of_a_game_without_a_fitter_is_one_line(home, monkeypatch):
    code, out, err = cardlab(monkeypatch, "fit", "tractor", "--player", "rule")
    assert code == 2 and out == ""
    assert err.strip() == err.strip().splitlines()[0]
    assert "tractor has no opponent model; accepted:" in err and "cg-holdem" in err


def test_fit_of_an_unknown_player_names_the_seats_there_are(home, monkeypatch):
    code, _, err = cardlab(monkeypatch, "match", "cg-holdem", "--bot", "station", "--opt", "players=2",
                           "--opt", "opponents=pushfold", "--hands", "2")
    assert code == 0, err
    code, _, err = cardlab(monkeypatch, "fit", "cg-holdem", "--player", "nobody")
    assert code == 2 and "no cg-holdem decisions of 'nobody'" in err and "pushfold" in err
