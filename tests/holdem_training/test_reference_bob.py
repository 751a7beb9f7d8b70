"""Bob at exact break-even, as the reference interactor decides it: in doubles.

The statement has Bob call iff his 100-rollout mean profit of calling beats folding. The
reference interactor evaluates that as -w*x + d*P/2 + (1-w-d)*(P+x) > 0 with w, d Alice's win
and tie rates (counts / rollouts, doubles), left to right. Where the exact value is 0, rounding
leaves some cases slightly positive, and Bob calls. The expression below is evaluated by
numpy, independently of the numba kernel the judge uses, over every case of 100 rollouts x
even pot 10..410 x raise 1..100.
"""

import numpy as np

from engine.holdem_training import _kernels
from tests.holdem_training import reference

ROLLOUTS = 100
POTS = np.arange(10, 411, 2)
RAISES = np.arange(1, 101)


def _counts():
    """Every (Bob's wins, ties) of 100 rollouts, as flat arrays."""
    bob, ties = np.meshgrid(np.arange(ROLLOUTS + 1), np.arange(ROLLOUTS + 1), indexing="ij")
    keep = bob + ties <= ROLLOUTS
    return bob[keep], ties[keep]


def _reference_calls(bob, ties, pot, x):
    """The reference's expression in IEEE doubles, in its order of operations."""
    w = (ROLLOUTS - bob - ties) / ROLLOUTS
    d = ties / ROLLOUTS
    return -w * x + d * pot / 2 + (1.0 - w - d) * (pot + x) > 0.0


def _exact_gain(bob, ties, pot, x):
    """2 * rollouts * (EV(call) - EV(fold)) in integers."""
    alice = ROLLOUTS - bob - ties
    return 2 * bob * (pot + x) + ties * pot - 2 * alice * x


def test_break_even_cases_and_the_reference_calls_in_6695():
    bob, ties = _counts()
    even = called = 0
    flips_elsewhere = 0
    breakeven = []
    for pot in POTS:
        for x in RAISES:
            gain = _exact_gain(bob, ties, pot, x)
            calls = _reference_calls(bob, ties, pot, x)
            zero = gain == 0
            even += int(zero.sum())
            called += int((calls & zero).sum())
            flips_elsewhere += int((calls != (gain > 0))[~zero].sum())
            breakeven.extend((int(b), int(t), int(pot), int(x), bool(c))
                             for b, t, c in zip(bob[zero], ties[zero], calls[zero], strict=True))
    assert even == 15_972
    assert called == 6_695
    assert flips_elsewhere == 0  # rounding matters only where the exact value is 0
    # the judge's kernel decides every break-even case as the reference does
    for b, t, pot, x, calls in breakeven:
        assert _kernels.call_decision(b, t, ROLLOUTS, pot, x) == calls, (b, t, pot, x)
        assert reference.bob_calls_rule(b, t, ROLLOUTS, pot, x) == calls


def test_kernel_matches_reference_off_break_even_on_a_sample():
    rng = np.random.default_rng(19)
    bob, ties = _counts()
    for _ in range(3000):
        k = int(rng.integers(len(bob)))
        pot, x = int(rng.choice(POTS)), int(rng.choice(RAISES))
        b, t = int(bob[k]), int(ties[k])
        want = bool(_reference_calls(np.array([b]), np.array([t]), pot, x)[0])
        assert _kernels.call_decision(b, t, ROLLOUTS, pot, x) == want
        if _exact_gain(b, t, pot, x) != 0:
            assert want == (_exact_gain(b, t, pot, x) > 0)


def test_known_break_even_answers():
    """Hand-checked: Bob wins 30 of 100 (Alice 70), pot 20, raise 15 is exactly even
    (-0.7*15 + 0.3*35 = 0) but evaluates to +1.8e-15 in doubles: he calls. 20 of 100 at pot
    30, raise 10 evaluates to -1.8e-15 and 40 of 100 at pot 10, raise 20 to 0.0: he folds."""
    assert _kernels.call_decision(30, 0, ROLLOUTS, 20, 15)
    assert not _kernels.call_decision(20, 0, ROLLOUTS, 30, 10)
    assert not _kernels.call_decision(40, 0, ROLLOUTS, 10, 20)
