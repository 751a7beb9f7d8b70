"""The referee loop: one game of 2-4 seats, in-process bots or external programs.

A seat is asked only when it must decide (docs/rules/cg_holdem.md#rounds-and-hands). It
gets the 8 setup lines before its first decision, then one Turn per decision; its answer is
parsed and replaced as the referee does (docs/rules/cg_holdem.md#replacement). An external
program that does not answer in time (1000 ms on its first turn, 50 ms after, configurable)
or dies is treated as a TIMEOUT (docs/rules/cg_holdem.md#timeouts): its stack leaves the
game, it is folded and ranked out at the end of the hand.
"""

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from engine.cg_holdem.events import EVENTS
from engine.cg_holdem.protocol import Setup, Turn, board_text, parse_output, seat_cards_text
from engine.cg_holdem.rules import BIG_BLIND, HANDS_PER_LEVEL, LEVEL_MULTIPLIER, SMALL_BLIND, TIMEOUT, GameConfig
from engine.cg_holdem.state import Game, HandRecord, HistoryLine
from engine.core.contract import MultiSeatPokerBot
from engine.core.errors import BadValue
from engine.core.log import ChunkLog
from engine.core.process import Keep, LimitExceeded, LineProcess, ProgramEnded
from engine.core.seeds import Purpose, match_key, unit_key

_new_tuple = tuple.__new__


class Bot(MultiSeatPokerBot, Protocol):
    """An in-process player: sees exactly what the contest shows, answers an output line."""

    def start(self, setup: Setup) -> None: ...

    def act(self, turn: Turn) -> str: ...


class Seat(Protocol):
    def decide(self, setup: Setup | None, turn: Turn) -> str | None:
        """The output line, or None for a timeout / crash."""

    def close(self) -> dict: ...


class BotSeat:
    def __init__(self, bot: Bot):
        self.bot = bot

    def decide(self, setup: Setup | None, turn: Turn) -> str | None:
        if setup is not None:
            self.bot.start(setup)
        return self.bot.act(turn)

    def close(self) -> dict:
        return {}


class ProgramSeat:
    """A persistent external program fed one turn at a time, as on CodinGame."""

    def __init__(self, argv: list[str], *, first_turn_ms: int, turn_ms: int, cwd: str | None = None,
                 env: dict[str, str] | None = None, keep: Keep | None = None, clock: str = "wall"):
        """`cwd`: where the program runs (default: a private temporary folder); `env`: variables
        added to its scrubbed environment; `keep`: save its stderr (and folder) there at the end;
        `clock`: what the turn limits count, wall or the program's CPU time (LineProcess.read_line)."""
        self.first_turn_s = first_turn_ms / 1000
        self.turn_s = turn_ms / 1000
        self.clock = clock
        self.slowest = (0.0, 0.0)  # the longest answer on the wall clock, and on the program's CPU clock
        self.answered = 0
        self.failure: str | None = None
        self.process = LineProcess(argv, cwd=cwd, env=env, keep=keep)
        self.report = None

    def decide(self, setup: Setup | None, turn: Turn) -> str | None:
        if self.failure:
            return None
        lines = (setup.lines() if setup is not None else []) + turn.lines()
        started, cpu = time.monotonic(), self.process.cpu_used()
        try:
            for line in lines:
                self.process.send(line)
            answer = self.process.read_line(self.first_turn_s if self.answered == 0 else self.turn_s, clock=self.clock)
        except (LimitExceeded, ProgramEnded) as exc:
            used = self.process.cpu_used() - cpu  # both clocks: a busy machine shows as little CPU in a long wait
            self.failure = str(exc) + (f" (its CPU time in the turn: {used:.3f} s)" if "CPU" not in str(exc) else "")
            self.report = self.process.close(grace=0.1)  # deactivated at once, like the SDK
            return None
        self.answered += 1
        wall, cpu = time.monotonic() - started, self.process.cpu_used() - cpu
        self.slowest = (max(self.slowest[0], wall), max(self.slowest[1], cpu))
        return answer

    def close(self) -> dict:
        if self.report is None:
            self.report = self.process.close(grace=0.2)
        report = self.report
        # A failed seat's stderr is kept above all: it holds the cause (a crash's traceback).
        return {"failure": self.failure, "answers": self.answered,
                "cpu_seconds": report.cpu_seconds if not self.failure else None, "returncode": report.returncode,
                "stderr_tail": report.stderr_tail, "isolation": report.isolation, "limits": report.limits,
                "clock": self.clock, "slowest_turn_wall": self.slowest[0], "slowest_turn_cpu": self.slowest[1]}


@dataclass(frozen=True)
class GameResult:
    seed: int
    players: int
    first_big_blind: int
    scores: tuple[int, ...]
    positions: tuple[int, ...]  # 1 = best, equal scores share
    ranks: tuple[int | None, ...]  # elimination rank (0 = first out), None = survivor
    final_stacks: tuple[int, ...]
    rounds: int
    hands: tuple[HandRecord, ...]
    history: tuple[HistoryLine, ...]
    messages: tuple[tuple[int, int, str], ...]  # (round, seat, chat message)
    overflow: bool  # the Java referee would have crashed (docs/rules/cg_holdem.md#differences)
    seat_reports: tuple[dict, ...] = field(default_factory=tuple)


