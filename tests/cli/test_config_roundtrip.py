"""A config picked from MLflow must come back through `--set` unchanged, for every bot (the settings
`cardlab pick --out` and the exports write)."""

import dataclasses
import json

import pytest

from cardlab.options import settings_of
from flows import games

BOTS = [(game, bot) for game in games.installed() for bot in sorted(games.get(game).bots)]


@pytest.mark.parametrize("game, bot", BOTS, ids=[f"{g}:{b}" for g, b in BOTS])
def test_default_config_survives_json_and_set_round_trip(game, bot):
    spec = games.get(game).spec(bot)
    config = spec.default_config()
    stored = json.loads(json.dumps(dataclasses.asdict(config)))  # as MLflow's config.json keeps it
    assert spec.config_from(settings_of(stored)) == config
