"""The ranged bot's callers from the logged field (``call_prior``, issue 32): read_prior's "callers" hold each logged
player's answers to lone first-in all-ins by depth band and its vpip / pfr / fold-to-raise counts; the share of hands
a seat calls my push with is those players' calling shares weighted by how likely the seat's own counts so far are
under each, worth ``call_prior`` spots against its answers in the game. Off (0) by default."""

import json
import math

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.reads import CALL_BANDS, CALLERS, Reads, check_prior
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn

HANDS = COMBOS[::37]
ME, A, B = 1, 2, 3  # seat 0 is out


def played(answer: str, *, spots: int = 8, depth: int = 70, mine: int = 70, **config):
    """The bot (seat 1, 300 chips, blinds 5/10) after ``spots`` hands in which it folded first, then seats 2 and 3
    took turns to go all in first in with ``depth`` chips and the other answered ``answer``; then hand ``spots`` + 1
    (at most 9: the blind doubles at hand 10), where it is first in with ``mine`` chips, seats 2 and 3 behind."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 1200, 1, 4, ME))
    b.new_game(7)
    history: tuple = ()
    for hand in range(1, spots + 1):
        b.act(Turn(1, hand, (0, 300, depth - 5, 1590), (0, 0, 5, 10), (), COMBOS[hand], history, (),
                   ("CALL", "FOLD")))
        pusher, caller = (A, B) if hand % 2 else (B, A)
        history = ((2, hand, ME, "FOLD", ()), (2, hand, pusher, "ALL-IN", ()), (2, hand, caller, answer, ()))
    last = Turn(2, spots + 1, (0, mine, 1595, 1590), (0, 0, 5, 10), (), COMBOS[0], history, (),
                ("CALL", "ALL-IN", "BET_20", "FOLD"))
    return b, last


def pushed(answer: str, **kw) -> list:
    """The hands of HANDS the bot pushes first in."""
    out = []
    for hole in HANDS:
        b, last = played(answer, **kw)
        if b.act(last._replace(cards=hole)) == "ALL-IN":
            out.append(hole)
    return out


def caller(vpip, pfr, fold_pre, faced, called) -> dict:
    calls = [[0, 0] for _ in range(len(CALL_BANDS) + 1)]
    calls[1] = [faced, called]  # 5-8 bb, the band of played()'s pushes and of the push asked about
    return {"calls": calls, "seen": {"vpip": [100, vpip], "pfr": [100, pfr], "fold_pre": [100, fold_pre]}}


WIDE, TIGHT = caller(90, 80, 20, 49, 45), caller(15, 10, 85, 49, 3)
PRIOR = json.dumps({"pre_first": [[1.0] * 10, [0.0] * 10, [2.0] * 10], CALLERS: {"wide": WIDE, "tight": TIGHT}})


def share(answer="FOLD", looks=None, **config) -> float:
    """Seat A's calling share of my push at 7 bb after played(answer); ``looks``: (vpip, pfr, fold_pre) counts of
    30 hands each put in its Seen (what the game showed of it)."""
    b, last = played(answer, **config)
    b.act(last)
    if looks is not None:
        for stat, k in zip(("vpip", "pfr", "fold_pre"), looks, strict=True):
            b.seen[A].n[stat], b.seen[A].k[stat] = 30, k
    return b._chart_call(View(b.setup, last, b.folded), A)


def test_off_by_default_the_callers_change_nothing():
    assert RangedConfig().call_prior == 0.0
    for looks in (None, (27, 24, 6), (5, 3, 26)):
        assert share(looks=looks, read_prior=PRIOR) == share(looks=looks)
    b, _ = played("FOLD", read_prior=PRIOR)
    assert b.callers is None and b.calls == {}  # nothing counted either
    # the action tables ignore the callers: the same Reads as the prior without them
    bare = json.loads(PRIOR)
    del bare[CALLERS]
    assert Reads(json.loads(PRIOR), 5).counts == Reads(bare, 5).counts
    # on without callers in the prior: the chart's share, as before
    assert share(looks=(5, 3, 26), call_prior=3) == share(looks=(5, 3, 26))


def loglik(player: dict, counts: dict) -> float:
    """The binomial log-likelihood of a seat's (n, k) counts under a player's logged rates (half a count shrunk)."""
    total = 0.0
    for stat, (n, k) in counts.items():
        big_n, big_k = player["seen"][stat]
        r = (big_k + 0.5) / (big_n + 1)
        total += k * math.log(r) + (n - k) * math.log(1 - r)
    return total


def test_the_seat_is_read_as_the_player_it_plays_like():
    on = {"read_prior": PRIOR, "call_prior": 4.0}
    for looks, (faced, called) in (((5, 3, 26), TIGHT["calls"][1]), ((27, 24, 6), WIDE["calls"][1])):
        player = (called + share(looks=looks)) / (faced + 1)  # its band, the chart's share as one spot
        # seats 2 and 3 each faced 4 lone pushes at 7 bb in the game and folded them: (0 + 4 x field) / (4 + 4)
        assert abs(share(looks=looks, **on) - 4 * player / 8) < 1e-6
    # a seat that plays between the two gets a mixture, weighted by the binomial likelihoods
    b, last = played("CALL", **on)
    b.act(last)
    counts = {"vpip": (30, 15), "pfr": (30, 12), "fold_pre": (30, 15)}
    for stat, (n, k) in counts.items():
        b.seen[B].n[stat], b.seen[B].k[stat] = n, k
    w = [math.exp(loglik(WIDE, counts)), math.exp(loglik(TIGHT, counts))]
    field = b._field_call(B, 1, 0.0)
    assert abs(field - (w[0] * 45 / 50 + w[1] * 3 / 50) / sum(w)) < 1e-9 and 3 / 50 < field < 45 / 50


def test_pushes_widen_behind_seats_read_as_tight_callers():
    tight_only = json.dumps({CALLERS: {"tight": TIGHT}})
    default, read = pushed("FOLD"), pushed("FOLD", read_prior=tight_only, call_prior=4.0)
    assert set(default) < set(read)


def test_malformed_callers_are_refused():
    assert check_prior(PRIOR) is None
    for bad in ({"wide": {"calls": WIDE["calls"][:2], "seen": WIDE["seen"]}},
                {"wide": {"calls": WIDE["calls"], "seen": {"vpip": [1, 1]}}},
                {"wide": {"calls": [[1, -1]] * (len(CALL_BANDS) + 1), "seen": WIDE["seen"]}},
                ["wide"]):
        why = check_prior(json.dumps({CALLERS: bad}))
        assert why and CALLERS in why
