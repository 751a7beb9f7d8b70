"""TwoCardDraw through the game contract (engine/core/contract.py): one hand, player and server as seats.

The judge plays the server from a strategy file; here both seats decide, so the contract covers
the whole hand's rules. Cards come from the judge's deal for (seed, hand 0): each seat's two,
then each seat's replacements, in the order the draws use them.
"""

from dataclasses import dataclass

import numpy as np

from engine.core import seeds
from engine.core.contract import HeadsUpPokerBot
from engine.core.errors import IllegalMove
from engine.twocarddraw import _kernels as K
from engine.twocarddraw import rules as R
from engine.twocarddraw.judge import redraw
from engine.twocarddraw.state import DRAW_PLAYER, DRAW_SERVER, OVER, Event, HandState

BOT_PROTOCOL = HeadsUpPokerBot


@dataclass
class Hand:
    rules: HandState  # betting and draws: whose turn, what is legal
    cards: list[list[int]]  # [player, server], each sorted, current
    fresh: tuple[tuple[int, int], tuple[int, int]]  # each seat's replacement cards


@dataclass(frozen=True)
class SeatView:
    """What one seat knows: its cards, the betting so far, the other's draw count, and the other's
    cards only once a showdown shows them."""

    seat: int
    cards: tuple[int, int]
    phase: str  # state.BET1, DRAW_PLAYER, DRAW_SERVER, BET2 or OVER
    round_bets: int  # bets in the current betting round (what a decision faces)
    bets1: int  # round 1's bets once it closed
    history: int  # rules.HISTORIES index once round 1 closed, else -1
    drew: tuple[int, int]  # cards drawn by [player, server], -1 before drawing
    opponent: tuple[int, int] | None  # shown at a showdown


class TwoCardDraw:
    name = "twocarddraw"
    seats = 2
    lists_every_action = True

    def __init__(self, bets: R.BetSizes = R.BetSizes()):
        self.bets = bets

    def start(self, seed: int) -> Hand:
        cards = np.zeros((1, 8), dtype=np.int64)
        K.deal_hands(np.uint64(seeds.match_key(seed)), 0, 1, int(seeds.Purpose.DEAL), int(seeds.Purpose.OPPONENT),
                     cards, np.zeros((1, 5)))
        c = [int(x) for x in cards[0]]
        return Hand(HandState(self.bets), [sorted(c[0:2]), sorted(c[2:4])], ((c[4], c[5]), (c[6], c[7])))

    def to_act(self, state: Hand) -> int | None:
        return None if state.rules.phase == OVER else state.rules.actor

    def legal(self, state: Hand) -> tuple[int, ...]:
        return state.rules.legal()

    def check(self, state: Hand, action: int) -> None:
        if isinstance(action, bool) or action not in state.rules.legal():
            raise IllegalMove(f"{action!r} is not legal in {state.rules.phase} (legal: {state.rules.legal()})")

    def apply(self, state: Hand, action: int) -> Event:
        self.check(state, action)
        phase = state.rules.phase
        event = state.rules.apply(action)
        if phase in (DRAW_PLAYER, DRAW_SERVER):
            seat = R.PLAYER if phase == DRAW_PLAYER else R.SERVER
            state.cards[seat] = redraw(state.cards[seat], action, state.fresh[seat])
        return event

    def view(self, state: Hand, seat: int) -> SeatView:
        st = state.rules
        shown = st.phase == OVER and st.folded < 0
        return SeatView(seat=seat, cards=tuple(state.cards[seat]), phase=st.phase, round_bets=st.round_bets,
                        bets1=st.bets1, history=st.history, drew=tuple(st.drew),
                        opponent=tuple(state.cards[1 - seat]) if shown else None)

    def hidden(self, state: Hand, seat: int) -> frozenset[int]:
        """The other seat's card values that this seat does not hold itself (values repeat: 0..4)."""
        if state.rules.phase == OVER and state.rules.folded < 0:
            return frozenset()
        return frozenset(state.cards[1 - seat]) - frozenset(state.cards[seat])

    def returns(self, state: Hand) -> tuple[float, ...]:
        profit = state.rules.profit(R.hand_index(*state.cards[R.PLAYER]), R.hand_index(*state.cards[R.SERVER]))
        return (float(profit), float(-profit))


GAME = TwoCardDraw()
