"""The referee: chip rules against an outside evaluator, the contest's -1 rule on bad output,
limits for external programs, in-process == external play (chunking and replay: tests/test_conformance.py)."""

import sys
from pathlib import Path

import eval7
import numpy as np
import pytest

from engine.core.cards import card_name
from engine.holdem_training import judge
from engine.holdem_training.rules import END_ALICE_FOLD, END_BOB_FOLD, END_SHOWDOWN, Action, points

CONTESTANT = str(Path(__file__).parent / "data" / "contestant.py")
DECK = [eval7.Card(card_name(x)) for x in range(52)]


class Scripted:
    """An in-process bot: `choose(view, rate)` decides; it records what it was told."""

    def __init__(self, choose):
        self.choose = choose
        self.responses: list[str] = []
        self.deltas: list[int] = []

    def start_match(self, hands, rate_budget):
        self.hands, self.budget = hands, rate_budget

    def act(self, view, rate):
        return self.choose(view, rate)

    def observe(self, view, action, response):
        self.responses.append(response)

    def end_hand(self, hand, delta):
        self.deltas.append(delta)


def checker():
    return Scripted(lambda view, rate: Action("CHECK"))


def mixed(view, rate):
    """Deterministic but varied: RATE on the flop, raise sizes that depend on what it sees."""
    if view.round == 2:
        w, d = rate(50)
        return Action("RAISE", max(1, min(view.stack, int(60 * w)))) if w > 0.5 else Action("CHECK")
    if view.round == 4 and view.hole[0] % 13 < 3:
        return Action("FOLD")
    return Action("RAISE", 1 + (view.hand + view.round) % 7)


def test_checking_to_showdown_pays_10_5_or_0_as_eval7_ranks_the_hands():
    result = judge.play_match(checker(), seed=11, hands=400)
    assert result.complete and result.status == "ok"
    hands = result.log.events["hands"]
    for i in range(400):
        alice = [hands[f"alice_c{j}"][i] for j in range(2)] + [hands[f"board_c{j}"][i] for j in range(5)]
        bob = [hands[f"bob_c{j}"][i] for j in range(2)] + [hands[f"board_c{j}"][i] for j in range(5)]
        a, b = (eval7.evaluate([DECK[c] for c in h]) for h in (alice, bob))
        assert result.log.payoffs[i] == (10 if a > b else 5 if a == b else 0)
        assert hands["end_code"][i] == END_SHOWDOWN and hands["final_pot"][i] == 10
    assert 4.0 < result.average_profit < 6.0


def test_folding_at_once_is_zero_and_bob_folding_pays_the_pot():
    result = judge.play_match(Scripted(lambda v, r: Action("FOLD")), seed=1, hands=50)
    assert result.log.payoffs.tolist() == [0] * 50
    assert set(result.log.events["hands"]["end_code"].tolist()) == {END_ALICE_FOLD}
    shove = judge.play_match(Scripted(lambda v, r: Action("RAISE", v.stack) if v.stack else Action("CHECK")),
                             seed=1, hands=300)
    hands = shove.log.events["hands"]
    actions = shove.log.events["actions"]
    for i in range(300):
        if hands["end_code"][i] == END_BOB_FOLD:  # a + P - 100 with a her stack before the raise
            last = np.flatnonzero(actions["hand"] == i + 1)[-1]
            assert shove.log.payoffs[i] == actions["stack_before"][last] + actions["pot_before"][last] - 100
        else:  # all in preflop and called: 210 or 105 or 0 back
            assert shove.log.payoffs[i] in (110, 5, -100)
    assert (hands["end_code"] == END_BOB_FOLD).any() and (hands["end_code"] == END_SHOWDOWN).any()


@pytest.mark.parametrize("bad", [Action("RAISE", 101), Action("RAISE", 0), Action("DANCE"), "CHECK"])
def test_bad_in_process_actions_end_the_match_keeping_finished_hands(bad):
    bot = Scripted(lambda view, rate: bad if (view.hand, view.round) == (4, 2) else Action("CHECK"))
    result = judge.play_match(bot, seed=2, hands=10)
    assert result.status == "aborted" and not result.complete and result.points == 0
    assert result.hands_played == 3 and len(result.log.events["hands"]["hand"]) == 3
    assert result.log.events["hands"]["hand"].tolist() == [1, 2, 3]
    assert set(result.log.events["actions"]["hand"].tolist()) == {1, 2, 3}  # not 4


def test_rate_budget_exceeded_ends_the_match():
    bot = Scripted(lambda view, rate: (rate(300), Action("CHECK"))[1])
    result = judge.play_match(bot, seed=2, hands=10, rate_budget=2500)
    assert result.status == "aborted" and "budget" in result.reason
    assert result.hands_played == 2  # 8 queries of 300 fit; the 9th (hand 3, round 1) does not
    assert result.rate_used == 2400


