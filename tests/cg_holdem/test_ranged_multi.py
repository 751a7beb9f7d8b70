"""The ranged bot while 3-4 stacks are live (issue 32): the finish is paid by place, so the heads-up
rules (call_realize, implied odds, the re-raise bluff) have their own knobs there, calls can need more
equity (live_margin), a call of ``icm_share`` of the stack or of a re-raise of my raise (icm_reraised)
is weighed by ICM. At a heads-up table they change nothing."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem.protocol import Setup, Turn
from engine.core.cards import card


def four_seat_bb(hole: tuple[int, int], raise_to: int = 50, **config):
    """The big blind (seat 3) at four live stacks facing seat 1's open after seat 0 and the small blind folded."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 4, 3))
    b.new_game(5)
    actions = ((1, 1, 0, "FOLD", ()), (1, 1, 1, f"BET_{raise_to}", ()), (1, 1, 2, "FOLD", ()))
    turn = Turn(2, 1, (2400, 2400 - raise_to, 2395, 2390), (0, raise_to, 5, 10), (), hole, actions, (),
                ("CALL", "ALL-IN", f"BET_{2 * raise_to}", "FOLD"))
    return b, turn


def heads_up_bb(hole: tuple[int, int], **config) -> str:
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 2, 1))
    b.new_game(5)
    turn = Turn(2, 1, (2350, 2390), (50, 10), (), hole, ((1, 1, 0, "BET_45", ()),), (),
                ("CALL", "ALL-IN", "BET_80", "FOLD"))
    return b.act(turn)


HANDS = COMBOS[::37]
# the knobs set to play a hand left heads-up at 3-4 live stacks by the heads-up rules (the default before 3-4
# live stacks had their own)
AS_HEADS_UP = dict(live_realize=1.0, live_implied=0.04, live_bluff=1.0, live_margin=0.0, icm_reraised=0.0)


def test_a_call_that_keeps_less_at_four_live_stacks_is_made_with_fewer_hands():
    def calls(**config) -> int:
        return sum(b.act(t) == "CALL" for b, t in (four_seat_bb(h, fold_equity=0.0, **config) for h in HANDS))

    assert calls(**{**AS_HEADS_UP, "live_realize": 0.7, "live_implied": 0.0}) < calls(**AS_HEADS_UP)
    assert calls(**{**AS_HEADS_UP, "live_margin": 0.1}) < calls(**AS_HEADS_UP)
    assert calls() < calls(**AS_HEADS_UP)  # the default calls tighter there than heads-up rules


def test_the_live_knobs_leave_a_heads_up_table_as_it_was():
    tight = dict(live_realize=0.5, live_implied=0.0, live_bluff=0.0, icm_share=0.1, live_margin=0.2, icm_reraised=1)
    as_heads_up = [heads_up_bb(h, **AS_HEADS_UP) for h in HANDS]
    assert [heads_up_bb(h, **tight) for h in HANDS] == as_heads_up
    assert [heads_up_bb(h) for h in HANDS] == as_heads_up


def test_a_call_of_a_large_share_of_the_stack_is_weighed_by_icm_at_four_live_stacks():
    weighed = []
    for share in (0.6, 0.3):
        b, turn = four_seat_bb(COMBOS[500], raise_to=1000, icm_share=share)  # a call of 990 of 2400
        b._call_allin_with = lambda view, eq, seen=weighed, share=share: seen.append(share) or False
        answer = b.act(turn)
        if share == 0.3:
            assert answer == "FOLD"  # the ICM check (here a spy saying no) decides alone
    assert weighed == [0.3]


def test_a_call_of_a_re_raise_of_my_raise_is_weighed_by_icm_when_asked():
    weighed = []
    for on in (0.0, 1.0):
        b = BOTS["ranged"].make(RangedConfig(icm_reraised=on))
        b.start(Setup(5, 10, 10, 2, 2400, 1, 4, 1))
        b.new_game(5)
        actions = ((1, 1, 0, "FOLD", ()), (1, 1, 1, "BET_50", ()), (1, 1, 2, "FOLD", ()), (1, 1, 3, "BET_150", ()))
        turn = Turn(2, 1, (2400, 2350, 2395, 2240), (0, 50, 5, 160), (), (card(0, 5), card(1, 0)), actions, (),
                    ("CALL", "ALL-IN", "BET_330", "FOLD"))  # seven-deuce facing a re-raise of its open
        b._call_allin_with = lambda view, eq, seen=weighed, on=on: seen.append(on) or True
        answer = b.act(turn)
        if on:
            assert answer == "CALL"  # the ICM check (a spy saying yes) decides, even with seven-deuce
    assert weighed == [1.0]
