"""The tracker style program (bench/cg_holdem/styles/tracker.py, issue 32): legal moves on crafted turns,
the same answers from the same seed, a raiser's range narrowed, the counts and ICM it reads."""

import random

import pytest

from bench.cg_holdem.ranged_paired import style_maker
from engine.cg_holdem.protocol import Setup, Turn, parse_output
from engine.cg_holdem.rules import parse_card_text

style_maker("tracker")  # puts the styles on the path
import tracker  # noqa: E402 - after the path is set


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split())


# (players, me, turn): a deep first-in small blind, a big blind facing a shove, a flop checked to the
# preflop raiser, a four-seat flop bet into my straight flush draw (seat 0 raised, seat 2 called)
TURNS = [
    (2, 0, Turn(1, 1, (2395, 2390), (5, 10), (), cards("AS KD"), (), (), ("CALL", "ALL-IN", "BET_15", "FOLD"))),
    (2, 1, Turn(2, 1, (0, 2390), (2400, 10), (), cards("7C 2D"), ((1, 1, 0, "ALL-IN", ()),), (),
                ("ALL-IN", "FOLD"))),
    (2, 0, Turn(4, 1, (2370, 2370), (30, 30), cards("KH 7C 2D"), cards("AS AD"),
                ((1, 1, 0, "BET_25", ()), (2, 1, 1, "CALL", ()), (3, 1, 1, "CHECK", cards("KH 7C 2D"))), (),
                ("ALL-IN", "BET_10", "CHECK", "FOLD"))),
    (4, 3, Turn(8, 1, (1110, 1195, 1170, 1170), (90, 5, 30, 30), cards("9H 8H 2C"), cards("QH JH"),
                ((1, 1, 3, "CALL", ()), (2, 1, 0, "BET_30", ()), (3, 1, 1, "FOLD", ()), (4, 1, 2, "CALL", ()),
                 (5, 1, 3, "CALL", ()), (6, 1, 2, "CHECK", cards("9H 8H 2C")),
                 (7, 1, 0, "BET_60", cards("9H 8H 2C"))), (),
                ("CALL", "ALL-IN", "BET_120", "FOLD"))),
]


def answers(seed: int) -> list[str]:
    out = []
    for players, me, turn in TURNS:
        player = style_maker("tracker")()
        player.seed = seed
        player.start(Setup(5, 10, 10, 2, 4800 // players, 1, players, me))
        out.append(player.act(turn))
    return out


def test_moves_are_legal_and_sensible():
    got = answers(tracker.SEED)
    for (_, _, turn), line in zip(TURNS, got, strict=True):
        kind, amount, _ = parse_output(line)
        if kind == "BET":
            minimum = int(next(p for p in turn.possible if p.startswith("BET_"))[4:])
            assert minimum <= amount < turn.stacks[0] + turn.stacks[-1]
        else:
            assert kind in turn.possible
    assert parse_output(got[0])[0] in ("BET", "ALL-IN")  # AK opens
    assert got[1] == "FOLD"  # 72o does not call a 240 big blind shove
    assert parse_output(got[2])[0] == "BET"  # aces bet the dry flop checked to them
    assert got[3] in ("CALL", "ALL-IN") or got[3].startswith("BET")  # the open-ended straight flush draw goes on


def test_the_same_seed_gives_the_same_answers_and_equities():
    assert answers(7) == answers(7)
    hole, board, ranges = cards("QH JH"), cards("9H 8H 2C"), [(0.2, 0.5), (0.5, 1.0)]
    same = [tracker.equity(hole, board, ranges, random.Random(4), 50) for _ in range(2)]
    assert same[0] == same[1] != tracker.equity(hole, board, ranges, random.Random(5), 50)


def test_a_raisers_range_is_narrowed_and_a_bettors_misses_thinned():
    memory = {}
    turn = TURNS[3][2]
    tracker.track(memory, turn, me=3)
    raiser, caller, folded = tracker.narrowed(memory, 0), tracker.narrowed(memory, 2), tracker.narrowed(memory, 1)
    assert raiser[0] < caller[0] < folded[0] == 1.0  # seat 0 raised: its top PFR share; seat 2 called
    assert raiser[1] < 1.0 == caller[1]  # seat 0 bet the flop: fewer of its misses stay in
    rng = random.Random(1)
    weak = cards("7C 2D")
    assert tracker.equity(weak, (), [raiser], rng, 400) < tracker.equity(weak, (), [(1.0, 1.0)], rng, 400) - 0.03


def test_the_counts_read_from_the_history():
    memory = {}
    tracker.track(memory, TURNS[3][2], me=3)
    stats = memory["stats"]
    assert (stats[0]["vpip"], stats[0]["pfr"], stats[0]["agg"]) == (1, 1, 1)
    assert (stats[2]["vpip"], stats[2]["pfr"], stats[1]["vpip"]) == (1, 0, 0)  # 2 called the raise, 1 folded
    assert (stats[2]["agg"], stats[2]["pas"], stats[2]["faced"]) == (0, 1, 0)  # 2 checked the flop first
    assert 3 not in stats  # my own actions are not counted
    flop = cards("9H 8H 2C")
    later = TURNS[3][2]._replace(actions=((8, 1, 3, "CALL", flop), (9, 1, 2, "FOLD", flop)))
    tracker.track(memory, later, me=3)
    assert (stats[2]["faced"], stats[2]["fold"]) == (1, 1)  # seat 2 folded to seat 0's flop bet
    vpip, pfr, _, _ = tracker.profile(memory, 0)
    assert vpip > tracker.PRIOR_VPIP and pfr > tracker.PRIOR_PFR


def test_icm_heads_up_is_the_chip_share_and_a_bust_takes_last_place():
    assert tracker.icm([300, 100], 2) == pytest.approx([0.75, 0.25])
    three = tracker.icm([0, 200, 200], 3)
    assert three == pytest.approx([0.0, 0.75, 0.75])  # places 1 and 2 of 3 score 1 and 0.5
    assert sum(tracker.icm([100, 200, 300, 400], 4)) == pytest.approx(2.0)
