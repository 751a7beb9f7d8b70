"""The one referee loop (engine/core/referee.py) and its seats (engine/core/seats.py).

A tiny two-seat game defined here ("high card": each seat holds a card, seat 0 plays or folds,
then seat 1 plays or folds; a fold loses 1, a showdown moves 2) is played by in-process bots
and by small programs written to tmp_path; then Tractor shows the loop plays what its judge plays.
"""

import dataclasses
import json
import sys
import textwrap
from dataclasses import dataclass

import numpy as np
import pytest

from engine.core.errors import BadValue, IllegalMove
from engine.core.log import concat
from engine.core.referee import EVENTS_TABLE, FAULTS_TABLE, deal, play_match, play_unit, play_units, rotation
from engine.core.seats import (
    DEFAULT_ACTION,
    END_MATCH,
    FORFEIT_UNIT,
    BadOutput,
    BadOutputRule,
    BotSeat,
    ProgramLimits,
    ProgramSeat,
    Seat,
    act_with_generator,
)

PLAY, FOLD = "play", "fold"


@dataclass(frozen=True)
class Acted:
    seat: int
    action: str


@dataclass(frozen=True)
class View:
    seat: int
    card: int
    opponent_played: bool  # seat 1 sees whether seat 0 played


@dataclass
class State:
    cards: tuple[int, int]
    actions: list


class HighCard:
    name = "high-card"
    seats = 2
    lists_every_action = True

    def start(self, seed: int) -> State:
        cards = np.random.default_rng(seed).choice(10, size=2, replace=False)
        return State((int(cards[0]), int(cards[1])), [])

    def to_act(self, state):
        if len(state.actions) == 2 or FOLD in state.actions:
            return None
        return len(state.actions)

    def legal(self, state):
        return [] if self.to_act(state) is None else [PLAY, FOLD]

    def check(self, state, action) -> None:
        if action not in self.legal(state):
            raise IllegalMove(f"{action!r} is not one of {self.legal(state)}")

    def apply(self, state, action) -> Acted:
        self.check(state, action)
        state.actions.append(action)
        return Acted(len(state.actions) - 1, action)

    def view(self, state, seat):
        return View(seat, state.cards[seat], bool(state.actions) and state.actions[0] == PLAY)

    def hidden(self, state, seat):
        return frozenset({state.cards[1 - seat]})

    def returns(self, state):
        if FOLD in state.actions:
            loser = state.actions.index(FOLD)
            return tuple(-1.0 if s == loser else 1.0 for s in range(2))
        winner = 0 if state.cards[0] > state.cards[1] else 1
        return tuple(2.0 if s == winner else -2.0 for s in range(2))


GAME = HighCard()


class Threshold:
    """Plays a card of at least `least`."""

    def __init__(self, least: int = 5):
        self.least = least

    def act(self, view):
        return PLAY if view.card >= self.least else FOLD


class Coin:
    """Plays with probability 1/2, from the generator its seat hands it."""

    def act(self, view, rng):
        return PLAY if rng.random() < 0.5 else FOLD


def bots(kind=Coin):
    return [BotSeat(kind(), ask=act_with_generator) if kind is Coin else BotSeat(kind()) for _ in range(2)]


# -- (a) in-process seats ---------------------------------------------------------------------------

def test_a_unit_is_played_to_its_end_with_frozen_events_and_zero_sum_returns():
    result = play_unit(GAME, [BotSeat(Threshold(0)), BotSeat(Threshold(0))], seed=3, unit=2)
    assert [(s, e) for s, e in result.events] == [(0, Acted(0, PLAY)), (1, Acted(1, PLAY))]
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.events[0][1].action = FOLD
    assert sorted(result.returns) == [-2.0, 2.0] and not result.faults and not result.ended_match
    cards = deal(GAME, 3, 2).cards
    assert result.returns[0] == (2.0 if cards[0] > cards[1] else -2.0)


def _same_log(a, b) -> bool:
    return (a.first == b.first and a.payoffs.tolist() == b.payoffs.tolist() and a.tables == b.tables
            and a.stats == b.stats)


