"""The game registry's plug-in variable: extra games load, and a malformed item is refused."""

import pytest

from engine.core.errors import BadValue
from flows import games


def test_extra_games_are_listed_by_name(monkeypatch):
    monkeypatch.setenv("CARDLAB_EXTRA_GAMES", " toy = tests.flows.toy_game , ")
    assert "toy" in games.names()


@pytest.mark.parametrize("value", ["toy", "=tests.flows.toy_game", "toy=tests.flows.toy_game,oops"])
def test_a_malformed_extra_game_is_refused_in_one_line_not_skipped(monkeypatch, value):
    monkeypatch.setenv("CARDLAB_EXTRA_GAMES", value)
    with pytest.raises(BadValue, match=r"CARDLAB_EXTRA_GAMES .*not key=value; accepted: name=package\.module"):
        games.names()
