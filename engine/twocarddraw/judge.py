"""The TopCoder tester, in process: a bot class against a server playing a strategy file.

Calls follow the statement exactly: init once; per hand new_hand(card1, card2, winnings)
(winnings = profit so far, the only sign of a server fold), round1 only when the server
raised, draw, round2 (bets2 = 0: the player opens; a 0 there is read as a check), showdown
only if nobody folded. Randomness per hand comes from (match seed, hand index) only.

Rules we apply where the statement is silent: a bot that raises, returns an unlisted code or
throws ends the test with score 0; so does bot CPU time past 20 s. Hands already played
stay in the log. Memory (64 MB in the contest) is not enforced in process.
"""

import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

import numpy as np

from engine.core import ending, seeds
from engine.core.errors import BadValue
from engine.core.log import ChunkLog
from engine.twocarddraw import _kernels as K
from engine.twocarddraw import rules as R
from engine.twocarddraw.events import EVENTS
from engine.twocarddraw.state import BET1, BET2, OVER, HandState
from engine.twocarddraw.strategy import Strategy

OK, INVALID, CRASH, TIME_LIMIT = "ok", "invalid_return", "crash", "time_limit"
INTERRUPTED = "interrupted"  # an ending signal (engine.core.ending) stopped a judged test


class TwoCardDrawBot(Protocol):
    def init(self, bet1: int, bet2: int) -> int: ...
    def new_hand(self, card1: int, card2: int, winnings: int) -> int: ...
    def round1(self, card1: int, card2: int, bets: int) -> int: ...
    def draw(self, card1: int, card2: int, bets: int) -> int: ...
    def round2(self, card1: int, card2: int, bets1: int, bets2: int, drew: int) -> int: ...
    def showdown(self, card1: int, card2: int, opp1: int, opp2: int) -> int: ...


class BotFault(Exception):
    def __init__(self, status: str, message: str):
        super().__init__(message)
        self.status = status


class BotClock:
    """Sums the thread CPU time spent inside bot calls, and enforces the limit."""

    def __init__(self, limit: float):
        self.limit = limit
        self.used = 0.0

    def call(self, method, *args):
        start = time.thread_time()
        try:
            result = method(*args)
        except Exception as exc:  # the contest scores a crashing submission 0
            raise BotFault(CRASH, f"{method.__name__}{args} raised {type(exc).__name__}: {exc}") from exc
        finally:
            self.used += time.thread_time() - start
        if self.used > self.limit:
            raise BotFault(TIME_LIMIT, f"bot CPU time {self.used:.2f} s passed the {self.limit:g} s limit")
        return result


@dataclass
class MatchRecord:
    """Per-hand columns of the hands events (engine/twocarddraw/events.py), plus the running status."""

    columns: dict[str, list] = field(default_factory=lambda: {name: [] for name in COLUMNS})
    status: str = OK
    message: str = ""

    def add(self, **row) -> None:
        for name in COLUMNS:
            self.columns[name].append(row[name])

    def keep(self, hands: int) -> None:
        """Only the first `hands` rows: a signal can land while a row is half added."""
        for values in self.columns.values():
            del values[hands:]


COLUMNS = tuple(EVENTS.kinds["hands"])


@dataclass(frozen=True)
class MatchResult:
    first: int
    profits: np.ndarray  # per hand played, in order
    record: MatchRecord
    cpu_seconds: float
    hands_requested: int

    @property
    def profit(self) -> int:
        return int(self.profits.sum())

    @property
    def status(self) -> str:
        return self.record.status

    @property
    def score(self) -> float:
        """max(0, profit + hands) as TopCoder scored a test (hands = 10,000 there); 0 on a fault."""
        if self.status != OK:
            return 0.0
        return float(max(0, self.profit + self.hands_requested))

    def chunk_log(self) -> ChunkLog:
        events = EVENTS.batch(hands={k: np.asarray(v) for k, v in self.record.columns.items()})
        stats = {"cpu_seconds": self.cpu_seconds, "faulted": float(self.status != OK)}
        return ChunkLog(self.first, self.profits.astype(np.float64), stats=stats, events=events)


