"""The luck of the cards (engine/holdem_training/luck.py): exact equities, and a correction whose mean is
zero whatever the pots, as long as a pot is settled before the cards it multiplies are turned."""

import itertools

import numpy as np
import pytest

from engine.core.hand_eval import evaluate_many
from engine.core.stats import luck_check
from engine.holdem_training.judge import HandDeals
from engine.holdem_training.luck import equities, luck

DEALS = HandDeals.of(7, 0, 20_000)
EQUITY = equities(DEALS.cards, DEALS.deal_keys)


def _share(alice, bob, boards) -> float:
    """Alice's equity by brute force with the plain evaluator."""
    a = evaluate_many(np.array([list(alice) + list(b) for b in boards]))
    b = evaluate_many(np.array([list(bob) + list(b) for b in boards]))
    return float(((a > b) + 0.5 * (a == b)).mean())


@pytest.mark.parametrize("i", [0, 1, 2])
def test_the_flop_turn_and_river_equities_are_exact(i):
    c = [int(x) for x in DEALS.cards[i]]
    alice, bob, board = c[:2], c[2:4], c[4:]
    unseen = [x for x in range(52) if x not in c[:7]]
    assert EQUITY[i, 1] == pytest.approx(_share(alice, bob, [board[:3] + list(tr) for tr in
                                                             itertools.combinations(unseen, 2)]))
    rivers = [x for x in range(52) if x not in c[:8]]
    assert EQUITY[i, 2] == pytest.approx(_share(alice, bob, [board[:4] + [r] for r in rivers]))
    assert EQUITY[i, 3] == _share(alice, bob, [board])
    assert EQUITY[i, 3] == {1: 1.0, 0: 0.5, -1: 0.0}[int(DEALS.outcome[i])]


def test_the_preflop_estimate_is_unbiased_for_the_flops_equity():
    # E[flop equity | hole cards] is the preflop equity, which the drawn boards estimate: their
    # difference averages 0 (the estimate's own noise is independent of the flop).
    d = EQUITY[:, 1] - EQUITY[:, 0]
    assert abs(d.mean()) < 4 * d.std() / np.sqrt(len(d))


def _policy_pots(peek: bool) -> np.ndarray:
    """Pots a policy could build: bigger with Alice's better cards on the board so far (allowed), or, with
    `peek`, bigger when the river will favour her (a pot that knows the cards to come: not allowed)."""
    pots = np.zeros((len(EQUITY), 4))
    pots[:, 0] = 10
    pots[:, 1] = 10 + 40 * (EQUITY[:, 0] > 0.6)
    pots[:, 2] = pots[:, 1] + 60 * (EQUITY[:, 1] > 0.7)
    pots[:, 3] = pots[:, 2] + (80 * (EQUITY[:, 3] > EQUITY[:, 2]) if peek else 50 * (EQUITY[:, 2] > 0.8))
    return pots


def test_the_correction_has_mean_zero_for_any_pots_settled_before_the_cards():
    fair = luck(EQUITY, _policy_pots(peek=False))
    assert fair.std() > 5  # it does move chips
    assert abs(fair.mean()) < 4 * fair.std() / np.sqrt(len(fair))
    peeking = luck(EQUITY, _policy_pots(peek=True))
    assert peeking.mean() > 8 * peeking.std() / np.sqrt(len(peeking))  # the check would catch a biased one


def test_luck_check_reports_the_variance_factor_and_the_corrections_mean():
    rng = np.random.default_rng(3)
    luck_part = rng.normal(0, 3, 50_000)
    raw = 0.2 + rng.normal(0, 1, 50_000) + luck_part
    got = luck_check(raw, raw - luck_part)
    assert got.factor == pytest.approx(10, rel=0.05)  # (1 + 9) / 1
    low, high = got.shift_interval
    assert low < 0 < high
    assert got.adjusted.mean == pytest.approx(0.2, abs=0.02)


def test_cards_of_the_wrong_shape_are_refused():
    with pytest.raises(ValueError, match=r"\(n, 9\)"):
        equities(np.zeros((3, 7), np.int64), np.zeros(3, np.uint64))
