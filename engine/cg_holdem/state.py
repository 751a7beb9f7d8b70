"""The referee's game state: positions, blinds, betting, replacement, settlement, eliminations.

One ``Game`` is one CodinGame game (many hands). The judge asks ``to_act`` for a decision,
feeds the player's parsed output to ``apply`` and reads the history for the protocol.
Every rule below is stated in docs/rules/cg_holdem.md; the section comments point there.
"""

from typing import NamedTuple

import numpy as np

from engine.cg_holdem._kernels import showdown_winnings
from engine.cg_holdem.deck import DeckSource
from engine.cg_holdem.rules import (
    ALL_IN,
    BET,
    CALL,
    CHECK,
    FOLD,
    NONE,
    RAISE_CAP,
    TIMEOUT,
    GameConfig,
    big_blind,
)
from engine.cg_holdem.settle import pay_layers

PREFLOP, FLOP, TURN, RIVER = 0, 1, 2, 3
_BOARD_AFTER_STREET = (0, 3, 4, 5)


class Action(NamedTuple):
    """A parsed output: kind is FOLD/CHECK/CALL/BET/ALL-IN/TIMEOUT; amount only for BET."""

    kind: str
    amount: int = 0


class HistoryLine(NamedTuple):
    """One round of the game: a decision after replacement, or a NONE round (player -1).
    A tuple in the field order of the protocol's history line, so turns share it as is."""

    round: int
    hand: int
    player: int
    action: str
    board: tuple[int, ...]  # cards dealt when it happened


class ShowdownLine(NamedTuple):
    """A finished hand as every player later sees it: final board and all dealt hole cards."""

    hand: int
    board: tuple[int, ...]
    cards: tuple[tuple[int, int] | None, ...]  # None = seat eliminated before the hand


class HandRecord(NamedTuple):
    """What the log keeps of one hand (cancelled hands included)."""

    hand: int
    big_blind: int
    dealer: int
    sb_seat: int
    bb_seat: int
    start_stacks: tuple[int, ...]
    posted: tuple[int, ...]
    cards: tuple[tuple[int, int] | None, ...]
    board: tuple[int, ...]  # as far as it was dealt
    actions: tuple[tuple[int, int, str, int, int], ...]  # (round, player, replaced action, chips added, street)
    folded: tuple[bool, ...]  # at the end of the hand (seats not dealt in count as folded)
    totals: tuple[int, ...]
    won: tuple[int, ...]
    end_stacks: tuple[int, ...]
    showdown: bool
    cancelled: bool
    first_round: int
    last_round: int


class RefereeOverflow(RuntimeError):
    """The Java referee would crash here (docs/rules/cg_holdem.md#differences): a NONE round past the round cap."""


# tuple.__new__ skips the NamedTuple's Python-level __new__ on the per-decision path.
_new_tuple = tuple.__new__
_NO_CARDS = (0, 0)
_CALL_ONLY, _ALL_IN_ONLY, _FOLD_ONLY, _CHECK_FOLD = (CALL,), (ALL_IN,), (FOLD,), (CHECK, FOLD)


