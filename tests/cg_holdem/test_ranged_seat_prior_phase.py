"""seat_prior by the stacks live (``seat_prior_phase``, issue 32): read_prior's "seen_by_live" and "players_by_live"
hold each logged player's vpip / pfr / fold-to-raise counts and own action tables apart for hands begun with two live
stacks and with three or four; with the option on, a seat is weighed against each player phase by phase and read from
the current phase's tables. Off (0) by default; a prior without those keys plays as before either way."""

import json

import pytest

from bots.cg_holdem import BOTS
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.reads import BINS, CALLERS, PLAYERS, PLAYERS_BY_LIVE, SEEN_BY_LIVE, check_prior
from engine.cg_holdem.protocol import Setup, Turn
from tests.cg_holdem.test_ranged_seat_prior import raises

A = 2  # the seat whose counts are set


def seen(vpip, pfr, fold_pre, n=100) -> dict:
    return {"vpip": [n, vpip], "pfr": [n, pfr], "fold_pre": [n, fold_pre]}


def table(fold, aggressive):
    return [[fold] * BINS, [0.0] * BINS, [aggressive] * BINS]


def caller(pooled) -> dict:
    return {"calls": [[0, 0] for _ in range(5)], "seen": pooled}


# "flip" is tight at three-four live stacks and loose heads-up; "flop" the opposite. Most of their logged hands were at
# three-four, so pooled, "flip" looks tight and "flop" loose
LOOSE, TIGHT = seen(80, 60, 20), seen(20, 10, 85)
BY_LIVE = {"2": {"flip": LOOSE, "flop": TIGHT}, "3-4": {"flip": seen(20, 10, 85, 400), "flop": seen(80, 60, 20, 400)}}
POOLED = {"flip": seen(100, 70, 360, 500), "flop": seen(340, 250, 100, 500)}
OWN = {"flip": {"pre_first": table(20.0, 20.0)}, "flop": {"pre_first": table(20.0, 20.0)}}
TABLES = {"2": {"flip": {"pre_first": table(0.0, 40.0)}, "flop": {"pre_first": table(40.0, 0.0)}},
          "3-4": {"flip": {"pre_first": table(40.0, 0.0)}, "flop": {"pre_first": table(0.0, 40.0)}}}
OLD = {"pre_first": table(40.0, 40.0), CALLERS: {p: caller(s) for p, s in POOLED.items()}, PLAYERS: OWN}
NEW = {**OLD, SEEN_BY_LIVE: BY_LIVE, PLAYERS_BY_LIVE: TABLES}


def started(prior, looks=None, live=2, **config):
    """The bot at a four-seat table, hand 1 begun with ``live`` stacks; ``looks``: seat A's (vpip, pfr, fold_pre)
    hits out of 30 each, all in hands of that phase (the bot counts them into both its Seen and the phase's)."""
    b = BOTS["ranged"].make(RangedConfig(read_prior=json.dumps(prior), **config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 4, 0))
    b.cur, b.lives = 1, {1: live}
    if looks is not None:
        for stat, k in zip(("vpip", "pfr", "fold_pre"), looks, strict=True):
            for s in (b.seen[A], b.seen_by[A][int(live > 2)]):
                s.n[stat], s.k[stat] = 30, k
    return b


def test_off_by_default():
    assert RangedConfig().seat_prior_phase == 0.0


def test_loose_heads_up_counts_weigh_the_player_loose_heads_up():
    loose = (24, 18, 6)  # heads-up: vpip 0.8, pfr 0.6, fold to a raise 0.2
    off, on = started(NEW, loose), started(NEW, loose, seat_prior_phase=1.0)
    flip_off, flop_off = off._field_weights(A)
    flip_on, flop_on = on._field_weights(A)
    assert flop_off > 0.99 and flip_on > 0.99  # pooled: "flop" (loose overall); by phase: "flip" (loose heads-up)
    assert raises(on) > 0.99 and raises(off) == pytest.approx(0.5)  # on: "flip"'s heads-up table raises everything
    # the same counts at four live stacks: by phase it is "flop", read from its three-four table (raises everything)
    at4 = started(NEW, loose, live=4, seat_prior_phase=1.0)
    assert at4._field_weights(A)[1] > 0.99 and raises(at4) > 0.99
    # the table follows the current hand's phase: at four live stacks "flip"'s three-four table folds everything
    on.lives[2], on.cur = 4, 2
    assert raises(on) < 0.01


