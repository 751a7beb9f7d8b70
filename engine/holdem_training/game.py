"""Hold'em Training through the game contract (engine/core/contract.py): one hand, Alice the one seat.

Bob is the house: `apply` asks his rule for his answer to a raise, so he is not a seat.
"""

import numpy as np

from engine.core.contract import HeadsUpPokerBot
from engine.core.errors import IllegalMove
from engine.holdem_training.judge import HandDeals
from engine.holdem_training.rules import BOB_ROLLOUTS, CHECK, FOLD, RAISE, Action, View
from engine.holdem_training.state import Event, HandState, verify_action

ALICE = 0
BOT_PROTOCOL = HeadsUpPokerBot


class HoldemTraining:
    name = "holdem-training"
    seats = 1
    lists_every_action = True

    def start(self, seed: int) -> HandState:
        deal = HandDeals.of(seed, 0, 1)
        return deal.hand(0, np.zeros(1, np.uint64), deal.rows(), BOB_ROLLOUTS)

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

    def view(self, state: HandState, seat: int) -> View:
        return state.view()

    def hidden(self, state: HandState, seat: int) -> frozenset[int]:
        """Bob's two cards and the board cards not dealt yet."""
        return frozenset(state.cards[2:4] + state.cards[4 + state.known:])

    def returns(self, state: HandState) -> tuple[float, ...]:
        return (float(state.delta),)


GAME = HoldemTraining()