class Game:
    """A whole game. After construction the game has advanced to the first decision."""

    __slots__ = (  # fixed attributes: faster access on the per-decision path
        "acted", "actions", "bb", "bb_seat", "board", "cap", "config", "dealer", "decided", "deck_source",
        "first_big_blind", "first_round", "folded", "full_board", "hand_nb", "hands", "history", "hole",
        "in_hand", "last_raise", "last_raiser", "last_total", "n", "over", "overflow", "posted", "raise_count",
        "rank", "round", "sb", "sb_seat", "seats_after", "showdowns", "stack", "start_stacks", "street", "street_bet",
        "timed_out", "to_act", "top", "total",
    )

    def __init__(self, config: GameConfig, seed: int):
        self.config = config
        self.n = n = config.players
        self.seats_after = tuple(tuple((seat + k) % n for k in range(1, n + 1)) for seat in range(n))  # clockwise
        self.cap = config.round_cap
        self.deck_source = DeckSource(seed, self.n)
        self.first_big_blind = self.deck_source.first_big_blind
        self.stack = list(config.starting_stacks())
        self.rank: list[int | None] = [None] * self.n  # elimination rank, 0 = first out
        self.round = 0
        self.hand_nb = 0
        self.bb_seat = -1
        self.history: list[HistoryLine] = []
        self.showdowns: list[ShowdownLine] = []
        self.hands: list[HandRecord] = []
        self.over = False
        self.overflow = False  # the referee-crash case was hit (game ended there)
        self.timed_out = [False] * self.n
        self.to_act = -1
        self._start_hand()
        self._run()

    # -- hand setup (docs/rules/cg_holdem.md#seats-and-blinds, docs/rules/cg_holdem.md#deck) --
    def _next_live(self, seat: int, step: int) -> int:
        for k in range(1, self.n + 1):
            s = (seat + step * k) % self.n
            if self.stack[s] > 0:
                return s
        raise AssertionError("no live seat")

    def _start_hand(self) -> None:
        n, stack = self.n, self.stack
        self.hand_nb += 1
        self.bb = bb = big_blind(self.hand_nb)
        self.sb = bb // 2
        self.in_hand = in_hand = [x > 0 for x in stack]
        self.bb_seat = self.first_big_blind if self.hand_nb == 1 else self._next_live(self.bb_seat, 1)
        self.sb_seat = self._next_live(self.bb_seat, -1)
        self.dealer = self.sb_seat if in_hand.count(True) == 2 else self._next_live(self.sb_seat, -1)
        self.start_stacks = tuple(stack)
        self.folded = [not x for x in in_hand]
        self.acted = [False] * n
        self.actions: list[tuple[int, int, str, int, int]] = []
        self.decided = False
        self.first_round = self.round + 1
        self._post_blinds()
        self._deal(self.deck_source.next_hand())
        self.street = PREFLOP
        self.last_total = bb
        self.last_raise = bb
        self.last_raiser = -1
        self.raise_count = 1  # the big blind counts as the first raise
        self.to_act = self._next_active(self.bb_seat)

    def _post_blinds(self) -> None:
        bb, sb, stack = self.bb, self.sb, self.stack
        posted = [0] * self.n
        for s in range(self.n):  # seat order, never a raise
            if not self.in_hand[s]:
                continue
            if s == self.bb_seat:
                owed = bb
            elif s == self.sb_seat:
                owed = sb
            else:  # every other live seat owes the SB, yet goes all-in when short of a BB
                owed = sb if stack[s] >= bb else stack[s]
            posted[s] = min(owed, stack[s])
            stack[s] -= posted[s]
        self.posted = tuple(posted)
        self.total = posted
        self.street_bet = list(posted)
        self.top = max(posted)

    def _deal(self, deck: list[int]) -> None:
        n, in_hand = self.n, self.in_hand
        order = [s for s in self.seats_after[self.dealer] if in_hand[s]]
        count = len(order)
        self.hole: list[tuple[int, int] | None] = [None] * n
        for i, s in enumerate(order):
            self.hole[s] = (deck[i], deck[count + i])
        top = 2 * count  # burn, flop x3, burn, turn, burn, river
        self.full_board = (deck[top + 1], deck[top + 2], deck[top + 3], deck[top + 5], deck[top + 7])
        self.board = ()

    # -- betting state (docs/rules/cg_holdem.md#betting) --------------------------------
    def _next_active(self, seat: int) -> int:
        folded, stack = self.folded, self.stack
        for s in self.seats_after[seat]:
            if not folded[s] and stack[s] > 0:
                return s
        return -1

    def call_amount(self, s: int) -> int:
        top = self.top  # the largest total in the hand
        if self.street == PREFLOP and top < self.bb:
            top = self.bb  # preflop everybody must reach a full big blind
        return top - self.total[s]

    def min_raise(self, s: int) -> int:
        return self.last_raise + self.last_total - self.street_bet[s]

    def capped(self) -> bool:
        return self.raise_count > RAISE_CAP

    def possible_actions(self) -> tuple[str, ...]:
        """In the referee's order (docs/rules/cg_holdem.md#betting):
        [CALL | ALL-IN], [ALL-IN], [BET_min], [CHECK], FOLD."""
        s = self.to_act
        stack = self.stack[s]
        top = self.bb if self.street == PREFLOP and self.top < self.bb else self.top  # call_amount, inlined
        call = top - self.total[s]
        capped = self.raise_count > RAISE_CAP
        if call == 0:
            head = ()
        elif call < stack:
            head = _CALL_ONLY
        else:
            head = () if capped else _ALL_IN_ONLY
        if s != self.last_raiser and not capped:
            if head != _ALL_IN_ONLY:
                head += _ALL_IN_ONLY
            x = self.last_raise + self.last_total - self.street_bet[s]  # the minimum raise
            if x < stack:
                head += (f"{BET}_{x}",)
        return head + (_CHECK_FOLD if call == 0 else _FOLD_ONLY)

    def replace(self, action: Action) -> Action:
        """The replacement table (docs/rules/cg_holdem.md#replacement): what the referee plays for this output."""
        kind, chips = self._resolve(self.to_act, action.kind, action.amount)
        if kind == action.kind and chips == action.amount:
            return action
        return Action(kind, chips if kind == BET else 0)

    def _resolve(self, s: int, kind: str, amount: int) -> tuple[str, int]:
        """The replacement table and its cost: (the kind played, chips it adds)."""
        if kind == FOLD or kind == TIMEOUT:
            return kind, 0
        stack = self.stack[s]
        top = self.bb if self.street == PREFLOP and self.top < self.bb else self.top  # call_amount, inlined
        call = top - self.total[s]
        call_or_all_in = (CALL, call) if call < stack else (ALL_IN, stack)
        if kind == CALL:
            return (CHECK, 0) if call == 0 else call_or_all_in
        if kind == CHECK:
            return (CHECK, 0) if call == 0 else (FOLD, 0)
        may_raise = self.raise_count <= RAISE_CAP and s != self.last_raiser
        if kind == ALL_IN:
            return (ALL_IN, stack) if may_raise or call >= stack else call_or_all_in
        if amount <= 0:  # BET
            return FOLD, 0
        if amount <= call or not may_raise:
            return call_or_all_in
        if amount >= stack:
            return ALL_IN, stack
        least = self.last_raise + self.last_total - self.street_bet[s]
        if amount < least:
            return (BET, least) if least < stack else (ALL_IN, stack)
        return BET, amount

    # -- playing a decision -------------------------------------------------------------
    def apply(self, action: Action) -> HistoryLine:
        """Play the current player's (parsed) output; returns its history line."""
        return self.play(action.kind, action.amount)

    def play(self, kind: str, amount: int = 0) -> HistoryLine:
        """``apply`` without the Action wrapper: the judge's per-decision path."""
        s = self.to_act
        if s < 0:
            raise RuntimeError("no decision is pending")
        kind, chips = self._resolve(s, kind, amount)
        if chips:
            self.stack[s] -= chips
            self.total[s] += chips
            self.street_bet[s] += chips
            if self.total[s] > self.top:
                self.top = self.total[s]
            # Every chip movement is tested against the old level; only full raises move it.
            raised = self.street_bet[s] - self.last_total
            if raised >= self.last_raise:
                self.last_raise = raised
                self.last_total = self.street_bet[s]
                self.last_raiser = s
                self.raise_count += 1
        elif kind == FOLD or kind == TIMEOUT:
            self.folded[s] = True
            if kind == TIMEOUT:  # the stack leaves the game; eliminated at hand end
                self.timed_out[s] = True
                self.stack[s] = 0
        self.acted[s] = True
        text = f"{BET}_{chips}" if kind == BET else kind
        line = _new_tuple(HistoryLine, (self.round, self.hand_nb, s, text, self.board))
        self.history.append(line)
        self.actions.append((self.round, s, text, chips, self.street))
        self.to_act = self._next_active(s)
        self._run()
        return line

    # -- the referee's loop between decisions --------------------------------------------
    # (docs/rules/cg_holdem.md#flow-of-a-hand, docs/rules/cg_holdem.md#round-cap)
    def _street_over(self) -> bool:
        """docs/rules/cg_holdem.md#flow-of-a-hand, checked on the next seat to act (``to_act``,
        set by whoever moved last): action goes round in order, so if that seat is done (acted, at the max total) every
        seat is; the one exception is a lone seat that has not acted, asked only when below
        the max."""
        s = self.to_act
        if s < 0:
            return True
        if self.total[s] < self.top:
            return False
        if self.acted[s]:
            return True
        folded, stack = self.folded, self.stack
        for t in range(self.n):
            if t != s and not folded[t] and stack[t] > 0:
                return False
        return True

    def _run(self) -> None:
        """Advance until a decision is needed (to_act set, round counted) or the game ends."""
        while not self.over:
            if not self._street_over():
                if self.round >= self.cap:
                    self._cancel_hand()
                    return
                self.round += 1
                self.decided = True
                return
            folded, stack = self.folded, self.stack
            contenders = 0
            can_act = 0
            for s in range(self.n):
                if not folded[s]:
                    contenders += 1
                    can_act += stack[s] > 0
            if contenders == 1:
                self._finish_hand(showdown=False)
            elif can_act <= 1:
                if not self.decided:
                    self._none_round()
                    if self.over:
                        return
                self.board = self.full_board
                self._finish_hand(showdown=True)
            elif self.street == RIVER:
                self._finish_hand(showdown=True)
            elif self.round >= self.cap:
                self._cancel_hand()
                return
            else:
                self._next_street()

    def _none_round(self) -> None:
        if self.round >= self.cap:  # the Java referee overflows its history array here
            self.overflow = True
            self._cancel_hand()
            return
        self.round += 1
        self.history.append(HistoryLine(self.round, self.hand_nb, -1, NONE, self.full_board))

    def _next_street(self) -> None:
        self.street += 1
        self.board = self.full_board[:_BOARD_AFTER_STREET[self.street]]  # one tuple per street
        self.street_bet = [0] * self.n
        self.acted = [False] * self.n
        self.last_total = 0
        self.last_raise = self.bb
        self.last_raiser = -1
        self.raise_count = 0
        self.to_act = self._next_active(self.dealer)

    # -- settlement and the end of a hand ---------------------------------------------
    def _finish_hand(self, *, showdown: bool) -> None:
        n, folded, stack = self.n, self.folded, self.stack
        if showdown:
            won = self._showdown_winnings()
        else:  # one contender: pay_layers' uncontested case, no hand values needed
            won = pay_layers(self.total, folded, [0] * n, self.dealer)
        for s in range(n):
            stack[s] += won[s]
        if True in self.timed_out:
            for s in range(n):
                if self.timed_out[s]:
                    stack[s] = 0  # a timed-out player is out whatever comes back to him
        self._record(won, showdown=showdown, cancelled=False)
        self.showdowns.append(_new_tuple(ShowdownLine, (self.hand_nb, self.board, tuple(self.hole))))
        self._eliminate()
        if n - stack.count(0) <= 1:
            self._end_game()
        else:
            self._start_hand()

    def _showdown_winnings(self) -> list[int]:
        """Hand values and layered pots in one numba call (settle.pay_layers' rule)."""
        cards = []
        for pair in self.hole:
            cards += pair or _NO_CARDS  # seats not dealt in are folded: never valued
        won = showdown_winnings(np.array(self.total, np.int64), np.array(self.folded, np.int64),
                                np.array(cards, np.int64), np.array(self.full_board, np.int64), self.dealer)
        return won.tolist()

    def _cancel_hand(self) -> None:
        """Round cap (docs/rules/cg_holdem.md#round-cap): every chip put in this hand goes back to its owner."""
        refund = list(self.total)
        for s in range(self.n):
            if not self.timed_out[s]:
                self.stack[s] += refund[s]
        self._record([0] * self.n, showdown=False, cancelled=True)
        self._eliminate()
        self._end_game()

    def _record(self, won: list[int], *, showdown: bool, cancelled: bool) -> None:
        record = (self.hand_nb, self.bb, self.dealer, self.sb_seat, self.bb_seat, self.start_stacks, self.posted,
                  tuple(self.hole), self.board, tuple(self.actions), tuple(self.folded), tuple(self.total),
                  tuple(won), tuple(self.stack), showdown, cancelled, self.first_round, self.round)
        self.hands.append(_new_tuple(HandRecord, record))  # fields in HandRecord's order

    def _eliminate(self) -> None:
        """Busts of one hand rank by chips put in: fewer = earlier; equal totals share."""
        rank, stack, total = self.rank, self.stack, self.total
        busted = [s for s in range(self.n) if stack[s] == 0 and rank[s] is None]
        if not busted:
            return
        already = self.n - rank.count(None)
        for s in busted:
            rank[s] = already + sum(total[t] < total[s] for t in busted)

    def _end_game(self) -> None:
        self.over = True
        self.to_act = -1

    # -- results (docs/rules/cg_holdem.md#elimination-and-scores) ------------------------
    def scores(self) -> list[int]:
        """CodinGame score: final stack for survivors, rank - players for the eliminated."""
        return [self.stack[s] if self.rank[s] is None else self.rank[s] - self.n for s in range(self.n)]

    def positions(self) -> list[int]:
        """Finishing position, 1 = best; equal scores share a position."""
        sc = self.scores()
        return [1 + sum(o > x for o in sc) for x in sc]
