"""PHH export of the referee's awkward hands, replayed by PokerKit to the referee's stacks.

Each record was played by the referee (4-seat games with bots, seats busted = None cards):
a lone seat the referee does not ask but PokerKit does, a big blind all-in short that
callers must still reach (a raise to the BB for PokerKit), a raise nobody can fully answer,
a heads-up small blind all-in below the big blind. The last one, a big blind posting less
than the other seats, has no PokerKit equivalent and is flagged as such.
"""

import pytest

from bench.cg_holdem.pokerkit_peer import pokerkit_plan, pokerkit_replay
from engine.cg_holdem.phh import hand_history, pokerkit_can_replay
from engine.cg_holdem.state import HandRecord

pytest.importorskip("pokerkit")

REPLAYABLE = [
    # 3 live seats: the small blind folds, the big blind is never asked by the referee.
    (19, 20, 0, 1, 2, (15, 3510, 1275, 0), (15, 10, 20, 0), ((36, 30), (47, 15), (44, 17), None),
     (5, 14, 34, 46, 12), ((172, 1, "FOLD", 0, 0),), (False, True, False, True), (15, 10, 20, 0),
     (0, 0, 45, 0), (0, 3500, 1300, 0), True, False, 172, 172),
    (34, 80, 1, 2, 0, (702, 4024, 74, 0), (80, 40, 40, 0), ((36, 38), (4, 45), (16, 25), None),
     (3, 34, 23, 32, 28), ((258, 1, "FOLD", 0, 0), (259, 2, "ALL-IN", 34, 0)), (False, True, False, True),
     (80, 40, 74, 0), (194, 0, 0, 0), (816, 3984, 0, 0), True, False, 258, 259),
    # Big blind all-in for 42 of 80: a call to 80 is a raise in PokerKit's eyes.
    (33, 80, 0, 1, 2, (2522, 2236, 42, 0), (40, 40, 42, 0), ((10, 34), (2, 13), (18, 51), None),
     (49, 38, 9, 37, 21), ((284, 0, "CALL", 40, 0), (285, 1, "FOLD", 0, 0)), (False, True, False, True),
     (80, 40, 42, 0), (100, 0, 62, 0), (2542, 2196, 62, 0), True, False, 284, 285),
    (24, 40, 1, 2, 3, (1820, 2240, 710, 30), (20, 20, 20, 30), ((4, 9), (19, 0), (30, 50), (11, 1)),
     (10, 15, 24, 42, 2), ((277, 0, "CALL", 20, 0), (278, 1, "FOLD", 0, 0), (279, 2, "FOLD", 0, 0)),
     (False, True, True, False), (40, 20, 20, 30), (10, 0, 0, 100), (1790, 2220, 690, 100), True, False, 277, 279),
    # Heads-up: the small blind is all-in below the big blind, who has nothing to do.
    (36, 80, 0, 0, 2, (56, 0, 4744, 0), (40, 0, 80, 0), ((35, 18), None, (28, 40), None), (42, 33, 32, 16, 24),
     ((239, 0, "ALL-IN", 16, 0),), (False, True, False, True), (56, 0, 80, 0), (112, 0, 24, 0),
     (112, 0, 4688, 0), True, False, 239, 239),
    # An all-in over an all-in that the last live seat (835 chips) could not even call.
    (33, 80, 1, 2, 0, (835, 1145, 2820, 0), (80, 40, 40, 0), ((0, 22), (33, 48), (37, 12), None),
     (1, 36, 21, 47, 4), ((179, 1, "ALL-IN", 1105, 0), (180, 2, "ALL-IN", 2780, 0), (181, 0, "FOLD", 0, 0)),
     (True, False, False, True), (80, 1145, 2820, 0), (0, 0, 4045, 0), (755, 0, 4045, 0), True, False, 179, 181),
]
# Big blind all-in for 10 while the others posted 20; the first seat folds facing the
# missing part of the big blind, which PokerKit does not know about.
SHORT_BELOW_OTHERS = (
    29, 40, 1, 2, 3, (2925, 800, 1065, 10), (20, 20, 20, 10), ((0, 31), (23, 15), (26, 42), (45, 12)),
    (4, 43, 25, 48, 11), ((324, 0, "FOLD", 0, 0), (325, 1, "CALL", 20, 0), (326, 2, "FOLD", 0, 0)),
    (True, False, True, False), (20, 40, 20, 10), (0, 50, 0, 40), (2905, 810, 1045, 40), True, False, 324, 326)


def strict_replay_mismatches(record: HandRecord) -> int:
    """The speed benchmark's replay, with every action checked to come from the PHH's player."""
    return pokerkit_replay([pokerkit_plan(record)], check_actors=True)


@pytest.mark.parametrize("fields", REPLAYABLE)
def test_awkward_hands_replay_strictly_in_pokerkit(fields):
    record = HandRecord(*fields)
    assert pokerkit_can_replay(record)
    assert strict_replay_mismatches(record) == 0, hand_history(record)


def test_big_blind_below_another_post_is_flagged_and_fails_strictly():
    record = HandRecord(*SHORT_BELOW_OTHERS)
    assert not pokerkit_can_replay(record)
    assert strict_replay_mismatches(record) == 1  # PokerKit opens with another seat


def test_speed_bench_replays_its_hands_in_pokerkit_without_mismatch():
    from bench.cg_holdem.speed import speed

    report = speed(["pushfold", "station", "aggressive:samples=40", "montecarlo:samples=40"], games=3, seed=2,
                   repeats=1)
    assert report.mismatches == 0
    assert report.replayed_hands > 40 and report.replayed_hands + report.inexpressible_hands <= report.hands
    assert 0 < report.bots_share <= 1