def turn_for(game: Game, seat: int, last_round: int, showdowns_seen: int) -> Turn:
    """The input of ``seat``'s current decision: history from its previous decision's round
    (inclusive) to the round before this one, and the hands finished since then."""
    start = last_round - 1 if last_round else 0
    actions = tuple(game.history[start:game.round - 1])
    showdowns = tuple(game.showdowns[showdowns_seen:])
    chips = tuple(game.total)  # seats out of the hand never put chips in
    # tuple.__new__ skips the NamedTuple's Python-level __new__ (one Turn per decision).
    return _new_tuple(Turn, (game.round, game.hand_nb, tuple(game.stack), chips, game.board,
                             game.hole[seat], actions, showdowns, game.possible_actions()))


def setup_for(game: Game, seat: int) -> Setup:
    return Setup(SMALL_BLIND, BIG_BLIND, HANDS_PER_LEVEL, LEVEL_MULTIPLIER,
                 game.config.starting_stacks()[seat], game.first_big_blind, game.n, seat)


class Referee:
    """The referee loop between two decisions: the game, the seats and what each seat was shown last. Its two
    steps, ``ask`` and ``play``, are play_game's loop body; a bench may copy a Referee and play a step otherwise."""

    def __init__(self, seats: Sequence[Seat], game: Game):
        self.seats, self.game = seats, game
        self.last_round = [0] * game.n  # the round of each seat's previous decision (0: none yet)
        self.seen = [0] * game.n  # the showdowns each seat was shown
        self.messages: list[tuple[int, int, str]] = []

    def ask(self) -> tuple[int, Turn, str | None]:
        """The seat to act, its turn and its answer (None: a timeout / crash)."""
        game = self.game
        s = game.to_act
        turn = turn_for(game, s, self.last_round[s], self.seen[s])
        setup = setup_for(game, s) if self.last_round[s] == 0 else None
        self.last_round[s], self.seen[s] = game.round, len(game.showdowns)
        return s, turn, self.seats[s].decide(setup, turn)

    def play(self, s: int, turn: Turn, answer: str | None) -> None:
        """Play seat ``s``'s answer to ``turn`` as the referee reads it."""
        if answer is None:
            self.game.play(TIMEOUT)
            return
        kind, amount, message = parse_output(answer)
        if message:
            self.messages.append((turn.round, s, message))
        self.game.play(kind, amount)


def play_game(seats: Sequence[Seat], *, seed: int, config: GameConfig | None = None,
              on_turn: Callable[[int, Turn, str | None], None] | None = None) -> GameResult:
    """Play one game to its end; ``on_turn(seat, turn, answer)`` sees every exchange."""
    config = config or GameConfig(players=len(seats))
    if config.players != len(seats):
        raise BadValue(f"config is for {config.players} players but {len(seats)} seats were given")
    referee = Referee(seats, Game(config, seed))
    game = referee.game
    try:
        while not game.over:
            s, turn, answer = referee.ask()
            if on_turn is not None:
                on_turn(s, turn, answer)
            referee.play(s, turn, answer)
    finally:
        reports = tuple(seat.close() for seat in seats)
    return GameResult(
        seed=seed, players=game.n, first_big_blind=game.first_big_blind, scores=tuple(game.scores()),
        positions=tuple(game.positions()), ranks=tuple(game.rank), final_stacks=tuple(game.stack),
        rounds=game.round, hands=tuple(game.hands), history=tuple(game.history), messages=tuple(referee.messages),
        overflow=game.overflow, seat_reports=reports,
    )


def play_programs(commands: Sequence[list[str]], *, seed: int, config: GameConfig | None = None,
                  cwd: str | None = None, env: dict[str, str] | None = None, keep: Keep | None = None) -> GameResult:
    """A game of external programs (2 to 4), each a persistent process; `keep`: save each seat's
    stderr (and folder) there, as seat0, seat1, ..."""
    config = config or GameConfig(players=len(commands))
    seats = []
    try:
        for i, argv in enumerate(commands):
            seats.append(ProgramSeat(argv, first_turn_ms=config.first_turn_ms, turn_ms=config.turn_ms, cwd=cwd,
                                     env=env, keep=keep.named(f"seat{i}") if keep else None, clock=config.clock))
    except ProgramEnded:
        for seat in seats:
            seat.close()
        raise
    return play_game(seats, seed=seed, config=config)


# -- the workspace: duplicate-format chunks of games ---------------------------------------
def java_seed(key: int) -> int:
    """A 64-bit key as the signed, non-zero Java long the referee's generator takes."""
    value = key - (1 << 64) if key >= 1 << 63 else key
    return value or 1


