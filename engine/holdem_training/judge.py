"""The Hold'em Training referee, for in-process bots and for external programs.

Both run hands through `state.HandState`. Hand i (0-based; the contest's hand number is
i + 1) is dealt from (match seed, i) and its RATE answers and Bob's rollouts come from one
stream derived from (match seed, i), so any chunk of a match replays identically alone.
Bad output stops the match; the hands already finished are kept and reported. Verdicts as
the contest's reference interactor gives them: "budget" (RATE budget exceeded: it prints -1),
"WA" (well-formed but illegal: unknown command, raise outside [1, a], RATE t < 1) and "PE"
(a token that is not an integer, or has leading zeros); on WA and PE it prints nothing more
and ends. The contestant's output is read as tokens, as the reference reads it.
"""

import gc
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from engine.core import ending, seeds
from engine.core.contract import HeadsUpPokerBot
from engine.core.errors import IllegalMove
from engine.core.log import ChunkLog
from engine.core.process import Keep, LimitExceeded, LineProcess, ProgramEnded
from engine.holdem_training import _kernels, protocol
from engine.holdem_training.events import CARDS, EVENTS
from engine.holdem_training.rules import (
    BOB_ROLLOUTS,
    CPU_SECONDS,
    FOLD,
    MAX_HANDS,
    MEMORY_MB,
    RATE_BUDGET,
    Action,
    View,
    points,
)
from engine.holdem_training.state import HandState


class InProcessBot(HeadsUpPokerBot, Protocol):
    """The heads-up shape (engine/core/contract.py) plus this contest's hooks around each hand."""

    def start_match(self, hands: int, rate_budget: int) -> None: ...
    def act(self, view: View, rate) -> Action: ...
    def observe(self, view: View, action: Action, response: str) -> None: ...
    def end_hand(self, hand: int, delta: int) -> None: ...


class MatchAborted(Exception):
    """The match stopped on the contestant's fault; `verdict` is "budget", "WA" or "PE"."""

    def __init__(self, message: str, verdict: str = protocol.BUDGET):
        super().__init__(message)
        self.verdict = verdict


# What the contest's reference interactor does on each verdict (shown with the verdict)
CHECKER_ACTION = {protocol.BUDGET: "the reference prints -1 and stops",
                  protocol.WRONG_ANSWER: "the reference stops without -1 (wrong answer)",
                  protocol.PRESENTATION_ERROR: "the reference stops without -1 (presentation error)"}


def _verdict(exc: Exception) -> str:
    return getattr(exc, "verdict", protocol.WRONG_ANSWER)  # IllegalMove: a raise out of range


@dataclass(frozen=True)
class MatchResult:
    log: ChunkLog  # the hands finished (all of them unless the match stopped early)
    hands_requested: int
    status: str  # "ok", "aborted" (see verdict), "limit" (cpu/memory/wall/output), "ended" (quit), "interrupted"
    reason: str  # why it stopped early, "" when ok
    limit: str | None = None  # "cpu", "memory", "processes", "wall" or "output" when a limit stopped the program
    rate_used: int = 0
    cpu_seconds: float | None = None  # external programs only
    peak_memory_mb: float | None = None
    stderr_tail: str = ""  # external programs: the end of what they wrote to stderr (crashes, notes)
    isolation: str = ""  # external programs: what isolated the program (engine.core.sandbox)
    limits: str = ""  # external programs: how memory and processes were limited (cgroup or polled tree)
    verdict: str = ""  # when aborted: "budget", "WA" or "PE" (the contest checker's names)

    @property
    def verdict_line(self) -> str:
        """'WA: <reason> (the reference stops without -1 ...)', or "" unless aborted."""
        if not self.verdict:
            return ""
        return f"{self.verdict}: {self.reason} ({CHECKER_ACTION[self.verdict]})"

    @property
    def hands_played(self) -> int:
        return self.log.count

    @property
    def complete(self) -> bool:
        return self.status == "ok" and self.hands_played == self.hands_requested

    @property
    def average_profit(self) -> float:
        """Mean profit over the hands played (the contest's W when the match completed)."""
        return float(np.mean(self.log.payoffs)) if self.hands_played else 0.0

    @property
    def points(self) -> int:
        """The statement's points; 0 unless the match completed (only those are scored)."""
        return points(self.average_profit) if self.complete else 0


