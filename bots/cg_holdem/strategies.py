"""CodinGame Hold'em bots: the decision logic, standard library only.

Each bot sees what the contest shows (Setup, then one Turn per decision) and answers an
output line. The Monte Carlo equity function is injected: numba in process
(bots/cg_holdem/__init__.py), pure Python in the exported submission, so both run this
same code. The preflop knowledge comes from the computed push/fold chart.
"""

import random
from dataclasses import dataclass

from bots.base import Ranged, ranged, seed_field
from bots.cg_holdem.pushfold_chart import CALL_DEPTH, EQUITY_VS_RANDOM, PUSH_DEPTH
from engine.cg_holdem.rules import big_blind

MAX_SAMPLES = 100_000  # Monte Carlo deals per decision: far past a 50 ms turn already
MAX_POT_FRACTION = 10.0  # bets beyond 10 pots are all-ins in all but name
MAX_BB = 1000.0  # depths and sizes in big blinds: no table is that deep


# -- what a bot can work out from its inputs -------------------------------------------
class View:
    """One decision seen from my seat. Folds are tracked across turns of the same hand,
    since the history only covers rounds since my previous decision. The figures a bot
    may not need (opponents, minimum bet, depth, hand class) are worked out when asked."""

    def __init__(self, setup, turn, folded, bb: int = 0):
        self.turn = turn
        self.me = me = setup.me
        self.players = setup.players
        self.folded = folded
        self.bb = bb = bb or big_blind(turn.hand)  # another table's blind (a hand history) when given
        self.preflop = not turn.board
        self.stack = turn.stacks[me]
        self.mine = turn.chips[me]
        self.pot = sum(turn.chips)
        top = max(turn.chips)
        self.call = (max(top, bb) if self.preflop else top) - self.mine
        self.raised = top > bb  # someone put in more than the big blind
        self._opponents = None
        self._min_bet = None

    @property
    def opponents(self) -> list[int]:
        """Seats still in the hand besides mine (not folded, chips behind or in the pot)."""
        if self._opponents is None:
            me, folded, stacks, chips = self.me, self.folded, self.turn.stacks, self.turn.chips
            self._opponents = [s for s in range(self.players)
                               if s != me and s not in folded and (stacks[s] > 0 or chips[s] > 0)]
        return self._opponents

    @property
    def min_bet(self) -> int:
        if self._min_bet is None:
            self._min_bet = next((int(p[4:]) for p in self.turn.possible if p.startswith("BET_")), 0)
        return self._min_bet

    @property
    def effective_bb(self) -> float:
        """The stack at stake in big blinds: mine, or the deepest opponent's if smaller."""
        stacks, chips = self.turn.stacks, self.turn.chips
        deepest = 0
        for s in self.opponents:
            deepest = max(deepest, stacks[s] + chips[s])
        return min(self.stack + self.mine, deepest) / self.bb

    @property
    def hand_class(self) -> int:
        c0, c1 = self.turn.cards
        a, b = c0 % 13, c1 % 13
        hi, lo = (a, b) if a > b else (b, a)
        return hi * 13 + lo if (c0 // 13 == c1 // 13 or hi == lo) else lo * 13 + hi

    def can(self, action: str) -> bool:
        return action in self.turn.possible

    def passive(self) -> str:
        return "CHECK" if self.call == 0 else "FOLD"

    def bet(self, chips: int) -> str:
        """Add about ``chips`` now: at least the minimum raise, all-in when it is most of
        the stack, a call when raising is not allowed."""
        if not self.min_bet:
            return "ALL-IN" if self.can("ALL-IN") else "CALL"
        chips = max(int(chips), self.min_bet)
        if chips >= self.stack * 0.8:
            return "ALL-IN"
        return f"BET {chips}"

    def pot_bet(self, fraction: float) -> str:
        return self.bet(self.call + fraction * (self.pot + self.call))

    def pot_odds(self) -> float:
        return self.call / (self.pot + self.call) if self.call else 0.0


class Player:
    """Bookkeeping shared by the bots: setup, fold tracking, per-game reseeding."""

    def __init__(self, config, equity=None):
        self.config = config
        self.equity = equity
        self._rng_seed = getattr(config, "seed", 0)
        self._rng = None
        self.setup = None
        self.hand = 0
        self.folded = set()

    @property
    def rng(self) -> random.Random:
        """Made on first use: seeding a Mersenne Twister costs more than most decisions."""
        if self._rng is None:
            self._rng = random.Random(self._rng_seed)
        return self._rng

    def new_game(self, key: int) -> None:
        self._rng_seed, self._rng = key, None
        if self.equity is not None and hasattr(self.equity, "reseed"):
            self.equity.reseed(key)

    def start(self, setup) -> None:
        self.setup = setup
        self.hand = 0
        self.folded = set()

    def act(self, turn) -> str:
        for _, hand, player, action, _ in turn.actions:
            if hand != self.hand:
                self.hand, self.folded = hand, set()
            if action in ("FOLD", "TIMEOUT"):
                self.folded.add(player)
        if turn.hand != self.hand:
            self.hand, self.folded = turn.hand, set()
        return self.decide(View(self.setup, turn, self.folded))

    def decide(self, view: View) -> str:
        raise NotImplementedError


# -- the bots --------------------------------------------------------------------------
@dataclass(frozen=True)
class StationConfig(Ranged):
    """Calls everything (CALL becomes CHECK when free and ALL-IN when short)."""

    seed: int = seed_field(0)


class CallingStation(Player):
    def act(self, turn) -> str:  # nothing to track
        return "CALL"


@dataclass(frozen=True)
class EquityConfig(Ranged):
    samples: int = ranged(400, 1, MAX_SAMPLES)  # Monte Carlo deals per decision
    bet_equity: float = ranged(0.75, 0.0, 1.0)  # bet / raise when equity vs random hands is above this
    bet_fraction: float = ranged(1.0, 0.0, MAX_POT_FRACTION, lo_open=True)  # of the pot after calling
    call_margin: float = ranged(0.05, -1.0, 1.0)  # call when equity > pot odds + margin
    seed: int = seed_field(0)


class MonteCarloBot(Player):
    """Equity against random hands versus pot odds: the classic simple contest bot."""

    def decide(self, view: View) -> str:
        c = self.config
        eq = self.equity(view.turn.cards, view.turn.board, max(1, len(view.opponents)), c.samples)
        if eq > c.bet_equity and view.min_bet:
            return view.pot_bet(c.bet_fraction)
        if view.call == 0:
            return "CHECK"
        return "CALL" if eq > view.pot_odds() + c.call_margin else "FOLD"


@dataclass(frozen=True)
class PushFoldConfig(Ranged):
    multiway_tighten: float = ranged(1.5, 0.0, 10.0, lo_open=True)  # push depth divided by this per extra opponent
    call_tighten: float = ranged(1.0, 0.0, 10.0, lo_open=True)  # call depth / this per opponent behind
    seed: int = seed_field(0)


def push_ok(view: View, depth_scale: float) -> bool:
    return PUSH_DEPTH[view.hand_class] >= view.effective_bb * depth_scale


def call_push_ok(view: View, depth_scale: float) -> bool:
    """Call an all-in-sized bet when the chart calls at the depth the call costs."""
    depth = min(view.call, view.stack) / view.bb
    return CALL_DEPTH[view.hand_class] >= depth * depth_scale


class PushFoldBot(Player):
    """Preflop all-in or fold from the computed chart; postflop check/fold, call when all-in."""

    def decide(self, view: View) -> str:
        if not view.preflop:
            return view.passive()
        c = self.config
        extra = max(0, len(view.opponents) - 1)
        if not view.raised:
            return "ALL-IN" if push_ok(view, c.multiway_tighten ** extra) else view.passive()
        return "CALL" if call_push_ok(view, c.call_tighten ** extra) else view.passive()


@dataclass(frozen=True)
class AggressiveConfig(Ranged):
    push_below_bb: float = ranged(8.0, 0.0, MAX_BB)  # at or under this effective stack: push/fold by the chart
    open_equity: float = ranged(0.50, 0.0, 1.0)  # open-raise classes whose equity vs one random hand is above this
    open_size_bb: float = ranged(4.0, 0.0, MAX_BB, lo_open=True)  # open raise: chips added, in big blinds
    reraise_equity: float = ranged(0.62, 0.0, 1.0)  # re-raise a raise with classes above this
    call_equity: float = ranged(0.55, 0.0, 1.0)  # call a raise with classes above this (scaled by pot odds)
    value_equity: float = ranged(0.62, 0.0, 1.0)  # postflop: bet for value above this Monte Carlo equity
    strong_equity: float = ranged(0.80, 0.0, 1.0)  # postflop: raise big above this
    bet_fraction: float = ranged(0.75, 0.0, MAX_POT_FRACTION, lo_open=True)  # postflop value bet, fraction of the pot
    cbet_frequency: float = ranged(0.6, 0.0, 1.0)  # continuation bet when checked to after raising preflop
    cbet_fraction: float = ranged(0.4, 0.0, MAX_POT_FRACTION, lo_open=True)
    call_margin: float = ranged(0.03, -1.0, 1.0)
    bet_respect: float = ranged(0.4, 0.0, 1.0)  # extra equity wanted to call a pot-sized bet (bettors are not random)
    multiway_tighten: float = ranged(1.5, 0.0, 10.0, lo_open=True)
    samples: int = ranged(300, 1, MAX_SAMPLES)
    seed: int = seed_field(0)


class AggressiveBot(Player):
    """Raises first in, push/fold when short, value bets and c-bets postflop."""

    def start(self, setup) -> None:
        super().start(setup)
        self.aggressor_hand = 0

    def decide(self, view: View) -> str:
        return self.preflop(view) if view.preflop else self.postflop(view)

    def preflop(self, view: View) -> str:
        c = self.config
        extra = max(0, len(view.opponents) - 1)
        strength = EQUITY_VS_RANDOM[view.hand_class] - 0.03 * extra
        if view.effective_bb <= c.push_below_bb:
            if not view.raised:
                return "ALL-IN" if push_ok(view, c.multiway_tighten ** extra) else view.passive()
            return "CALL" if call_push_ok(view, c.multiway_tighten ** extra) else view.passive()
        if not view.raised:
            if strength >= c.open_equity and view.min_bet:
                self.aggressor_hand = view.turn.hand
                return view.bet(c.open_size_bb * view.bb + view.call)
            return view.passive()
        if strength >= c.reraise_equity and view.min_bet:
            self.aggressor_hand = view.turn.hand
            return view.bet(view.call * 3)
        if view.call >= view.stack:  # facing an all-in: the chart decides
            return "CALL" if call_push_ok(view, c.multiway_tighten ** extra) else "FOLD"
        needed = c.call_equity + 0.5 * view.pot_odds() - 0.17 + self.respect(view)
        return "CALL" if strength >= needed else view.passive()

    def respect(self, view: View) -> float:
        """Bets come from stronger-than-random hands: want more equity the bigger they are."""
        before = max(view.pot - view.call, 1)
        return self.config.bet_respect * min(1.0, view.call / before)

    def postflop(self, view: View) -> str:
        c = self.config
        eq = self.equity(view.turn.cards, view.turn.board, max(1, len(view.opponents)), c.samples)
        if eq >= c.strong_equity and view.min_bet:
            return view.pot_bet(1.0)
        if eq >= c.value_equity:
            if view.min_bet and (view.call == 0 or eq >= (c.value_equity + c.strong_equity) / 2):
                return view.pot_bet(c.bet_fraction)
            if view.call and eq < view.pot_odds() + c.call_margin + self.respect(view):
                return "FOLD"
            return "CALL"
        if view.call == 0:
            bluff = self.aggressor_hand == view.turn.hand and len(view.opponents) == 1
            if bluff and view.min_bet and self.rng.random() < c.cbet_frequency:
                self.aggressor_hand = 0  # one barrel
                return view.pot_bet(c.cbet_fraction)
            return "CHECK"
        return "CALL" if eq > view.pot_odds() + c.call_margin + self.respect(view) else "FOLD"