def test_chunking_does_not_change_results():
    whole = play_units(GAME, bots(), seed=11, first=0, count=40, record_events=True)
    parts = [play_units(GAME, bots(), seed=11, first=a, count=b - a, record_events=True)
             for a, b in ((25, 40), (0, 9), (9, 25))]  # out of order
    joined = concat(sorted(parts, key=lambda p: p.first))
    assert whole.count == 40 and whole.payoffs.tolist() == joined.payoffs.tolist()
    assert whole.tables[EVENTS_TABLE] == joined.tables[EVENTS_TABLE]
    assert len(set(whole.payoffs.tolist())) > 1  # the coins and the deals vary from unit to unit


def test_a_match_replays_bit_for_bit_and_another_seed_differs():
    first = play_units(GAME, bots(), seed=5, first=0, count=30, record_events=True)
    again = play_units(GAME, bots(), seed=5, first=0, count=30, record_events=True)
    other = play_units(GAME, bots(), seed=6, first=0, count=30, record_events=True)
    assert _same_log(first, again)
    assert first.payoffs.tolist() != other.payoffs.tolist()
    events = first.tables[EVENTS_TABLE]
    assert set(events) == {"unit", "step", "seat", "event"}
    opening = json.loads(events["event"][0])
    assert opening["type"] == "Acted" and opening["seat"] == events["seat"][0] == 0 and events["step"][:1] == [0]
    assert {json.loads(e)["action"] for e in events["event"]} == {PLAY, FOLD}


def test_no_tables_unless_asked_and_the_payoff_is_the_chosen_entrants():
    zero = play_units(GAME, bots(Threshold), seed=2, first=0, count=20)
    one = play_units(GAME, bots(Threshold), seed=2, first=0, count=20, payoff_seat=1)
    assert zero.tables == {} and zero.stats == {"faults": 0.0, "ended_early": 0.0}
    assert (zero.payoffs + one.payoffs).tolist() == [0.0] * 20  # the game is zero-sum
    assert zero.payoffs.any()


def test_seating_puts_each_entrant_in_turn_in_every_seat():
    seen = []

    class Watch(Threshold):
        def act(self, view):
            seen.append(view.seat)
            return PLAY

    play_units(GAME, [BotSeat(Watch()), BotSeat(Threshold(0))], seed=1, first=0, count=4, seating=rotation(2))
    assert seen == [0, 1, 0, 1]  # entrant 0 sits at seat (0 + unit) % 2
    with pytest.raises(BadValue, match="seating"):
        play_units(GAME, bots(), seed=1, first=0, count=1, seating=lambda unit: (0, 0))
    one = BotSeat(Threshold())
    with pytest.raises(BadValue, match="distinct"):
        play_units(GAME, [one, one], seed=1, first=0, count=1)


def test_a_bot_seat_is_seeded_per_unit_and_seat_with_the_judges_bot_key():
    from engine.splendor.judge import bot_key

    began = []
    seats = [BotSeat(Threshold(), on_begin=lambda bot, seat, key: began.append((seat, key))) for _ in range(2)]
    play_units(GAME, seats, seed=21, first=2, count=2, seating=rotation(2))
    assert began == [(seat, bot_key(21, unit, seat)) for unit in (2, 3) for seat in (0, 1)]
    assert len({key for _, key in began}) == 4


class Says:
    """Answers a fixed word (an illegal one, to test the rules)."""

    def __init__(self, word):
        self.word = word

    def act(self, view):
        return self.word


