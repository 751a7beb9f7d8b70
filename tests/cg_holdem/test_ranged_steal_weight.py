"""steal_weight (issue 32, off by default): the first-in steal's reads of the seats behind (fold to raises, fold to
postflop bets) start from priors worth this many observations instead of prior_weight, so a few folds seen early
widen the open (at aggressive/lag/style pushfold the bot folded most of its weak first-in hands in a game's first
20 hands, while the priors still held the seats' give-ups near 0.7 each)."""

from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.reads import Seen
from tests.cg_holdem.test_ranged_steal_postflop import HANDS
from tests.cg_holdem.test_ranged_steal_postflop import first_in as seen_often


def first_in(hole, *, folds: int = 2, **config):
    """Seat 0 first in at four seats (steal_postflop's spot), every seat behind seen only ``folds`` times facing a
    raise, folding each time, and never facing a postflop bet."""
    b, turn = seen_often(hole, **config)
    for s in range(1, 4):
        b.seen[s] = Seen()
        for _ in range(folds):
            b.seen[s].count("fold_pre", True)
    return b, turn


def opens(**kw) -> int:
    return sum(b.act(t).startswith(("BET", "ALL-IN")) for b, t in (first_in(h, **kw) for h in HANDS))


def test_off_by_default_and_a_few_folds_seen_widen_the_open():
    assert RangedConfig().steal_weight == 0.0
    assert opens() == opens(steal_weight=0.0)
    # two folds each: prior weight 6 reads 0.59 a seat (product of the give-ups 0.46), weight 1 reads 0.82 (0.73)
    assert opens(steal_weight=1.0) > opens() + len(HANDS) // 4


def test_the_weight_is_the_priors_and_nothing_else():
    b, _ = first_in(HANDS[0], steal_weight=1.0)
    pre = (2 + 0.45 * 1) / 3
    assert abs(b._gives_up(1, True) - (pre + (1 - pre) * 0.45)) < 1e-12
    # with nothing seen the read is the prior at any weight: the open is as it was
    assert opens(folds=0, steal_weight=1.0) == opens(folds=0)
    # steal_weight equal to prior_weight is the default's play
    assert opens(steal_weight=6.0) == opens()
