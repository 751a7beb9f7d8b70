"""Hold'em Training through the game contract (engine/core/contract.py): one hand, Alice the one seat.

Bob is the house: `apply` asks his rule for his answer to a raise, so he is not a seat.

The contest's RATE query is part of what Alice is shown: each view (`Decision`) carries the hand's
`rate(t)` -> (wins, ties) over t random completions, drawn from the stream Bob's rollouts draw
from, so a RATE changes Bob's later answers exactly as in the contest. The match's RATE budget
and the answers' rounding are the seat's (`AliceSeat`, the judge's meter), since a budget spans
the units of a match. Played through the referee loop (engine/core/referee.py) by `AliceSeat`,
a registered bot gets exactly what the judge's play_chunk gives it.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from engine.core.contract import HeadsUpPokerBot
from engine.core.errors import IllegalMove
from engine.core.seats import END_MATCH, BadOutputRule, BotSeat, SeatFault
from engine.holdem_training.judge import HandDeals, MatchAborted, _RateMeter
from engine.holdem_training.rules import (
    BOB_ROLLOUTS,
    CALL,
    CHECK,
    FOLD,
    RAISE,
    START_STACK,
    Action,
    View,
    view_of,
)
from engine.holdem_training.state import Event, HandState, verify_action

ALICE = 0
BOT_PROTOCOL = HeadsUpPokerBot


@dataclass(frozen=True)
class Decision(View):
    """What Alice sees at a decision (the STATE lines) and the hand's RATE query (not compared)."""

    rate: Callable[[int], tuple[int, int]] | None = field(default=None, compare=False, repr=False)

    def shown(self) -> View:
        """The View alone, as the judge hands it to a bot."""
        return view_of(self.hand, self.round, self.stack, self.opp_stack, self.pot, self.hole, self.board)


class HoldemTraining:
    name = "holdem-training"
    seats = 1
    lists_every_action = True

    def __init__(self, bob_rollouts: int = BOB_ROLLOUTS):
        self.bob_rollouts = bob_rollouts

    def start(self, seed: int) -> HandState:
        return self.start_unit(seed, 0)

    def start_unit(self, seed: int, unit: int) -> HandState:
        """Hand `unit` (0-based) of the match `seed`, as the judge deals it (the referee loop's optional hook)."""
        deal = HandDeals.of(seed, unit, 1)
        return deal.hand(0, np.zeros(1, np.uint64), deal.rows(), self.bob_rollouts)

    def to_act(self, state: HandState) -> int | None:
        return None if state.ended else ALICE

    def legal(self, state: HandState) -> list[Action]:
        if state.ended:
            return []
        return [Action(CHECK), Action(FOLD), *(Action(RAISE, x) for x in range(1, state.stack + 1))]

    def check(self, state: HandState, action: Action) -> None:
        if state.ended:
            raise IllegalMove(f"hand {state.hand} is over")
        verify_action(action, state.stack)

    def apply(self, state: HandState, action: Action) -> Event:
        return state.apply(action)

    def view(self, state: HandState, seat: int) -> Decision:
        v = state.view()

        def rate(rollouts: int) -> tuple[int, int]:  # a function, so the bot is not handed the hand's state
            return state.rate(rollouts)

        return Decision(v.hand, v.round, v.stack, v.opp_stack, v.pot, v.hole, v.board, rate)

    def hidden(self, state: HandState, seat: int) -> frozenset[int]:
        """Bob's two cards and the board cards not dealt yet."""
        return frozenset(state.cards[2:4] + state.cards[4 + state.known:])

    def returns(self, state: HandState) -> tuple[float, ...]:
        return (float(state.delta),)


GAME = HoldemTraining()


def bob_answer(view: View, action: Action, delta: int | None) -> str:
    """Bob's answer to Alice's action, as the protocol's OPP line tells her: CHECK to a check, CALL to
    a raise the hand went on after (delta None); to a raise that ended it, FOLD exactly when Alice
    won the pot as it stood before the raise (a called raise pays her more, ties and losses less)."""
    if action.kind != RAISE:
        return CHECK
    return FOLD if delta == view.stack + view.pot - START_STACK else CALL


class AliceSeat(BotSeat):
    """An in-process bot (judge.InProcessBot) seated as the judge's play_chunk seats it, for a match
    of `hands` hands with `rate_budget` RATE rollouts: start_match(hands, rate_budget) before its
    first hand, act(view, rate) with the judge's RATE meter, observe(view, action, Bob's answer)
    after each action but a fold, end_hand(hand, delta) after each hand. A RATE the judge refuses
    (over budget, t < 1) ends the match, as the judge aborts it; so does an illegal action."""

    def __init__(self, bot, *, hands: int, rate_budget: int):
        super().__init__(bot, rule=BadOutputRule(END_MATCH))
        self.hands = hands
        self.meter = _RateMeter(rate_budget)
        self.query = self.meter.query()
        self.started = False
        self.last: tuple[View, Action] | None = None  # this hand's latest decision

    def begin(self, game, seat: int, unit_seed: int) -> None:
        super().begin(game, seat, unit_seed)
        if not self.started:
            self.bot.start_match(self.hands, self.meter.budget)
            self.started = True
        self.last, self.meter.in_hand = None, 0

    def act(self, view: Decision, legal: Sequence) -> Action:
        if self.last is not None:  # the hand went on after Alice's last action
            self.bot.observe(*self.last, bob_answer(*self.last, None))
        shown = view.shown()
        self.meter.state = view  # the meter asks view.rate(t): this hand's stream
        try:
            action = self.bot.act(shown, self.query)
        except MatchAborted as exc:
            raise SeatFault("bad-output", str(exc)) from exc
        self.last = (shown, action)
        return action

    def end(self, returns: tuple[float, ...]) -> None:
        shown, action = self.last
        delta = int(returns[ALICE])
        if action.kind != FOLD:  # the protocol has no OPP line after Alice folds
            self.bot.observe(shown, action, bob_answer(shown, action, delta))
        self.bot.end_hand(shown.hand, delta)
