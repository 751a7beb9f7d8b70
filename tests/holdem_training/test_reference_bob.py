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


def test_exploit_bot_models_the_break_even_calls():
    """The exploit bot's P(call) adds the break-even counts Bob's double rule calls: against an
    exact enumeration of his 100 rollouts (Alice wins w.p. 0.7, no ties; pot 20, raise 15, where
    70 Alice wins is exactly even and called)."""
    from math import comb

    from bots.holdem_training import _kernels as K

    pairs = K.breakeven_calls(20, 15, ROLLOUTS)
    for b, t, pot, x in ((30, 0, 20, 15), (20, 0, 30, 10), (40, 0, 10, 20)):
        alice = ROLLOUTS - b - t
        in_pairs = any(int(p[0]) == alice and int(p[1]) == t for p in K.breakeven_calls(pot, x, ROLLOUTS))
        assert in_pairs == _kernels.call_decision(b, t, ROLLOUTS, pot, x)
    assert len(pairs) > 0
    exact = sum(comb(ROLLOUTS, a) * 0.7**a * 0.3 ** (ROLLOUTS - a)
                for a in range(ROLLOUTS + 1) if _kernels.call_decision(ROLLOUTS - a, 0, ROLLOUTS, 20, 15))
    cdf = K.score_cdf(100, ROLLOUTS)
    model = K.call_probs(cdf, np.full(1326, 0.7), np.zeros(1326), np.array([0]), 20, 15, ROLLOUTS)[0]
    without = float(cdf[K.call_threshold(20, 15, ROLLOUTS), 70, 0])
    assert abs(model - exact) < 1e-5 and model - without > 0.05  # P(70 of 100) = 0.087


def test_bot_and_judge_agree_on_every_break_even_case():
    from bots.holdem_training import _kernels as K

    for pot in range(10, 411, 2):
        for x in range(1, 101):
            pairs = {(int(a), int(t)) for a, t in K.breakeven_calls(pot, x, ROLLOUTS)}
            num, den = 2 * ROLLOUTS * (pot + x), pot + 2 * x
            if num % den:
                assert not pairs
                continue
            s0 = num // den
            for alice in range(ROLLOUTS + 1):
                t = s0 - 2 * alice
                if 0 <= t and alice + t <= ROLLOUTS:
                    assert ((alice, t) in pairs) == _kernels.call_decision(ROLLOUTS - alice - t, t, ROLLOUTS, pot, x)


def test_the_planners_break_even_rules_are_the_judges_for_every_pot_and_raise():
    """The exploit bot's planning kernels look Bob's break-even rule up per (pot, raise): every
    pot and raise of the contest maps to exactly the counts the judge's doubles rule calls."""
    from bots.holdem_training import _kernels as K

    index, pairs, n_pairs, _ = K.breakeven_sets(210, 100, ROLLOUTS)
    assert len(n_pairs) == len({tuple(map(tuple, pairs[s, :n_pairs[s]].tolist())) for s in range(len(n_pairs))})
    for pot in range(10, 211, 2):
        for x in range(1, 101):
            s = index[pot, x]
            got = set() if s < 0 else {(int(a), int(t)) for a, t in pairs[s, :n_pairs[s]]}
            num, den = 2 * ROLLOUTS * (pot + x), pot + 2 * x
            want = set()
            if num % den == 0:
                s0 = num // den
                want = {(a, s0 - 2 * a) for a in range(ROLLOUTS + 1) if 0 <= s0 - 2 * a <= ROLLOUTS - a
                        and _kernels.call_decision(ROLLOUTS - a - (s0 - 2 * a), s0 - 2 * a, ROLLOUTS, pot, x)}
            assert got == want, (pot, x)
