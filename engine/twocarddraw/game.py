"""TwoCardDraw through the game contract (engine/core/contract.py): one hand, player and server as seats.

By default both seats decide, so the contract covers the whole hand's rules. Given a server
strategy (`TwoCardDraw(server=strategy)`), the game is the judge's: the server is the house,
answering by its strategy from the random numbers drawn with the deal (as the judge's tester
plays it), and the player is the one seat; the tester's showdown call is then the player's last
decision (`SHOWDOWN`, one legal answer, 0), since it shows the server's cards. Cards come from
the judge's deal for (seed, hand): each seat's two, then each seat's replacements, in the order
the draws use them.

Played through the referee loop (engine/core/referee.py) by `PlayerSeat`, which makes the
tester's calls (init, new_hand with the winnings so far, round1, draw, round2, showdown) on the
bot's clock, a bot gets exactly what the judge's play_bot gives it.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.core import seeds
from engine.core.contract import HeadsUpPokerBot
from engine.core.errors import IllegalMove
from engine.core.seats import END_MATCH, BadOutputRule, BotSeat, SeatFault
from engine.twocarddraw import _kernels as K
from engine.twocarddraw import rules as R
from engine.twocarddraw.judge import CRASH, TIME_LIMIT, BotClock, BotFault, _checked, _facing, _sample, redraw
from engine.twocarddraw.state import BET1, BET2, DRAW_PLAYER, DRAW_SERVER, OVER, Event, HandState
from engine.twocarddraw.strategy import Strategy

BOT_PROTOCOL = HeadsUpPokerBot
SHOWDOWN = "showdown"  # with a house server: the tester's showdown call is pending
DRAW_HOUSE_TURN = 2  # the deal's numbers: round 1's two server decisions, the draw, then round 2's (3, 4)


@dataclass
class Hand:
    rules: HandState  # betting and draws: whose turn, what is legal
    cards: list[list[int]]  # [player, server], each sorted, current
    fresh: tuple[tuple[int, int], tuple[int, int]]  # each seat's replacement cards
    uniforms: tuple[float, ...] = ()  # the house server's 5 decision draws, dealt with the cards
    house_turn: int = 0  # the next of them the house uses
    shown: bool = False  # with a house server: the showdown call was made


@dataclass(frozen=True)
class Turn:
    """What one action set off: the seat's own event, then the house server's answers by rule."""

    events: tuple[Event, ...]


@dataclass(frozen=True)
class SeatView:
    """What one seat knows: its cards, the betting so far, the other's draw count, and the other's
    cards only once a showdown shows them."""

    seat: int
    cards: tuple[int, int]
    phase: str  # state.BET1, DRAW_PLAYER, DRAW_SERVER, BET2, OVER, or SHOWDOWN (house server)
    round_bets: int  # bets in the current betting round (what a decision faces)
    bets1: int  # round 1's bets once it closed
    history: int  # rules.HISTORIES index once round 1 closed, else -1
    drew: tuple[int, int]  # cards drawn by [player, server], -1 before drawing
    opponent: tuple[int, int] | None  # shown at a showdown


class TwoCardDraw:
    name = "twocarddraw"
    lists_every_action = True

    def __init__(self, bets: R.BetSizes = R.BetSizes(), server: Strategy | None = None):
        self.server = server
        self.bets = server.bets if server is not None else bets
        self.seats = 1 if server is not None else 2

    def start(self, seed: int) -> Hand:
        return self.start_unit(seed, 0)

    def start_unit(self, seed: int, unit: int) -> Hand:
        """Hand `unit` of the match `seed`, as the judge deals it (the referee loop's optional hook)."""
        cards, uniforms = np.zeros((1, 8), dtype=np.int64), np.zeros((1, 5))
        K.deal_hands(np.uint64(seeds.match_key(seed)), unit, 1, int(seeds.Purpose.DEAL),
                     int(seeds.Purpose.OPPONENT), cards, uniforms)
        c = [int(x) for x in cards[0]]
        return Hand(HandState(self.bets), [sorted(c[0:2]), sorted(c[2:4])], ((c[4], c[5]), (c[6], c[7])),
                    tuple(float(u) for u in uniforms[0]))

    def _showdown_pending(self, state: Hand) -> bool:
        return self.server is not None and state.rules.phase == OVER and state.rules.folded < 0 and not state.shown

    def to_act(self, state: Hand) -> int | None:
        if self._showdown_pending(state):
            return R.PLAYER
        return None if state.rules.phase == OVER else state.rules.actor

    def legal(self, state: Hand) -> tuple[int, ...]:
        return (0,) if self._showdown_pending(state) else state.rules.legal()

    def check(self, state: Hand, action: int) -> None:
        legal = self.legal(state)
        if isinstance(action, bool) or action not in legal:
            phase = SHOWDOWN if self._showdown_pending(state) else state.rules.phase
            raise IllegalMove(f"{action!r} is not legal in {phase} (legal: {legal})")

    def apply(self, state: Hand, action: int) -> Turn:
        self.check(state, action)
        if self._showdown_pending(state):
            state.shown = True
            return Turn((Event(SHOWDOWN, R.PLAYER, 0, 0),))
        events = [self._play(state, action)]
        while self.server is not None and state.rules.phase != OVER and state.rules.actor == R.SERVER:
            events.append(self._play(state, self._house(state)))
        return Turn(tuple(events))

    def _play(self, state: Hand, action: int) -> Event:
        phase = state.rules.phase
        event = state.rules.apply(action)
        if phase in (DRAW_PLAYER, DRAW_SERVER):
            seat = R.PLAYER if phase == DRAW_PLAYER else R.SERVER
            state.cards[seat] = redraw(state.cards[seat], action, state.fresh[seat])
        return event

    def _house(self, state: Hand) -> int:
        """The server's answer as the judge's tester draws it from its strategy and the deal's numbers."""
        st, hand = state.rules, R.hand_index(*state.cards[R.SERVER])
        turn = DRAW_HOUSE_TURN if st.phase == DRAW_SERVER else state.house_turn
        if st.phase == BET1:
            row = R.round1_row(st.round_bets, hand)
        elif st.phase == DRAW_SERVER:
            row = R.draw_row(st.history, st.drew[R.PLAYER], hand)
        else:
            row = R.round2_row(st.history, st.drew[R.PLAYER], st.drew[R.SERVER], st.round_bets, hand)
        state.house_turn = turn + 1
        return _sample(self.server.probs[row], state.uniforms[turn])

    def view(self, state: Hand, seat: int) -> SeatView:
        st = state.rules
        shown = st.phase == OVER and st.folded < 0
        phase = SHOWDOWN if self._showdown_pending(state) else st.phase
        return SeatView(seat=seat, cards=tuple(state.cards[seat]), phase=phase, round_bets=st.round_bets,
                        bets1=st.bets1, history=st.history, drew=tuple(st.drew),
                        opponent=tuple(state.cards[1 - seat]) if shown else None)

    def hidden(self, state: Hand, seat: int) -> frozenset[int]:
        """The other seat's card values that this seat does not hold itself (values repeat: 0..4)."""
        if state.rules.phase == OVER and state.rules.folded < 0:
            return frozenset()
        return frozenset(state.cards[1 - seat]) - frozenset(state.cards[seat])

    def returns(self, state: Hand) -> tuple[float, ...]:
        profit = state.rules.profit(R.hand_index(*state.cards[R.PLAYER]), R.hand_index(*state.cards[R.SERVER]))
        return (float(profit), float(-profit))[:self.seats]


GAME = TwoCardDraw()

_FAULT_KINDS = {CRASH: "crash", TIME_LIMIT: "time"}  # an unlisted return stays 'bad-output'


class PlayerSeat(BotSeat):
    """A tester-shaped bot (judge.TwoCardDrawBot) as the player of `TwoCardDraw(server=strategy)`, called
    as the judge's play_bot calls it: reveal_strategy / prepare_offline if it has them, then init on
    its clock before the first hand; per decision new_hand (with the match's winnings so far), round1,
    draw or round2, and showdown when the server's cards are shown. An unlisted return, a raise or the
    CPU limit ends the match, as in the judge. (A bot that learns across hands is replayed from hand 0
    by the judge's chunks: play its match from unit 0 here too.)"""

    def __init__(self, bot, strategy: Strategy, *, cpu_limit: float = R.CPU_LIMIT_SECONDS):
        super().__init__(bot, rule=BadOutputRule(END_MATCH))
        self.strategy, self.clock = strategy, BotClock(cpu_limit)
        self.started, self.winnings = False, 0

    def start_match(self, key: int) -> None:
        if hasattr(self.bot, "new_match"):  # as the judge gives cardlab's bots the match's key before init
            self.bot.new_match(key)

    def begin(self, game, seat: int, unit_seed: int) -> None:
        super().begin(game, seat, unit_seed)
        if not self.started:
            self.started = True
            if hasattr(self.bot, "reveal_strategy"):
                self.bot.reveal_strategy(self.strategy)
            if hasattr(self.bot, "prepare_offline"):
                self.bot.prepare_offline(self.strategy.bets.bet1, self.strategy.bets.bet2)
            self._tester(lambda: self.clock.call(self.bot.init, self.strategy.bets.bet1, self.strategy.bets.bet2))

    def act(self, view: SeatView, legal: Sequence) -> int:
        return self._tester(lambda: self._call(view))

    def _tester(self, call):
        try:
            return call()
        except BotFault as fault:
            kind = _FAULT_KINDS.get(fault.status, "bad-output")
            raise SeatFault(kind, str(fault), gone=kind != "bad-output") from fault

    def _call(self, view: SeatView) -> int:
        c1, c2 = view.cards
        call, bot = self.clock.call, self.bot
        if view.phase == SHOWDOWN:
            call(bot.showdown, c1, c2, *view.opponent)
            return 0
        if view.phase == BET1 and view.round_bets == 0:
            return _checked(call(bot.new_hand, c1, c2, self.winnings), {0: R.CALL, 1: R.RAISE}, "new_hand")
        if view.phase == BET1:
            return _checked(call(bot.round1, c1, c2, view.round_bets), _facing(view.round_bets), "round1")
        if view.phase == DRAW_PLAYER:
            return _checked(call(bot.draw, c1, c2, view.bets1), {0: 0, 1: 1, 2: 2}, "draw")
        assert view.phase == BET2, view.phase
        bets2 = view.round_bets
        answer = call(bot.round2, c1, c2, view.bets1, bets2, view.drew[R.SERVER])
        return _checked(answer, {0: R.CALL, 1: R.CALL, 2: R.RAISE} if bets2 == 0 else _facing(bets2), "round2")

    def end(self, returns: tuple[float, ...]) -> None:
        self.winnings += int(returns[R.PLAYER])