def test_a_prior_without_the_phases_plays_as_before():
    for looks in (None, (24, 18, 6), (6, 3, 25)):
        off, on = started(OLD, looks), started(OLD, looks, seat_prior_phase=1.0)
        assert on.phased is None and not on.count_phases
        assert on._field_weights(A) == off._field_weights(A) and raises(on) == raises(off)
        assert on.reads[A].table("pre_first") == off.reads[A].table("pre_first")


def test_a_player_missing_in_a_phase_is_read_from_its_pooled_counts():
    prior = {**NEW, SEEN_BY_LIVE: {"3-4": BY_LIVE["3-4"], "2": {"flip": {**LOOSE, "pfr": [0, 0]}}},
             PLAYERS_BY_LIVE: {"3-4": TABLES["3-4"]}}
    b = started(prior, seat_prior_phase=1.0)
    flip, flop = b.phased[0]
    assert flip == {**LOOSE, "pfr": POOLED["flip"]["pfr"]} and flop == POOLED["flop"]
    assert [p["pre_first"] for p in b.reads[A].players[0]] == [table(2.5, 2.5)] * 2  # the pooled, 5 a bin
    assert raises(b) == pytest.approx(0.5)  # heads-up, no phase tables: the pooled ones (even)


def test_play_counts_each_seat_by_the_stacks_live():
    b = BOTS["ranged"].make(RangedConfig(read_prior=json.dumps(NEW), seat_prior_phase=1.0, samples=8))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, 1))
    b.new_game(7)
    history: tuple = ()
    for hand in range(1, 7):
        stacks, chips = ((0, 600, 1190, 590), (0, 0, 10, 0)) if hand <= 3 else ((0, 595, 0, 1785), (0, 5, 0, 10))
        b.act(Turn(1, hand, stacks, chips, (), (0, 1), history, (), ("CALL", "FOLD")))  # seat 2 busts at hand 3
        history = ((1, hand, 1, "FOLD", ()), (1, hand, 3, "BET_20", ()))
    assert b.lives == {h: 3 if h <= 3 else 2 for h in range(1, 7)}
    two, three = b.seen_by[3]  # PHASES: two live stacks, then three or four
    assert (three.n["pfr"], three.k["pfr"], two.n["pfr"], two.k["pfr"]) == (3, 3, 2, 2)  # hand 6's raise unseen yet
    assert b.seen[3].n["pfr"] == 5
    off = BOTS["ranged"].make(RangedConfig(read_prior=json.dumps(NEW), samples=8))
    off.start(Setup(5, 10, 10, 2, 1200, 1, 4, 1))
    off.act(Turn(1, 1, (0, 600, 1195, 590), (0, 0, 5, 10), (), (0, 1), (), (), ("CALL", "FOLD")))
    assert off.phased is None and off.lives == {}


def test_the_new_keys_are_checked():
    assert check_prior(json.dumps(NEW)) is None
    assert check_prior(json.dumps({**NEW, SEEN_BY_LIVE: {"5": BY_LIVE["2"]}})) is not None  # no such phase
    assert check_prior(json.dumps({**NEW, SEEN_BY_LIVE: {"2": {"flip": {"vpip": [1, 1]}}}})) is not None
    assert check_prior(json.dumps({**NEW, PLAYERS_BY_LIVE: {"2": {"flip": {"river": table(1, 1)}}}})) is not None