@dataclass(frozen=True)
class HandDeals:
    first: int
    deal_keys: np.ndarray
    cards: np.ndarray  # (count, 9): Alice 2, Bob 2, board 5
    outcome: np.ndarray
    stream_keys: np.ndarray

    @classmethod
    def of(cls, seed: int, first: int, count: int) -> "HandDeals":
        key = np.uint64(seeds.match_key(seed))
        arrays = _kernels.deal_chunk(key, first, count, np.uint64(int(seeds.Purpose.DEAL)),
                                     np.uint64(int(seeds.Purpose.OPPONENT)))
        return cls(first, *arrays)

    def rows(self) -> list[tuple]:
        """Per hand: its cards as an array the kernels take, as Python ints, and the showdown
        outcome. Each hand gets its own small array because numba dispatches slower on views."""
        return [(np.array(row), tuple(cards), outcome)
                for row, cards, outcome in zip(self.cards, self.cards.tolist(), self.outcome.tolist(), strict=True)]

    def hand(self, i: int, stream: np.ndarray, card_rows: list, bob_rollouts: int) -> HandState:
        stream[0] = self.stream_keys[i]
        cards, card_tuple, outcome = card_rows[i]
        return HandState(self.first + i + 1, cards, outcome, stream, bob_rollouts=bob_rollouts,
                         card_tuple=card_tuple)


def dealt_cards(seed: int, hands: int) -> np.ndarray:
    """(hands, 9) cards of match `seed`'s first hands, as the judge deals them: Alice's 2,
    Bob's 2, then the board's 5. For studies that must know the hidden cards (never for a bot
    that plays the contest)."""
    return HandDeals.of(seed, 0, hands).cards


class _Recorder:
    """The events (engine/holdem_training/events.py) of the hands finished so far. Action
    events are kept as the state gives them and turned into columns once, in log()."""

    def __init__(self):
        self.profits: list[int] = []
        self.ends: list[int] = []
        self.pots: list[int] = []
        self.rounds: list[int] = []
        self.rates: list[int] = []
        self.events: list = []
        self.rate_marks: list[int] = []  # RATE rollouts spent in the hand so far, at each action

    def action(self, event) -> None:
        self.events.append(event)

    def hand(self, state: HandState, event, rate_rollouts: int) -> None:
        self.profits.append(state.delta)
        self.ends.append(state.end)
        self.pots.append(state.pot)  # when Bob folds, the pot before the raise
        self.rounds.append(event.round)
        self.rates.append(rate_rollouts)

    def log(self, deal: HandDeals, rate_used: int) -> ChunkLog:
        n = len(self.profits)
        rounds = np.array(self.rounds, np.int64)
        profits = np.array(self.profits, np.int64)
        numbers = np.arange(deal.first + 1, deal.first + n + 1, dtype=np.int64)
        cards = deal.cards[:n]
        hands = {"hand": numbers, "deal_key": deal.deal_keys[:n], "opponent_key": deal.stream_keys[:n],
                 **{name: cards[:, j] for j, name in enumerate(CARDS)},
                 "showdown": deal.outcome[:n], "end_code": np.array(self.ends, np.int64), "rounds_played": rounds,
                 "final_pot": np.array(self.pots, np.int64), "profit": profits,
                 "rate_rollouts": np.array(self.rates, np.int64)}
        events = EVENTS.batch(hands=hands, actions=self._actions(numbers, rounds))
        return ChunkLog(deal.first, profits, stats={"hands_played": float(n), "rate_rollouts": float(rate_used)},
                        events=events)

    def _actions(self, numbers: np.ndarray, rounds: np.ndarray) -> dict:
        """One row per action of the hands finished. A hand cut short is not logged: its actions
        come after those of the hands finished (Alice acts once per round)."""
        kept = int(rounds.sum())
        events = self.events[:kept]
        marks = np.array(self.rate_marks[:kept], np.int64)
        starts = np.cumsum(rounds) - rounds  # each hand's first action
        asked = np.diff(marks, prepend=0)  # marks are running totals within a hand
        asked[starts] = marks[starts]
        return {"hand": np.repeat(numbers, rounds), "round": np.arange(kept) - np.repeat(starts, rounds) + 1,
                "action": [e.kind for e in events], "amount": np.array([e.amount for e in events], np.int64),
                "response": [e.response for e in events],
                "pot_before": np.array([e.pot_before for e in events], np.int64),
                "stack_before": np.array([e.stack_before for e in events], np.int64), "rate_rollouts": asked}