@pytest.mark.parametrize(("rule", "payoff", "count"), [
    (BadOutputRule(FORFEIT_UNIT, forfeit=-3.0, others=3.0), -3.0, 5),
    (BadOutputRule(DEFAULT_ACTION), None, 5),  # plays `play` (the first legal action) instead
    (BadOutputRule(END_MATCH), None, 0),
])
def test_an_illegal_answer_is_a_fault_handled_by_the_seats_rule(rule, payoff, count):
    played = play_match(GAME, [BotSeat(Says("raise"), rule=rule), BotSeat(Threshold(0))], seed=4, first=0, count=5,
                        record_faults=True)
    assert played.log.count == count and played.ended == (rule.kind == END_MATCH)
    assert played.faults[0].kind == "illegal" and "'raise' is not one of" in played.faults[0].reason
    assert {f.rule for f in played.faults} == {rule.kind} and len(played.faults) == max(count, 1)
    if payoff is not None:
        assert played.log.payoffs.tolist() == [payoff] * count
    if rule.kind == DEFAULT_ACTION:  # both played: the showdown's +-2 each unit
        assert set(np.abs(played.log.payoffs).tolist()) == {2.0}
    assert played.log.tables[FAULTS_TABLE]["entrant"] == [0] * len(played.faults)


def test_an_unknown_rule_is_refused_in_one_line():
    with pytest.raises(BadValue, match="accepted: forfeit_unit, default_action, end_match"):
        BadOutputRule("retry")


# -- (b) programs over a line protocol ---------------------------------------------------------------

class Lines:
    """High card's line protocol: 'seat S' per unit; 'card C' and 'legal ...' per decision."""

    def opening(self, game, seat):
        return [f"seat {seat}"]

    def turn(self, view, legal):
        return [f"card {view.card}", "legal " + " ".join(legal)]

    def parse(self, line, legal):
        word = line.strip()
        if word not in (PLAY, FOLD):
            raise BadOutput("expected play or fold")
        if word not in legal:
            raise IllegalMove(f"{word} is not legal now")
        return word


PLAYER = """
import sys, time
answers = 0
card = None
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "card":
        card = int(rest)
    elif word == "legal":
        if answers >= {after}:
            {then}
        print("play" if card >= 5 else "fold", flush=True)
        answers += 1
"""
LEGAL = PLAYER.format(after=10**9, then="pass")
GARBAGE = PLAYER.format(after=3, then='print("xyzzy", flush=True); answers += 1; continue')
CRASH = PLAYER.format(after=3, then='sys.stderr.write("boom: out of luck\\n"); sys.exit(3)')
HANG = PLAYER.format(after=3, then="time.sleep(60)")


def program(tmp_path, text, *, rule=BadOutputRule(), turn_seconds=5.0) -> Seat:
    path = tmp_path / "player.py"
    path.write_text(textwrap.dedent(text))
    return ProgramSeat([sys.executable, "-I", str(path)], Lines(), rule=rule,
                       limits=ProgramLimits(turn_seconds=turn_seconds, first_turn_seconds=10.0))


def test_a_legal_program_plays_as_the_same_bot_in_process_does(tmp_path):
    seat = program(tmp_path, LEGAL)
    played = play_match(GAME, [seat, BotSeat(Threshold(3))], seed=8, first=0, count=12, seating=rotation(2))
    in_process = play_units(GAME, [BotSeat(Threshold(5)), BotSeat(Threshold(3))], seed=8, first=0, count=12,
                            seating=rotation(2))
    assert played.log.payoffs.tolist() == in_process.payoffs.tolist() and not played.faults
    report = played.reports[0]
    assert report.failure is None and 6 <= report.answers <= 12 and report.process.returncode is not None
    assert played.reports[1] is None


def test_garbage_output_forfeits_the_unit_and_the_units_are_kept(tmp_path):
    seat = program(tmp_path, GARBAGE, rule=BadOutputRule(FORFEIT_UNIT, forfeit=-5.0, others=5.0))
    played = play_match(GAME, [seat, BotSeat(Threshold(0))], seed=9, first=0, count=6)
    expected = play_units(GAME, [BotSeat(Threshold(5)), BotSeat(Threshold(0))], seed=9, first=0, count=3)
    assert played.log.count == 6 and not played.ended
    assert played.log.payoffs.tolist()[:3] == expected.payoffs.tolist()
    assert played.log.payoffs.tolist()[3:] == [-5.0] * 3
    assert [(f.unit, f.kind) for f in played.faults] == [(3, "bad-output"), (4, "bad-output"), (5, "bad-output")]
    assert "xyzzy" in played.faults[0].reason