def unit_seating(unit: int, players: int) -> tuple[int, int]:
    """Duplicate format: unit u plays deal u // players with the line-up rotated u % players
    seats, so over a block of units every line-up member sits in every seat on the same cards."""
    return unit // players, unit % players


def unit_seats(lineup: Sequence[Callable[[], Bot]], *, key: int, unit: int) -> tuple[list, list[int], int, int]:
    """Unit ``unit``'s seats as play_chunk seats them (fresh bots, each told its key), the seat of each line-up
    member, the rotation and the game's seed."""
    players = len(lineup)
    deal, rotation = unit_seating(unit, players)
    game_seed = java_seed(unit_key(key, deal, Purpose.DEAL))
    seat_of = [(rotation + k) % players for k in range(players)]  # lineup index -> seat
    by_seat: list = [None] * players
    for k, make in enumerate(lineup):
        bot = make()
        if hasattr(bot, "new_game"):
            bot.new_game(unit_key(unit_key(key, unit, Purpose.BOT), k, Purpose.BOT))
        by_seat[seat_of[k]] = bot
    # A line-up member is an in-process Bot, or a Seat of its own (an external program).
    seats = [b if isinstance(b, (BotSeat, ProgramSeat)) else BotSeat(b) for b in by_seat]
    return seats, seat_of, rotation, game_seed


def play_chunk(lineup: Sequence[Callable[[], Bot]], *, seed: int, first: int, count: int,
               names: Sequence[str] | None = None) -> ChunkLog:
    """Units first..first+count-1 (one unit = one game). lineup[0] is the primary bot;
    payoff = its finish score (players - position) / (players - 1): 1 first, 0 last.
    A game's cards depend only on (seed, deal) and each bot's randomness on (seed, unit, seat)."""
    players = len(lineup)
    names = list(names) if names is not None else [f"bot{i}" for i in range(players)]
    key = match_key(seed)
    events = _ChunkEvents()
    payoffs = np.empty(count)
    for i, unit in enumerate(range(first, first + count)):
        seats, seat_of, rotation, game_seed = unit_seats(lineup, key=key, unit=unit)
        result = play_game(seats, seed=game_seed, config=GameConfig(players=players))
        seat_names = [names[(s - rotation) % players] for s in range(players)]
        primary = seat_of[0]
        payoffs[i] = (players - result.positions[primary]) / (players - 1)
        events.add(unit, unit_seating(unit, players)[0], rotation, primary, result, seat_names)
    return ChunkLog(first=first, payoffs=payoffs, events=events.batch())


def game_log(result: GameResult, names: Sequence[str], *, primary: int = 0, unit: int = 0) -> ChunkLog:
    """One judged game as a one-unit ChunkLog (payoff = finish score of seat ``primary``)."""
    events = _ChunkEvents()
    events.add(unit, unit, 0, primary, result, list(names))
    payoff = (result.players - result.positions[primary]) / (result.players - 1)
    return ChunkLog(first=unit, payoffs=np.array([payoff]), events=events.batch())


class _ChunkEvents:
    """The events (engine/cg_holdem/events.py) of the games played: games, seats, hands, hand seats, actions."""

    def __init__(self):
        self.t = {kind: {column: [] for column in columns} for kind, columns in EVENTS.kinds.items()}

    def _row(self, kind: str, **values) -> None:
        columns = self.t[kind]
        for column, value in values.items():
            columns[column].append(value)

    def add(self, unit: int, deal: int, rotation: int, primary: int, result: GameResult, names: list[str]) -> None:
        self._row("games", unit=unit, deal=deal, rotation=rotation, game_seed=result.seed,
                  players=result.players, primary_seat=primary, hands=len(result.hands), rounds=result.rounds,
                  overflow=result.overflow, primary_position=result.positions[primary],
                  primary_score=result.scores[primary])
        for s in range(result.players):
            rank = result.ranks[s]
            self._row("seats", unit=unit, seat=s, bot=names[s], score=result.scores[s],
                      position=result.positions[s], elimination_rank=-1 if rank is None else rank,
                      final_stack=result.final_stacks[s])
        for h in result.hands:
            self._row("hands", unit=unit, hand=h.hand, big_blind=h.big_blind, dealer=h.dealer,
                      sb_seat=h.sb_seat, bb_seat=h.bb_seat, board=board_text(h.board), pot=sum(h.totals),
                      showdown=h.showdown, cancelled=h.cancelled, first_round=h.first_round, last_round=h.last_round)
            for s in range(result.players):
                cards = h.cards[s]
                self._row("hand_seats", unit=unit, hand=h.hand, seat=s,
                          cards="" if cards is None else seat_cards_text([cards]), start_stack=h.start_stacks[s],
                          posted=h.posted[s], put_in=h.totals[s], won=h.won[s], end_stack=h.end_stacks[s],
                          folded=h.folded[s])
            for round_, seat, action, chips, street in h.actions:
                self._row("actions", unit=unit, hand=h.hand, round=round_, seat=seat, action=action,
                          chips=chips, street=street)

    def batch(self):
        return EVENTS.batch(**self.t)
