"""Every config field of every registered bot and game option declares what it accepts, and a
config refuses anything else however it is made (issue 13, item 8)."""

import dataclasses
import math

import pytest

from bots.base import Accepts, ConfigError, Ranged, accepts_of, build_config, ranged, undeclared_fields
from flows import games


def config_types():
    """(label, type) of every bot config and game options type of the built-in games."""
    for name in sorted(games.installed()):
        adapter = games.get(name)
        for bot, spec in sorted(adapter.bots.items()):
            yield f"{name}/{bot}", spec.config_type
        if adapter.options_type is not None:
            yield f"{name}/options", adapter.options_type


TYPES = dict(config_types())


@pytest.mark.parametrize("label", sorted(TYPES))
def test_every_field_declares_its_range_and_the_defaults_are_inside(label):
    config_type = TYPES[label]
    assert undeclared_fields(config_type) == [], f"{label}: declare ranges (bots.base.ranged/one_of/validated)"
    defaults = config_type()
    for name, accepts in accepts_of(config_type).items():
        if accepts is not None:
            assert accepts.refusal(getattr(defaults, name)) is None, (label, name)


@pytest.mark.parametrize("label", sorted(TYPES))
def test_nan_and_infinities_are_refused_for_every_number(label):
    """Every int/float field, through the same path as --set/--grid/--opt."""
    config_type = TYPES[label]
    kinds = {f.name: f.type for f in dataclasses.fields(config_type)}
    numeric = [n for n, a in accepts_of(config_type).items() if a is not None and a.lo is not None]
    assert numeric or not any(k in (int, float, "int", "float") for k in kinds.values())
    for name in numeric:
        for text in ("nan", "inf", "-inf", "1e300"):
            with pytest.raises(ConfigError, match=rf"{name}="):
                build_config(config_type, {name: text}, owner=label)


def test_the_undeclared_field_walk_can_fail():
    @dataclasses.dataclass(frozen=True)
    class Loose:
        rollouts: int = 3
        name: str = "x"
        weight: float = ranged(1.0, 0.0, math.inf)  # unbounded: not a declaration
        quick: bool = True

    assert undeclared_fields(Loose) == ["rollouts", "name", "weight"]


def test_direct_construction_is_checked_too():
    """A config made in code (a bundle's config.json, a test, a worker) meets the same ranges."""
    from bots.cg_holdem.strategies import EquityConfig
    from bots.holdem_training.exploit import ExploitConfig
    from bots.holdem_training.simple import RateEquityConfig

    with pytest.raises(ConfigError, match=r"threshold=nan is outside the accepted range \[0, 1\]"):
        RateEquityConfig(threshold=float("nan"))
    with pytest.raises(ConfigError, match=r"future_flop=nan"):
        ExploitConfig(future_flop=math.nan)
    with pytest.raises(ConfigError, match=r"raise_pcts=''"):
        ExploitConfig(raise_pcts=())
    with pytest.raises(ConfigError, match=r"bet_fraction=-5 is outside the accepted range \(0, 10\]"):
        EquityConfig(bet_fraction=-5)
    with pytest.raises(ConfigError, match="is not a number"):
        RateEquityConfig(threshold="0.5")
    assert RateEquityConfig(threshold=1.0).threshold == 1.0  # the ends of a closed range are inside


def test_open_ends_and_choices_and_validators():
    @dataclasses.dataclass(frozen=True)
    class Knobs(Ranged):
        share: float = ranged(0.5, 0.0, 1.0, lo_open=True)

    assert Knobs(share=1.0).share == 1.0
    with pytest.raises(ConfigError, match=r"share=0.0 is outside the accepted range \(0, 1\]"):
        Knobs(share=0.0)
    picks = Accepts(choices=("a", "b"))
    assert picks.refusal("a") is None and "one of 'a', 'b'" in picks.refusal("c")
    check = Accepts(check=lambda v: None if v.startswith("x") else "no x", text="text starting with x")
    assert check.refusal("xy") is None and check.refusal("y") == "is refused (no x); accepted: text starting with x"


def test_engine_options_get_their_ranges_from_the_game_module():
    """Engine code cannot import bots.base; flows/games declares the ranges of its options."""
    from engine.twocarddraw.judge import MatchOptions

    games.get("twocarddraw")
    with pytest.raises(ConfigError, match=r"steps=-1 is outside the accepted range \[0, 2,000,000\]"):
        build_config(MatchOptions, {"steps": "-1"}, owner="twocarddraw options")
