"""Each seat's read prior from the logged player it plays like (``seat_prior``, issue 32): read_prior's "players" hold
each logged player's own action tables; with seat_prior on, a seat's Reads start from those tables mixed in the
shares call_prior's likelihood gives each player for that seat (its vpip / pfr / fold-to-raise counts so far), each
player's bins worth at most ``seat_prior`` shown hands, not from the pooled ones. On (5) by default; it acts only
on a read_prior that holds the players."""

import json

import pytest

from bots.cg_holdem import BOTS
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.reads import AGGRESSIVE, BINS, CALLERS, FOLD, PLAYERS, check_prior
from engine.cg_holdem.protocol import Setup
from tests.cg_holdem.test_ranged_call_prior import TIGHT, WIDE

SPEC = BOTS["ranged"]
A = 2  # the seat whose counts are set


def table(fold, aggressive):
    return [[fold] * BINS, [0.0] * BINS, [aggressive] * BINS]


# the wide player raises everything first in, the tight one folds everything; the pooled tables (their sum) are even
OWN = {"wide": {"pre_first": table(0.0, 40.0)}, "tight": {"pre_first": table(40.0, 0.0)}}
POOLED = {"pre_first": table(40.0, 40.0)}
PRIOR = json.dumps({**POOLED, CALLERS: {"wide": WIDE, "tight": TIGHT}, PLAYERS: OWN})


def started(looks=None, **config):
    """The bot at a four-seat table; ``looks``: seat A's (vpip, pfr, fold_pre) hits out of 30 each."""
    b = SPEC.make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 4, 0))
    if looks is not None:
        for stat, k in zip(("vpip", "pfr", "fold_pre"), looks, strict=True):
            b.seen[A].n[stat], b.seen[A].k[stat] = 30, k
    return b


def raises(b) -> float:
    """Seat A's share of raises among its first preflop actions in its read tables, all strengths."""
    table = b.reads[A].table("pre_first")
    return sum(table[AGGRESSIVE]) / sum(map(sum, table))


def test_off_the_pooled_prior_as_before():
    pooled = started(read_prior=json.dumps(POOLED))
    for looks in (None, (27, 24, 6), (5, 3, 26)):
        b = started(looks, read_prior=PRIOR, seat_prior=0.0)  # "players" in the prior, seat_prior off: ignored
        assert b.reads[A].counts == pooled.reads[A].counts and raises(b) == pytest.approx(0.5)
    # on, but the prior has no "players" (an older JSON): the pooled prior as before
    old = started((27, 24, 6), read_prior=json.dumps({**POOLED, CALLERS: {"wide": WIDE, "tight": TIGHT}}),
                  seat_prior=5.0)
    assert raises(old) == pytest.approx(0.5)


def test_on_by_default_and_a_no_op_without_a_prior():
    assert RangedConfig().seat_prior == 5.0
    b = started((27, 24, 6))
    assert all(not r.players and not r.counts for r in b.reads.values())


def test_a_seat_is_read_from_the_player_it_plays_like():
    on = {"read_prior": PRIOR}
    assert raises(started((27, 24, 6), **on)) > 0.99  # plays like the wide player: read as raising everything
    assert raises(started((5, 3, 26), **on)) < 0.01
    b = started(None, **on)  # nothing seen yet: both players, half each
    assert b._field_weights(A) == pytest.approx([0.5, 0.5]) and raises(b) == pytest.approx(0.5)
    t = b.reads[A].table("pre_first")  # each player's bins capped at 5, mixed half and half
    assert t[AGGRESSIVE][3] == pytest.approx(2.5) and t[FOLD][3] == pytest.approx(2.5)
    b.reads[A].add("pre_first", FOLD, 0.95)  # the game's own hands add on top, kept apart from the mixture
    assert b.reads[A].counts["pre_first"][FOLD][9] == pytest.approx(1.0)
    assert b.reads[A].table("pre_first")[FOLD][9] == pytest.approx(3.5)
    # between the two: the shares call_prior's likelihood gives (the same weights its callers use)
    b = started((15, 12, 15), **on)
    w = b._field_weights(A)
    assert 0.01 < w[0] < 0.99 and raises(b) == pytest.approx(w[0])
    assert b._field_call(A, 1, 0.0) == pytest.approx(w[0] * 45 / 50 + w[1] * 3 / 50)


def test_the_read_changes_the_fold_guess():
    # seat A plays like the tight player: it is read as folding the hands it holds first in
    folds = {}
    for name, looks in (("wide", (27, 24, 6)), ("tight", (5, 3, 26))):
        b = started(looks, read_prior=PRIOR, seat_prior=5.0)
        folds[name] = b.reads[A].chance("pre_first", FOLD, 3.0)(0.5, 0.5)
    assert folds["tight"] == pytest.approx((5 + 1.5) / 8) and folds["wide"] == pytest.approx(1.5 / 8)


def test_malformed_players_are_refused():
    assert check_prior(PRIOR) is None
    for bad in ({"wide": {"river": table(1.0, 1.0)}}, {"wide": {"pre_first": [[1.0] * BINS]}}, ["wide"],
                {"wide": {"pre_first": table(-1.0, 1.0)}}):
        why = check_prior(json.dumps({PLAYERS: bad}))
        assert why and PLAYERS in why