def play_match(
    bot: TwoCardDrawBot, strategy: Strategy, *, seed: int, hands: int = R.HANDS_PER_TEST,
    first: int = 0, record_from: int = 0, cpu_limit: float = R.CPU_LIMIT_SECONDS, clock: BotClock | None = None,
    keep_on_interrupt: bool = False,
) -> MatchResult:
    """Play hands first..first+hands-1 of match `seed`; hands before record_from are played
    (a learning bot needs them) but left out of the result. `clock`: how the bot's calls are
    timed (default: this thread's CPU time around each call). `keep_on_interrupt` (a judged test,
    not a chunk of a match): Ctrl-C, SIGTERM or SIGHUP ends the test with the hands played so far
    and status INTERRUPTED instead of raising."""
    record = MatchRecord()
    clock = BotClock(cpu_limit) if clock is None else clock
    key = seeds.match_key(seed)
    cards = np.zeros((hands, 8), dtype=np.int64)
    uniforms = np.zeros((hands, 5))
    K.deal_hands(np.uint64(key), first, hands, int(seeds.Purpose.DEAL), int(seeds.Purpose.OPPONENT), cards, uniforms)
    profits = []
    winnings = 0
    if hasattr(bot, "new_match"):  # cardlab's bots draw from the match seed (hand 0's key: learners replay from 0)
        bot.new_match(seeds.unit_key(key, 0, seeds.Purpose.BOT))
    try:
        clock.call(bot.init, strategy.bets.bet1, strategy.bets.bet2)
        for n in range(hands):
            row = _play_hand(bot, strategy, first + n, cards[n], uniforms[n], winnings, clock)
            winnings += row["profit"]
            if first + n >= record_from:
                record.add(**row)
                profits.append(row["profit"])
    except BotFault as fault:
        record.status, record.message = fault.status, str(fault)
    except KeyboardInterrupt as exc:
        if not keep_on_interrupt:
            raise
        record.keep(len(profits))  # a hand counts once its profit is in; a half-added row goes
        record.status, record.message = INTERRUPTED, f"stopped by {ending.describe(exc)}"
    requested = first + hands - max(first, record_from)
    return MatchResult(max(first, record_from), np.array(profits, dtype=np.int64), record, clock.used, requested)


def _play_hand(bot, strategy: Strategy, index: int, cards, uniforms, winnings: int, clock: BotClock) -> dict:
    probs = strategy.probs
    p = sorted(int(c) for c in cards[0:2])
    s = sorted(int(c) for c in cards[2:4])
    dealt_p, dealt_s = tuple(p), tuple(s)
    st = HandState(strategy.bets)
    server_turn = 0
    answer = clock.call(bot.new_hand, p[0], p[1], winnings)
    st.apply(_checked(answer, {0: R.CALL, 1: R.RAISE}, "new_hand"))
    while st.phase == BET1:
        if st.actor == R.SERVER:
            row = R.round1_row(st.round_bets, R.hand_index(*s))
            st.apply(_sample(probs[row], uniforms[server_turn]))
            server_turn += 1
        else:
            answer = clock.call(bot.round1, p[0], p[1], st.round_bets)
            st.apply(_checked(answer, _facing(st.round_bets), "round1"))
    if st.phase != OVER:
        drew = _checked(clock.call(bot.draw, p[0], p[1], st.bets1), {0: 0, 1: 1, 2: 2}, "draw")
        st.apply(drew)
        p = redraw(p, drew, cards[4:6])
        server_drew = _sample(probs[R.draw_row(st.history, drew, R.hand_index(*s))], uniforms[2])
        st.apply(server_drew)
        s = redraw(s, server_drew, cards[6:8])
        server_turn = 3
        answer = clock.call(bot.round2, p[0], p[1], st.bets1, 0, server_drew)
        st.apply(_checked(answer, {0: R.CALL, 1: R.CALL, 2: R.RAISE}, "round2"))
        while st.phase == BET2:
            if st.actor == R.SERVER:
                row = R.round2_row(st.history, drew, server_drew, st.round_bets, R.hand_index(*s))
                st.apply(_sample(probs[row], uniforms[server_turn]))
                server_turn += 1
            else:
                answer = clock.call(bot.round2, p[0], p[1], st.bets1, st.round_bets, server_drew)
                st.apply(_checked(answer, _facing(st.round_bets), "round2"))
        if st.folded < 0:
            clock.call(bot.showdown, p[0], p[1], s[0], s[1])
    profit = st.profit(R.hand_index(*p), R.hand_index(*s))
    ended = {R.PLAYER: "player_fold", R.SERVER: "server_fold"}.get(st.folded, "showdown")
    reached_draw = st.drew[0] >= 0
    return dict(
        hand=index, bet1=strategy.bets.bet1, bet2=strategy.bets.bet2,
        p_card1=dealt_p[0], p_card2=dealt_p[1], s_card1=dealt_s[0], s_card2=dealt_s[1],
        p_drew=st.drew[0], s_drew=st.drew[1],
        p_final1=p[0] if reached_draw else -1, p_final2=p[1] if reached_draw else -1,
        s_final1=s[0] if reached_draw else -1, s_final2=s[1] if reached_draw else -1,
        round1=st.round_letters(BET1), round2=st.round_letters(BET2),
        bets1=st.bets1 if reached_draw else st.round_bets, bets2=st.round_bets if reached_draw else -1,
        first=R.HISTORIES[st.history][1] if reached_draw else -1, ended=ended, profit=profit,
    )


