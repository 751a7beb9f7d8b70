"""The loop README walks through for CodinGame Hold'em, on a fresh workspace, with programs of the user's
own: play the field in a league, fit a model of the rival from those games, sweep the user's setting
against the model until decided, pick the choice, and confirm it against the real rival program."""

import json

import pytest

from tests.cli.test_journey import cardlab


def last_json(done) -> dict:
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # programs in a league, a decided sweep and a second league: a few minutes
def test_fit_the_field_choose_against_it_and_confirm_on_the_real_program(env, tmp_path):
    cardlab(env, tmp_path, "new", "cg-holdem", "--dir", "mine")
    rival = "python3 mine/bot.py 2"  # the user's stand-in for a rival's program: plays every hand

    # 1. the field: games between the user's bot and the rival, kept in the hand log
    field = last_json(cardlab(env, tmp_path, "league", "cg-holdem", "--name", "field", "--program",
                              "mine=python3 mine/bot.py", "--program", f"rival={rival}", "--games", "24",
                              "--seed", "3", "--turn-ms", "500", "--json"))
    assert {e["name"] for e in field["leaderboard"]} == {"mine", "rival"}

    # 2. a model of the rival from those games, scored on games it was not fitted on
    model = last_json(cardlab(env, tmp_path, "fit", "cg-holdem", "--player", "rival", "--league", "field", "--json"))
    assert model["decisions"] > 0 and model["heldout_decisions"] > 0
    assert model["heldout_logloss"] < model["uniform_logloss"]  # it learned something of the rival's play
    seat = f"model:{model['model']}"

    # 3. the user's setting swept against the model (not the rival's program) until decided
    swept = last_json(cardlab(env, tmp_path, "sweep", "cg-holdem", "--program", "python3 mine/bot.py {low}",
                              "--grid", "low=T,6", "--opt", "players=2", "--opt", f"opponents={seat}",
                              "--hands", "96", "--seed", "5", "--until-decided", "--json", "--turn-ms", "500"))
    assert swept["decision"] in ("switch", "keep", "undecided")
    assert swept["best"]["low"] in ("T", "6")
    conf = swept["confirmed"]
    assert conf["low"] < conf["mean"] < conf["high"]  # an interval, never zero-width
    # confirmation deals are not the selection deals
    assert swept["deals"]["confirmation"]["seed"] != swept["deals"]["selection"]["seed"]
    options = cardlab(env, tmp_path, "sql", "--format", "json",
                      f"SELECT DISTINCT options FROM matches WHERE sweep_id = '{swept['sweep_id']}'").stdout
    assert model["model"] in options  # every config met the model, as the hand log records

    # 4. pick the choice and export it, then 5. confirm against the real rival program
    cardlab(env, tmp_path, "pick", "cg-holdem", "--sweep", swept["sweep_id"], "--out", str(tmp_path / "chosen"))
    run = tmp_path / "chosen" / "run"
    assert run.is_file() and f"bot.py {swept['best']['low']}" in run.read_text()
    confirm = last_json(cardlab(env, tmp_path, "league", "cg-holdem", "--name", "confirm", "--program",
                                f"chosen={run}", "--program", f"rival={rival}", "--games", "12", "--seed", "7",
                                "--turn-ms", "500", "--json"))
    assert {e["name"] for e in confirm["leaderboard"]} == {"chosen", "rival"}
    assert all(e["games"] >= 12 for e in confirm["leaderboard"])
