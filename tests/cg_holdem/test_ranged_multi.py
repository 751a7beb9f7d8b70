"""The ranged bot while 3-4 stacks are live (issue 32): the finish is paid by place, so the heads-up
rules (call_realize, implied odds, the re-raise bluff) have their own knobs there, calls can need more
equity (live_margin), a call of ``icm_share`` of the stack or of a re-raise of my raise (icm_reraised)
is weighed by ICM. At a heads-up table they change nothing."""

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import CLASS_PCT, COMBOS, combo_class
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


def four_seat_flop(opener_pfr_hits: int, **config):
    """The big blind (seat 3) at four live stacks, having called seat 1's open to 30, facing seat 1's flop bet of 40;
    seat 1 was seen raising first in ``opener_pfr_hits`` of 20 earlier hands."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 4, 3))
    b.new_game(5)
    for k in range(20):
        b.seen[1].count("pfr", k < opener_pfr_hits)
    flop = (card(0, 12), card(1, 7), card(2, 2))  # ace, nine, four of three suits
    actions = ((1, 1, 0, "FOLD", ()), (1, 1, 1, "BET_30", ()), (1, 1, 2, "FOLD", ()), (1, 1, 3, "CALL", ()),
               (2, 1, 1, "BET_40", flop))
    turn = Turn(3, 1, (2400, 2330, 2395, 2370), (0, 70, 5, 30), flop, (card(3, 5), card(0, 4)), actions, (),
                ("CALL", "ALL-IN", "BET_80", "FOLD"))  # seven-six, no pair, no draw
    return b.act(turn)


def test_a_wide_openers_flop_bet_is_raised_when_asked():
    assert four_seat_flop(16) in ("CALL", "FOLD")  # off by default
    assert four_seat_flop(16, cbet_raise=0.5) == "BET 120"  # raised to 3x its bet of 40
    assert four_seat_flop(2, cbet_raise=0.5) in ("CALL", "FOLD")  # an opener seen raising first in 2 of 20: no


def four_seat_sb(hole, opener_pfr_hits: int = 16, behind_fold_hits: int = 15, **config) -> str:
    """The small blind (seat 2) at four live stacks facing seat 0's open to 30 with the big blind (seat 3) behind;
    seat 0 was seen raising first in ``opener_pfr_hits`` of 20 hands, seat 3 folding to ``behind_fold_hits`` of 20
    raises."""
    b = BOTS["ranged"].make(RangedConfig(**config))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 4, 2))
    b.new_game(5)
    for k in range(20):
        b.seen[0].count("pfr", k < opener_pfr_hits)
        b.seen[3].count("fold_pre", k < behind_fold_hits)
    actions = ((1, 1, 0, "BET_30", ()), (1, 1, 1, "FOLD", ()))
    turn = Turn(2, 1, (2370, 2400, 2395, 2390), (30, 0, 5, 10), (), hole, actions, (),
                ("CALL", "ALL-IN", "BET_50", "FOLD"))
    return b.act(turn)


def test_a_wide_openers_raise_is_re_raised_with_a_wider_range_when_those_behind_fold():
    hole = (card(0, 11), card(1, 6))  # king-eight offsuit: above the middle, below the equity re-raise
    assert CLASS_PCT[combo_class(*hole)] > 0.7
    assert four_seat_sb(hole) in ("CALL", "FOLD")  # off by default
    assert four_seat_sb(hole, wide_3bet=0.6).startswith("BET")
    assert four_seat_sb(hole, behind_fold_hits=2, wide_3bet=0.6) in ("CALL", "FOLD")  # the big blind defends
    assert four_seat_sb(hole, opener_pfr_hits=4, wide_3bet=0.6) in ("CALL", "FOLD")  # a tight opener


def lone_open_answers(opener_pfr_hits: int, **config) -> list[str]:
    """The big blind's answers over HANDS to seat 1's lone open (four_seat_bb), seat 1 seen raising first in
    ``opener_pfr_hits`` of 20 hands."""
    answers = []
    for h in HANDS:
        b, turn = four_seat_bb(h, fold_equity=0.0, **config)
        for k in range(20):
            b.seen[1].count("pfr", k < opener_pfr_hits)
        answers.append(b.act(turn))
    return answers


def test_a_wide_openers_lone_open_is_re_raised_or_folded_never_called_when_asked():
    assert "CALL" in lone_open_answers(16, steal_pfr=0.5)  # answered by the heads-up rules: some hands flat-call
    narrow, wide = lone_open_answers(16, steal_pfr=0.5, lone_3bet=0.3), lone_open_answers(16, lone_3bet=0.8)
    for answers in (narrow, wide):
        assert "CALL" not in answers and "FOLD" in answers
    raises = [sum(a.startswith("BET") or a == "ALL-IN" for a in answers) for answers in (narrow, wide)]
    assert 0 < raises[0] < raises[1]  # the top X x its raise-first share: a larger X re-raises more hands
    assert lone_open_answers(2, lone_3bet=0.8) == lone_open_answers(2)  # a tight opener: as before


def test_the_lone_open_rule_also_acts_with_only_the_big_blind_behind():
    hole = (card(0, 11), card(1, 6))  # king-eight offsuit
    assert four_seat_sb(hole, behind_fold_hits=2) in ("CALL", "FOLD")  # off by default
    # the big blind behind defends (wide_3bet would not act) yet the lone open is re-raised
    assert four_seat_sb(hole, behind_fold_hits=2, wide_3bet=0.6) in ("CALL", "FOLD")
    assert four_seat_sb(hole, behind_fold_hits=2, lone_3bet=0.6).startswith("BET")
    assert four_seat_sb((card(0, 5), card(1, 0)), lone_3bet=0.6) == "FOLD"  # seven-deuce: folded, not called