def replay_hand(*, hand: int, cards, opponent_key: int, moves, bob_rollouts: int = BOB_ROLLOUTS,
                rates: list | None = None) -> list:
    """Replay one logged hand: `cards` (Alice 2, Bob 2, board 5), its opponent stream key and
    `moves` = (RATE rollouts asked before the action, Action) per decision, as the actions
    events and the view ht_action_rows give them. Sampling consumes the stream per rollout, so how
    RATE rollouts were split into queries does not change Bob's answers. Returns the events,
    Bob's answers included; `rates`, when given, gets (rollouts, wins, ties) per decision with
    RATE rollouts (the queries' sums, as the log keeps only their total)."""
    cards = np.asarray(cards, np.int64)
    alice = _kernels.hand_value7(cards[0], cards[1], *cards[4:])
    bob = _kernels.hand_value7(*cards[2:])
    state = HandState(hand, cards, (alice > bob) - (alice < bob), seeds.stream(int(opponent_key)),
                      bob_rollouts=bob_rollouts)
    events = []
    for rollouts, action in moves:
        if rollouts:
            wins, ties = state.rate(int(rollouts))
            if rates is not None:
                rates.append((int(rollouts), int(wins), int(ties)))
        events.append(state.apply(action))
    return events


# ------------------------------------------------------------------------------------------
# In-process bots
# ------------------------------------------------------------------------------------------
class _RateMeter:
    """The RATE query for in-process bots: same stream, budget and 6-decimal answers as the
    protocol, so a bot sees exactly what it would see over stdin."""

    __slots__ = ("state", "used", "budget", "in_hand")

    def __init__(self, budget: int):
        self.state: HandState | None = None
        self.used = 0
        self.budget = budget
        self.in_hand = 0

    def __call__(self, rollouts: int) -> tuple[float, float]:
        if type(rollouts) is not int or rollouts < 1:
            raise MatchAborted(f"RATE t needs an integer t >= 1, got {rollouts!r}", protocol.WRONG_ANSWER)
        if self.used + rollouts > self.budget:
            raise MatchAborted(f"RATE budget exceeded: {self.used} + {rollouts} > {self.budget}")
        self.used += rollouts
        self.in_hand += rollouts
        wins, ties = self.state.rate(rollouts)
        return round(wins / rollouts, 6), round(ties / rollouts, 6)

    def query(self):
        """What a bot is handed: RATE t -> (win, tie) and nothing else. The meter itself holds the
        judge's hand (Bob's cards), so the bot gets a function, not the meter."""

        def rate(rollouts: int) -> tuple[float, float]:
            return self(rollouts)

        return rate


def play_chunk(bot: InProcessBot, *, seed: int, first: int, count: int, rate_budget: int | None = None,
               bob_rollouts: int = BOB_ROLLOUTS) -> ChunkLog:
    """Hands first..first+count-1 (0-based) of match `seed` for an in-process bot; raises
    MatchAborted if the bot's match ends early (an illegal action, a crash, the RATE budget).

    The RATE budget defaults to this chunk's share of the match budget (300 per hand)."""
    budget = RATE_BUDGET * count // MAX_HANDS if rate_budget is None else rate_budget
    result = _play_in_process(bot, seed=seed, first=first, count=count, rate_budget=budget,
                              bob_rollouts=bob_rollouts)
    if result.status != "ok":  # a chunk is all or nothing: its hands would not be the ones asked for
        raise MatchAborted(f"{result.status} after {result.hands_played} of {count} hands: {result.reason}",
                           result.verdict or protocol.WRONG_ANSWER)
    return result.log


def play_match(bot: InProcessBot, *, seed: int, hands: int = MAX_HANDS, rate_budget: int = RATE_BUDGET,
               bob_rollouts: int = BOB_ROLLOUTS) -> MatchResult:
    """A whole match, as the contest runs it, for an in-process bot."""
    return _play_in_process(bot, seed=seed, first=0, count=hands, rate_budget=rate_budget,
                            bob_rollouts=bob_rollouts)