def test_a_program_that_crashes_ends_the_match_with_its_stderr_and_keeps_the_units(tmp_path):
    seat = program(tmp_path, CRASH, rule=BadOutputRule(DEFAULT_ACTION))  # a crash ends the match whatever the rule
    played = play_match(GAME, [seat, BotSeat(Threshold(0))], seed=9, first=0, count=6, record_faults=True)
    expected = play_units(GAME, [BotSeat(Threshold(5)), BotSeat(Threshold(0))], seed=9, first=0, count=3)
    assert played.ended and played.log.payoffs.tolist() == expected.payoffs.tolist()
    assert played.log.stats == {"faults": 1.0, "ended_early": 1.0}
    (fault,) = played.faults
    assert (fault.unit, fault.seat, fault.kind, fault.rule) == (3, 0, "crash", END_MATCH)
    assert "exit status 3" in fault.reason and "boom: out of luck" in fault.reason
    assert played.log.tables[FAULTS_TABLE]["reason"] == [fault.reason]
    assert played.reports[0].failure.startswith("crash:")


@pytest.mark.slow  # waits out a time limit
def test_a_program_that_hangs_breaks_the_turn_time_limit(tmp_path):
    seat = program(tmp_path, HANG, turn_seconds=0.5)
    played = play_match(GAME, [seat, BotSeat(Threshold(0))], seed=9, first=0, count=6)
    assert played.ended and played.log.count == 3
    (fault,) = played.faults
    assert fault.kind == "time" and "no answer within 0.5 s" in fault.reason


def test_a_program_that_cannot_start_is_a_fault_not_an_exception(tmp_path):
    seat = ProgramSeat([str(tmp_path / "missing")], Lines())
    played = play_match(GAME, [seat, BotSeat(Threshold())], seed=1, first=0, count=3)
    assert played.ended and played.log.count == 0 and played.faults[0].kind == "crash"
    assert "cannot start" in played.faults[0].reason


# -- (c) a built-in game: the judge is its spec plus this loop ----------------------------------------

def test_tractor_through_the_loop_returns_what_its_judge_returns():
    from bots.tractor import BOTS
    from engine.tractor import judge
    from engine.tractor.game import GAME as TRACTOR
    from engine.tractor.state import RoundEnded, TrickTaken

    primary, opponent = BOTS["rule"].make(), BOTS["random"].make()  # random draws from its seat's generator

    def ask(bot, view, legal, rng):
        return tuple(bot.act(view, rng))

    def line_up():
        return [BotSeat(bot, ask=ask) for bot in (primary, opponent, primary, opponent)]

    seen = set()
    for first, count in ((0, 4), (3, 2)):  # a later chunk deals the judge's later rounds too
        rounds = judge.play_rounds(primary, opponent, seed=11, first=first, count=count, swap_seats=True)
        played = play_match(TRACTOR, line_up(), seed=11, first=first, count=count, seating=rotation(4))
        assert not played.faults and not any(r.faults for r in rounds)
        assert played.log.payoffs.tolist() == [float(r.payoff) for r in rounds]
        seen |= set(played.log.payoffs.tolist())
        for r in rounds:  # and the same tricks and outcome, play by play
            seats = line_up()
            unit = play_unit(TRACTOR, [seats[k] for k in rotation(4)(r.index)], 11, r.index)
            events = [e for _, turn in unit.events for e in turn.events]
            tricks = [(e.leader, e.plays, e.winner) for e in events if isinstance(e, TrickTaken)]
            assert tricks == [(t.leader, t.plays, t.winner) for t in r.state.tricks] and len(tricks) > 1
            assert [e.outcome for e in events if isinstance(e, RoundEnded)] == [r.outcome]
    assert len(seen) > 1  # the rounds differ, so equal payoffs are no accident of constant results
