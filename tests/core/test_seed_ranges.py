"""Default seeds per purpose lie in disjoint ranges (engine/core/seeds.py), and each command's default is in
its own: a judge run or a league after a sweep, all on defaults, never replays the sweep's deals."""

import inspect
import itertools

import pytest

from engine.core import seeds
from engine.core.seeds import CONFIRM_SEEDS, JUDGE_SEEDS, LEAGUE_SEEDS, SEED_RANGES, SWEEP_SEEDS
from flows.decide import confirmation_seed


def test_the_ranges_are_disjoint_and_each_default_is_in_its_own():
    for a, b in itertools.combinations(SEED_RANGES, 2):
        assert a.high <= b.low or b.high <= a.low, (a, b)
    for r in SEED_RANGES:
        assert r.default in r and seeds.purpose_of(r.default) == r.purpose
    assert seeds.purpose_of(3_500_000) == "other"


@pytest.mark.parametrize("seed", [0, 1, 2, 999_999, 1_000_001, 2_000_001, 2**40, 2**63 - 1])
def test_a_confirmation_seed_is_in_the_confirmation_range(seed):
    assert confirmation_seed(seed) in CONFIRM_SEEDS and confirmation_seed(seed) != seed


def _default(command, name: str = "seed") -> int:
    return inspect.signature(command).parameters[name].default.default


def test_the_commands_take_their_defaults_from_their_ranges():
    from cardlab import cli
    from cardlab.commands import holdem_training, league, splendor, tractor, twocarddraw
    from cardlab.commands.generic import judge_command
    from flows import games

    for judge in (holdem_training.judge, splendor.judge, twocarddraw.judge, tractor.judge,
                  judge_command(games.get("holdem-training"))):
        assert _default(judge) == JUDGE_SEEDS.default
    assert _default(league.league) == LEAGUE_SEEDS.default
    assert _default(cli.sweep) == _default(cli.match) == SWEEP_SEEDS.default