def test_an_external_program_plays_exactly_like_the_same_bot_in_process():
    external = judge.play_external([sys.executable, CONTESTANT, "example", "0"], seed=8, hands=40, cpu_seconds=5)

    def example(view, rate):
        rate(100)
        return Action("RAISE", 5)

    inside = judge.play_match(Scripted(example), seed=8, hands=40)
    assert external.complete and inside.complete
    assert external.log.payoffs.tolist() == inside.log.payoffs.tolist()
    assert external.rate_used == inside.rate_used
    assert external.cpu_seconds is not None and external.peak_memory_mb > 0


@pytest.mark.parametrize("mode, verdict", [("garbage", "PE"), ("unknown", "WA"), ("overraise", "WA"),
                                           ("zero_raise", "WA")])
def test_bad_program_output_ends_with_its_verdict_without_minus_one(mode, verdict):
    """The reference interactor prints -1 only for the RATE budget; on WA / PE it just ends."""
    transcript: list[str] = []
    result = judge.play_external([sys.executable, CONTESTANT, mode, "3"], seed=5, hands=10, cpu_seconds=5,
                                 transcript=transcript)
    assert result.status == "aborted" and result.limit is None and result.verdict == verdict
    assert result.verdict_line.startswith(f"{verdict}: ") and "without -1" in result.verdict_line
    assert result.hands_played == 3 and result.log.payoffs.tolist() == [
        int(line.split()[2]) for line in transcript if line.startswith("> RESULT")]
    assert "> -1" not in transcript and not any(line.startswith("> SCORE") for line in transcript)


def test_program_over_the_rate_budget_gets_minus_one():
    transcript: list[str] = []
    result = judge.play_external([sys.executable, CONTESTANT, "rate_flood", "2"], seed=5, hands=10,
                                 rate_budget=5500, transcript=transcript, cpu_seconds=5)
    assert result.status == "aborted" and "budget" in result.reason
    assert result.hands_played == 2 and result.rate_used == 5000 and transcript[-1] == "> -1"
    assert result.verdict == "budget" and "prints -1" in result.verdict_line


@pytest.mark.slow  # burns CPU to the limit
def test_cpu_limit_stops_the_program_and_says_so():
    result = judge.play_external([sys.executable, CONTESTANT, "burn", "2"], seed=5, hands=10, cpu_seconds=1)
    assert result.status == "limit" and result.limit == "cpu"
    assert result.hands_played == 2


def test_memory_limit_stops_the_program_and_says_so():
    result = judge.play_external([sys.executable, CONTESTANT, "hog", "2"], seed=5, hands=10, cpu_seconds=5,
                                 memory_mb=120)
    assert result.status == "limit" and result.limit == "memory"
    assert result.hands_played == 2


def test_a_program_that_cannot_start_is_reported():
    result = judge.play_external(["/nonexistent/contestant"], seed=5, hands=3)
    assert result.status == "ended" and result.hands_played == 0


@pytest.mark.parametrize("w, expected", [(8.0, 0), (5.0, 0), (9.5, 20), (11.0, 40), (12.5, 61), (14.0, 82),
                                         (16.0, 88), (20.0, 100), (8.1, 1), (11.75, 51), (12.25, 58)])
def test_points_follow_the_statement_formula(w, expected):
    assert points(w) == expected


def test_logged_hands_replay_from_their_rows():
    """Cards, opponent key and (RATE rollouts, action) per decision reproduce Bob's answers and profits."""
    log = judge.play_chunk(Scripted(mixed), seed=31, first=10, count=80, rate_budget=10**6)
    hands = log.events["hands"]
    actions = log.events["actions"]
    assert actions["rate_rollouts"].sum() == hands["rate_rollouts"].sum() > 0
    for i, hand in enumerate(hands["hand"].tolist()):
        rows = np.flatnonzero(actions["hand"] == hand)
        cards = [hands[f"{who}_c{j}"][i] for who, n in (("alice", 2), ("bob", 2), ("board", 5)) for j in range(n)]
        moves = [(actions["rate_rollouts"][k], Action(actions["action"][k], int(actions["amount"][k]))) for k in rows]
        events = judge.replay_hand(hand=hand, cards=cards, opponent_key=hands["opponent_key"][i], moves=moves)
        assert [e.response for e in events] == [actions["response"][k] for k in rows]
        assert [(e.round, e.pot_before, e.stack_before) for e in events] == [
            (actions["round"][k], actions["pot_before"][k], actions["stack_before"][k]) for k in rows]
        assert events[-1].delta == log.payoffs[i]


def test_numpy_integer_raises_are_accepted_and_logged():
    result = judge.play_match(Scripted(lambda v, r: Action("RAISE", np.int64(2)) if v.stack >= 2
                                       else Action("CHECK")), seed=3, hands=20)
    assert result.complete
    actions = result.log.events["actions"]
    assert set(actions["action"]) == {"RAISE"} and set(actions["amount"].tolist()) == {2}
    with pytest.raises(judge.IllegalMove):
        judge.HandState(1, np.arange(9), 0, np.zeros(1, np.uint64)).apply(Action("RAISE", 2.0))