def _facing(bets: int) -> dict[int, int]:
    codes = {0: R.FOLD, 1: R.CALL, 2: R.RAISE}
    if bets >= R.MAX_BETS:
        del codes[2]
    return codes


def _checked(answer, accepted: dict[int, int], method: str) -> int:
    if isinstance(answer, bool) or not isinstance(answer, int | np.integer) or int(answer) not in accepted:
        raise BotFault(INVALID, f"{method} returned {answer!r}; accepted: {sorted(accepted)}")
    return accepted[int(answer)]


def _sample(row: np.ndarray, u: float) -> int:
    acc = 0.0
    for action in range(3):
        acc += row[action]
        if u < acc:
            return action
    return int(np.flatnonzero(row > 0)[-1])  # rounding left u above the total


def redraw(hand: list[int], drew: int, fresh) -> list[int]:
    if drew == 0:
        return hand
    if drew == 1:
        return sorted((hand[1], int(fresh[0])))
    return sorted((int(fresh[0]), int(fresh[1])))


@dataclass(frozen=True)
class MatchOptions:
    """The server a match faces: a strategy file, or (when empty) a generated strategy."""

    strategy: str = ""
    bet1: int = 1
    bet2: int = 2
    steps: int = 50_000  # generator steps when no file is given
    strategy_seed: int = 1

    def __post_init__(self):
        R.BetSizes(self.bet1, self.bet2)
        if not self.strategy and not 0 <= self.steps <= 2_000_000:
            raise BadValue(f"steps must be 0..2,000,000, got {self.steps}")


@lru_cache(maxsize=8)
def load_server(options: MatchOptions) -> Strategy:
    from engine.twocarddraw.best_response import generate
    from engine.twocarddraw.protocol import read_strategy

    if options.strategy:
        return read_strategy(options.strategy).strategy
    return generate(R.BetSizes(options.bet1, options.bet2), steps=options.steps, seed=options.strategy_seed).strategy


def play_chunk(spec, config, *, seed: int, first: int, count: int, options: MatchOptions | None = None) -> ChunkLog:
    """Hands first..first+count-1 of a match. A bot that learns across hands replays the match
    from hand 0 so every chunk sees exactly what one uninterrupted test would."""
    strategy = load_server(options or MatchOptions())
    return play_bot(spec.make(config), strategy, seed=seed, first=first, count=count).chunk_log()


def play_bot(bot, strategy: Strategy, *, seed: int, first: int = 0, count: int = R.HANDS_PER_TEST,
             cpu_limit: float = R.CPU_LIMIT_SECONDS, keep_on_interrupt: bool = False) -> MatchResult:
    if hasattr(bot, "reveal_strategy"):  # ceiling bots are told the truth by the judge
        bot.reveal_strategy(strategy)
    if hasattr(bot, "prepare_offline"):  # tables a submission would embed; not charged to the bot's clock
        bot.prepare_offline(strategy.bets.bet1, strategy.bets.bet2)
    if getattr(bot, "learns_across_hands", False):
        return play_match(bot, strategy, seed=seed, first=0, hands=first + count, record_from=first,
                          cpu_limit=cpu_limit, keep_on_interrupt=keep_on_interrupt)
    return play_match(bot, strategy, seed=seed, first=first, hands=count, cpu_limit=cpu_limit,
                      keep_on_interrupt=keep_on_interrupt)
