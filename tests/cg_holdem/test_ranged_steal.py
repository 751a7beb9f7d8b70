"""steal_pfr (issue 32, off by default): at 3-4 live stacks a lone open from a seat seen raising first in at least
that share of its hands is answered by the heads-up rules, not the live_* ones; steal_bluff scales the re-raise
bluff there. The bot folded 70-80% of its blinds to style lag's opens."""

from tests.cg_holdem.test_ranged_multi import AS_HEADS_UP, HANDS, four_seat_bb


def answers(opens_seen: int, **config) -> list[str]:
    """The big blind's answers to seat 1's open, after seeing seat 1 raise first in ``opens_seen`` times."""
    out = []
    for hole in HANDS:
        b, turn = four_seat_bb(hole, **config)
        for _ in range(opens_seen):
            b.seen[1].count("vpip", True)
            b.seen[1].count("pfr", True)
        out.append(b.act(turn))
    return out


def test_against_a_seen_stealer_the_open_is_answered_as_heads_up_and_defended_wider():
    default = answers(30)
    stealer = answers(30, steal_pfr=0.5)
    assert stealer == answers(30, **AS_HEADS_UP)
    assert sum(a != "FOLD" for a in stealer) > sum(a != "FOLD" for a in default)


def test_steal_bluff_zero_answers_as_heads_up_without_the_re_raise_bluff():
    assert answers(30, steal_pfr=0.5, steal_bluff=0.0) == answers(30, **{**AS_HEADS_UP, "live_bluff": 0.0})


def test_a_raiser_not_seen_stealing_and_the_default_leave_the_answers_as_they_were():
    default = answers(0)
    assert answers(0, steal_pfr=0.5) == default  # the prior's pfr (0.3) is under the threshold
    assert answers(30, steal_pfr=0.0) == answers(30)
