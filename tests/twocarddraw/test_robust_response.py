"""The robust response (issue 31): the mixture's best response or the game's safe strategy.

Exact: the expected profit of the table the bot plays at each hand against the true server."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.robust import load_equilibrium, sample_policy
from engine.core import seeds
from engine.twocarddraw import best_response as B
from engine.twocarddraw import equilibrium as E
from engine.twocarddraw import exact as X
from engine.twocarddraw import rules as R

SMALL = {"buckets": "2", "bucket_count": "3", "eq_iterations": "200"}  # small banks and a quick solve
BETS = R.BetSizes(1, 2)


@pytest.fixture(scope="module")
def near_equilibrium():
    return B.generate(BETS, steps=400_000, seed=31).strategy


def test_pure_tables_drawn_from_the_safe_strategy_play_it():
    safe = load_equilibrium(BETS, iterations=200)
    rng = seeds.generator(seeds.unit_key(seeds.match_key(3), 0, seeds.Purpose.BOT))
    draws = np.stack([sample_policy(safe.player, rng.random(R.N_PLAYER_ROWS)) for _ in range(2_000)])
    counts = np.stack([(draws == a).mean(axis=0) for a in range(3)], axis=1)
    assert np.abs(counts - safe.player).max() < 0.05  # 2,000 draws: 4.5 standard errors at worst
    assert not ((counts > 0) & (safe.player == 0)).any()
    assert safe.lower <= safe.upper and safe.upper - safe.lower < 0.02


def test_with_no_trust_in_data_it_earns_the_safe_strategys_value(near_equilibrium):
    spec = BOTS["robust"]
    safe = load_equilibrium(BETS, iterations=200)
    target = E.value(BETS, safe.player, near_equilibrium.probs)
    run = X.exact_run(spec.make(spec.config_from({**SMALL, "safe_hands": "1e9"})), near_equilibrium, seed=2,
                      hands=1_500)
    # each hand's value is that of one pure draw from the safe strategy: their mean is the safe value
    se = run.values.std(ddof=1) / np.sqrt(len(run.values))
    assert abs(run.expected_per_hand - target) < 4 * se + 1e-9, (run.expected_per_hand, target, se)
    assert target >= safe.lower - 1e-9  # no server does worse than the guaranteed value


@pytest.mark.slow  # two learners over 3,000 exact hands each: a strength check at size
def test_it_moves_to_the_best_response_with_data_and_ends_no_lower_than_the_mixture(near_equilibrium):
    spec = BOTS["robust"]
    bot = spec.make(spec.config_from({**SMALL, "safe_hands": "100"}))
    run = X.exact_run(bot, near_equilibrium, seed=3, hands=3_000)
    assert bot.exploit_weight() == pytest.approx(3_000 / 3_100, rel=1e-3)
    mixture = BOTS["mixture"]
    plain = X.exact_run(mixture.make(mixture.config_from({k: v for k, v in SMALL.items() if k != "eq_iterations"})),
                        near_equilibrium, seed=3, hands=3_000)
    last, plain_last = run.values[-1_000:].mean(), plain.values[-1_000:].mean()
    assert last >= plain_last - 0.02, (last, plain_last)  # 0.02 per hand: one seed, policies differ hand to hand
