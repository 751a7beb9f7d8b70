"""One hand of Hold'em Training as a state machine: legality is defined here once.

`HandState.apply(action)` checks the action, asks Bob's rule (a numba kernel) for his answer
to a raise, moves the chips and returns a frozen `Event`; the list of events is the hand log.
Both judges (in-process and external program) drive hands through this class.
"""

import operator
from dataclasses import dataclass

import numpy as np

from engine.core.errors import IllegalMove
from engine.holdem_training import _kernels
from engine.holdem_training.rules import (
    BOARD_SIZE_BY_ROUND,
    BOB_ROLLOUTS,
    CALL,
    CHECK,
    END_ALICE_FOLD,
    END_BOB_FOLD,
    END_SHOWDOWN,
    FOLD,
    RAISE,
    ROUNDS,
    START_POT,
    START_STACK,
    Action,
    View,
)


@dataclass(frozen=True)
class Event:
    """Alice's action in one round and what followed."""

    hand: int
    round: int
    kind: str  # CHECK, FOLD or RAISE
    amount: int  # chips raised (0 unless RAISE)
    response: str  # Bob's answer: CHECK, CALL, FOLD; "" after Alice folds
    pot_before: int
    stack_before: int
    end: int  # -1 while the hand goes on, else END_SHOWDOWN / END_ALICE_FOLD / END_BOB_FOLD
    delta: int  # Alice's profit once the hand ended, else 0


_new, _set = object.__new__, object.__setattr__  # frozen dataclasses built without per-field __setattr__


def verify_action(action: object, stack: int) -> int:
    """The chips the action puts in (0 for CHECK/FOLD) if the contest accepts it with `stack`
    chips behind, else IllegalMove. Any integer type is accepted for the raise (numpy too)."""
    if not isinstance(action, Action):
        raise IllegalMove(f"expected an Action, got {type(action).__name__}")
    if action.kind == RAISE:
        amount = action.amount
        if type(amount) is not int:
            try:
                amount = operator.index(amount) if not isinstance(amount, bool) else None
            except TypeError:
                amount = None
        if amount is None or not 1 <= amount <= stack:
            raise IllegalMove(f"RAISE {action.amount!r} is not an integer in [1, {stack}]")
        return amount
    if action.kind not in (CHECK, FOLD):
        raise IllegalMove(f"unknown action {action.kind!r}; accepted: CHECK, FOLD, RAISE x")
    return 0


class HandState:
    """Hand `hand` (1-based) dealt as `cards` = Alice's 2, Bob's 2, board 5 (engine ints).

    `outcome` is the showdown result for Alice (+1, 0, -1), known from the deal; `stream` is
    the one-element SplitMix64 state that serves RATE answers and Bob's rollouts, in order.
    """

    __slots__ = ("hand", "cards", "_cards", "outcome", "stream", "bob_rollouts",
                 "round", "stack", "opp_stack", "pot", "end", "delta")

    def __init__(self, hand: int, cards, outcome: int, stream: np.ndarray, *, bob_rollouts: int = BOB_ROLLOUTS,
                 card_tuple: tuple[int, ...] | None = None):
        self.hand = hand
        self._cards = cards if isinstance(cards, np.ndarray) and cards.dtype == np.int64 else np.array(cards, np.int64)
        self.cards = card_tuple if card_tuple is not None else tuple(int(c) for c in self._cards)
        self.outcome = outcome
        self.stream = stream
        self.bob_rollouts = bob_rollouts
        self.round = 1
        self.stack = START_STACK
        self.opp_stack = START_STACK
        self.pot = START_POT
        self.end = -1
        self.delta = 0

    @property
    def ended(self) -> bool:
        return self.end >= 0

    @property
    def known(self) -> int:
        return BOARD_SIZE_BY_ROUND[self.round - 1]

    def view(self) -> View:
        c = self.cards
        view = _new(View)  # what view_of does, inlined: one View per decision
        _set(view, "__dict__", {"hand": self.hand, "round": self.round, "stack": self.stack,
                                "opp_stack": self.opp_stack, "pot": self.pot, "hole": c[:2],
                                "board": c[4:4 + BOARD_SIZE_BY_ROUND[self.round - 1]]})
        return view

    def rate(self, rollouts: int) -> tuple[int, int]:
        """Alice's (wins, ties) over `rollouts` random completions (the RATE query)."""
        if self.ended:
            raise IllegalMove("RATE after the hand ended")
        return _kernels.rate_counts(self.stream, self._cards, self.known, rollouts)

    def apply(self, action: Action) -> Event:
        if self.ended:
            raise IllegalMove(f"hand {self.hand} is over")
        amount = verify_action(action, self.stack)
        pot, stack, rnd = self.pot, self.stack, self.round
        kind = action.kind
        if kind == CHECK:
            response = CHECK
            if rnd < ROUNDS:
                self.round = rnd + 1
            else:
                self._showdown()
        elif kind == FOLD:
            response = ""
            self._finish(END_ALICE_FOLD, stack - START_STACK)
        elif _kernels.bob_calls(self.stream, self._cards, BOARD_SIZE_BY_ROUND[rnd - 1], pot, amount,
                                self.bob_rollouts):
            response = CALL
            self.stack -= amount
            self.opp_stack -= amount
            self.pot += 2 * amount
            if rnd < ROUNDS:
                self.round = rnd + 1
            else:
                self._showdown()
        else:
            response = FOLD
            self._finish(END_BOB_FOLD, stack + pot - START_STACK)
        event = _new(Event)
        _set(event, "__dict__", {"hand": self.hand, "round": rnd, "kind": kind,
                                 "amount": amount, "response": response,
                                 "pot_before": pot, "stack_before": stack, "end": self.end, "delta": self.delta})
        return event

    def _showdown(self) -> None:
        if self.outcome > 0:
            won = self.pot
        elif self.outcome == 0:
            won = self.pot // 2
        else:
            won = 0
        self._finish(END_SHOWDOWN, self.stack + won - START_STACK)

    def _finish(self, end: int, delta: int) -> None:
        self.end = end
        self.delta = delta