def _play_in_process(bot, *, seed: int, first: int, count: int, rate_budget: int,
                     bob_rollouts: int) -> MatchResult:
    with _no_gc_pauses():
        return _play_hands(bot, seed=seed, first=first, count=count, rate_budget=rate_budget,
                           bob_rollouts=bob_rollouts)


@contextmanager
def _no_gc_pauses():
    """The hand log keeps every event alive, so the cyclic GC's full passes grow with the match
    and cost more than the play itself; nothing here makes cycles, so pause it (then restore)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _play_hands(bot, *, seed: int, first: int, count: int, rate_budget: int, bob_rollouts: int) -> MatchResult:
    deal = HandDeals.of(seed, first, count)
    card_rows = deal.rows()
    record = _Recorder()
    rate = _RateMeter(rate_budget)
    ask = rate.query()
    stream = np.zeros(1, np.uint64)
    status, reason, verdict = "ok", "", ""
    bot.start_match(count, rate_budget)
    act, observe, end_hand = bot.act, bot.observe, bot.end_hand
    record_action, record_rate = record.events.append, record.rate_marks.append
    try:
        for i in range(count):
            state = deal.hand(i, stream, card_rows, bob_rollouts)
            rate.state, rate.in_hand = state, 0
            view_of, apply = state.view, state.apply
            while True:
                view = view_of()
                action = act(view, ask)
                event = apply(action)
                record_action(event)
                record_rate(rate.in_hand)
                if event.end >= 0:
                    break
                observe(view, action, event.response)
            if event.kind != FOLD:  # the protocol has no OPP line after Alice folds
                observe(view, action, event.response)
            record.hand(state, event, rate.in_hand)
            end_hand(state.hand, state.delta)
    except (MatchAborted, IllegalMove) as exc:
        status, reason, verdict = "aborted", str(exc), _verdict(exc)
    except Exception as exc:  # a crashing bot ends its match like a crashing program would
        status, reason = "ended", f"bot raised {type(exc).__name__}: {exc}"
    return MatchResult(record.log(deal, rate.used), count, status, reason, rate_used=rate.used, verdict=verdict)


# ------------------------------------------------------------------------------------------
# External programs over the contest's protocol
# ------------------------------------------------------------------------------------------
def play_external(argv: list[str], *, seed: int, hands: int = MAX_HANDS, rate_budget: int = RATE_BUDGET,
                  cpu_seconds: float = CPU_SECONDS, memory_mb: float = MEMORY_MB,
                  wall_seconds: float | None = None, cwd: str | None = None,
                  transcript: list[str] | None = None, bob_rollouts: int = BOB_ROLLOUTS,
                  env: dict[str, str] | None = None, first: int = 0,
                  writable: tuple[str, ...] = (), keep: Keep | None = None) -> MatchResult:
    """Run `argv` as the contestant for a whole match with the contest's limits.

    `transcript`, if given, receives every line: '> ' judge to program, '< ' program to judge.
    `cwd`: where the program runs (default: a private temporary folder); `env`: variables added
    to its scrubbed environment. Every fault, Ctrl-C included, keeps the hands played before it.
    `first`: the match is hands first..first+hands-1 of `seed`'s deal (a sweep's chunk), so every
    config of a sweep over a program plays the same hands. `writable`: folders outside its own
    the program may write (LineProcess; for trusted programs only, e.g. a bundle's warm-up).
    `keep`: save the program's stderr (and folder) there when it is closed."""
    # The contest limits CPU only; a wall limit just stops a program that waits forever. It is
    # generous because on a shared machine a program gets a fraction of a core.
    wall = 6 * cpu_seconds + 30 if wall_seconds is None else wall_seconds
    deal = HandDeals.of(seed, first, hands)
    card_rows = deal.rows()
    record = _Recorder()
    status, reason, limit, verdict = "ok", "", None, ""
    rate_used = 0
    stream = np.zeros(1, np.uint64)
    deadline = time.monotonic() + wall
    proc = None
    try:
        proc = LineProcess(argv, cpu_seconds=cpu_seconds, memory_mb=memory_mb, cwd=cwd, env=env, spin=True,
                           writable=writable, keep=keep)
        talk = _Wire(proc, deadline, transcript)
        talk.send(protocol.hand_count_line(hands))
        next_token = protocol.token_reader(talk.read)
        for i in range(hands):
            state = deal.hand(i, stream, card_rows, bob_rollouts)
            in_hand = 0
            while True:
                talk.send("\n".join(protocol.state_lines(state.view())))
                command = protocol.read_command(next_token)
                while isinstance(command, protocol.RateRequest):
                    t = command.rollouts
                    if rate_used + t > rate_budget:
                        raise MatchAborted(f"RATE budget exceeded: {rate_used} + {t} > {rate_budget}")
                    rate_used += t
                    in_hand += t
                    talk.send(protocol.rates_line(*state.rate(t), t))
                    command = protocol.read_command(next_token)
                event = state.apply(command)
                record.action(event)
                record.rate_marks.append(in_hand)
                if event.kind != FOLD:
                    talk.send(protocol.opponent_line(event.response, event.amount))
                if event.end >= 0:
                    break
            record.hand(state, event, in_hand)
            talk.send(protocol.result_line(state.delta))
        talk.send(protocol.score_line(float(np.mean(record.profits))))
        talk.flush()
    except (MatchAborted, IllegalMove, protocol.ProtocolError) as exc:
        status, reason, verdict = "aborted", str(exc), _verdict(exc)
        if verdict == protocol.BUDGET:  # the reference's only -1; on WA / PE it just ends
            _try_send(proc, protocol.ABORT, transcript)
    except LimitExceeded as exc:
        status, reason, limit = "limit", str(exc), exc.kind
    except ProgramEnded as exc:
        status, reason = "ended", str(exc)
    except KeyboardInterrupt as exc:  # also SIGTERM and SIGHUP (engine.core.ending): the caller logs the hands
        status, reason = "interrupted", f"stopped by {ending.describe(exc)}"
    report = proc.close(grace=0.0 if status == "interrupted" else 1.0) if proc is not None else None
    if report is not None:
        if status != "limit" and report.limit:
            status, limit, reason = "limit", report.limit, f"{report.limit} limit exceeded"
        elif status not in ("limit", "interrupted") and report.cpu_seconds > cpu_seconds:
            status, limit = "limit", "cpu"
            reason = f"cpu limit exceeded: {report.cpu_seconds:.2f} s > {cpu_seconds:g} s"
    return MatchResult(record.log(deal, rate_used), hands, status, reason, limit=limit, rate_used=rate_used,
                       cpu_seconds=report.cpu_seconds if report else None,
                       peak_memory_mb=report.peak_memory_mb if report else None,
                       stderr_tail=report.stderr_tail if report else "",
                       isolation=report.isolation if report else "", limits=report.limits if report else "",
                       verdict=verdict)


class _Wire:
    """The judge's side of the pipe. Lines are sent when the judge next waits for an answer,
    so the lines that lead to one decision (OPP, RESULT, the next STATE) reach the program in
    one write and wake it once; the judge polls for the answer for a while (LineProcess spin)."""

    __slots__ = ("proc", "deadline", "transcript", "pending")

    def __init__(self, proc: LineProcess, deadline: float, transcript: list[str] | None):
        self.proc, self.deadline, self.transcript = proc, deadline, transcript
        self.pending: list[str] = []

    def send(self, text: str) -> None:
        if self.transcript is not None:
            self.transcript.extend("> " + line for line in text.split("\n"))
        self.pending.append(text)

    def flush(self) -> None:
        if self.pending:
            text, self.pending = "\n".join(self.pending), []
            self.proc.send(text)

    def read(self) -> str:
        self.flush()
        left = self.deadline - time.monotonic()
        if left <= 0:  # also for a program that floods answers: a line is always ready for it
            raise LimitExceeded("wall", "the match's wall-clock limit passed")
        line = self.proc.read_line(timeout=left)
        if self.transcript is not None:
            self.transcript.append("< " + line)
        return line


def _try_send(proc: LineProcess | None, line: str, transcript: list[str] | None) -> None:
    if proc is None:
        return
    try:
        proc.send(line)
        if transcript is not None:
            transcript.append("> " + line)
    except (ProgramEnded, LimitExceeded):
        pass
