"""A user's bot class (`FILE.py:ClassName`) played by the TopCoder tester's rules, in its own process.

The class runs in a sandboxed process (engine.core.process: scrubbed environment, private
folder, everything killed at the end) hosted by engine/twocarddraw/host.py; the judge calls
its methods in exactly the order and with exactly the arguments the in-process judge uses
(engine.twocarddraw.judge.play_match), and charges the bot's clock with the thread CPU time
spent inside each call, as measured around the call in the bot's process, the in-process
judge's accounting; a call still running when the limit is reached is stopped there by a CPU
timer in the bot's process. Those figures come from the bot's own process, so a bot could
tamper with them: a negative or non-finite figure is refused (a crash), and the judge measures
the process's CPU itself (from /proc, after start-up): the clock is never below that, less
HOST_CPU_PER_CALL for the host's own work per call (several times what it costs), and the process
as a whole is stopped at the limit plus STARTUP_CPU_SECONDS. The contest's memory limit
(MEMORY_LIMIT_MB) holds over the bot's whole process tree, host included (about 11 MB). A call
that never returns ends the test at the wall limit (the contest scored that as a time-out).
"""

import math
import os
import sys
import time
from pathlib import Path

from engine.core.errors import BadValue
from engine.core.process import Keep, LimitExceeded, LineProcess, ProgramEnded
from engine.twocarddraw import rules as R
from engine.twocarddraw.judge import CRASH, TIME_LIMIT, BotClock, BotFault, MatchResult, play_match
from engine.twocarddraw.strategy import Strategy

HOST = str(Path(__file__).with_name("host.py"))
STARTUP_CPU_SECONDS = 10.0  # interpreter start, the user's imports, the host's reading of calls
HOST_CPU_PER_CALL = 50e-6  # the host's line I/O per call: ~10 us measured, on a slow machine more
JUDGED_EVERY = 64  # calls between two readings of the process's CPU (a /proc read each)


class BotRaised(Exception):
    """The user's method raised; the text is 'TypeName: message'."""


class _Shown:
    """A returned value the host could only describe: shown as its repr in fault messages."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def parse_bot_file(text: str) -> tuple[str, str]:
    """'path.py:ClassName' -> (absolute path, class name); ValueError says what is accepted."""
    path, sep, name = text.rpartition(":")
    if not sep or not path.endswith(".py") or not name.isidentifier():
        raise BadValue(f"--bot-file {text!r}: accepted: PATH.py:ClassName")
    if not os.path.isfile(path):
        raise BadValue(f"--bot-file {text!r}: {path} is not a file")
    return os.path.abspath(path), name


class ProgramBot:
    """The bot's methods, forwarded to its process; `last_cpu` is the last call's CPU time."""

    def __init__(self, path: str, class_name: str, *, cpu_seconds: float, wall_seconds: float,
                 env: dict[str, str] | None = None, keep: Keep | None = None):
        self.deadline = time.monotonic() + wall_seconds
        self.last_cpu = 0.0
        self.calls = 0
        self.startup_fault: str | None = None
        self.proc = LineProcess([sys.executable, "-I", HOST, path, class_name, repr(cpu_seconds)], env=env,
                                spin=True, cpu_seconds=cpu_seconds + STARTUP_CPU_SECONDS,
                                memory_mb=R.MEMORY_LIMIT_MB, keep=keep)
        try:
            first = self._read()
        except BotFault as fault:
            self.startup_fault = str(fault)
            return
        self.ready_cpu = self.proc.cpu_used()
        if first != "ready":
            self.startup_fault = f"loading {class_name} from {path}: {first.split(' ', 2)[-1]}"

    def _read(self) -> str:
        try:
            return self.proc.read_line(timeout=max(0.001, self.deadline - time.monotonic()))
        except LimitExceeded as exc:  # memory or processes: the contest's runtime error
            raise BotFault(TIME_LIMIT if exc.kind in ("cpu", "wall") else CRASH, f"the bot's process: {exc}") from exc
        except ProgramEnded as exc:
            raise BotFault(CRASH, f"the bot's process ended: {exc}") from exc

    def _call(self, method: str, *args: int):
        if self.startup_fault:
            raise BotFault(CRASH, self.startup_fault)
        try:
            self.proc.send(" ".join((method, *map(str, args))))
        except (ProgramEnded, LimitExceeded) as exc:
            raise BotFault(CRASH, f"the bot's process ended: {exc}") from exc
        self.calls += 1
        kind, cpu, rest = (self._read().split(" ", 2) + ["", ""])[:3]
        try:
            self.last_cpu = float(cpu)
        except ValueError:
            raise BotFault(CRASH, f"the bot's process answered {kind!r}") from None
        if not math.isfinite(self.last_cpu) or self.last_cpu < 0:
            self.last_cpu = 0.0
            raise BotFault(CRASH, f"the bot's process reported {cpu} s of CPU for {method}: refused")
        if kind == "raise":
            raise BotRaised(rest)
        if kind == "timeup":  # stopped by its CPU timer: the clock finds the limit passed
            return _Shown("<stopped at the CPU limit>")
        kind, _, value = rest.partition(" ")
        if kind == "int":
            return int(value)
        if kind == "bool":
            return value == "True"
        return _Shown(value)

    def init(self, bet1: int, bet2: int):
        return self._call("init", bet1, bet2)

    def new_hand(self, card1: int, card2: int, winnings: int):
        return self._call("new_hand", card1, card2, winnings)

    def round1(self, card1: int, card2: int, bets: int):
        return self._call("round1", card1, card2, bets)

    def draw(self, card1: int, card2: int, bets: int):
        return self._call("draw", card1, card2, bets)

    def round2(self, card1: int, card2: int, bets1: int, bets2: int, drew: int):
        return self._call("round2", card1, card2, bets1, bets2, drew)

    def showdown(self, card1: int, card2: int, opp1: int, opp2: int):
        return self._call("showdown", card1, card2, opp1, opp2)

    def judged_cpu(self) -> float:
        """The bot's CPU since start-up as the judge measures it, less the host's allowance."""
        return self.proc.cpu_used() - self.ready_cpu - HOST_CPU_PER_CALL * self.calls

    def close(self):
        return self.proc.close(grace=0.5)


class ProgramClock(BotClock):
    """BotClock charging the CPU time measured inside each call in the bot's own process."""

    def call(self, method, *args):
        bot = method.__self__
        bot.last_cpu = 0.0
        try:
            result = method(*args)
        except BotRaised as exc:
            raise BotFault(CRASH, f"{method.__name__}{args} raised {exc}") from None
        finally:
            self.used += bot.last_cpu
            if bot.calls % JUDGED_EVERY == 0 and not bot.startup_fault:  # what the bot says is not the last word
                self.used = max(self.used, bot.judged_cpu())
        if self.used > self.limit:
            raise BotFault(TIME_LIMIT, f"bot CPU time {self.used:.2f} s passed the {self.limit:g} s limit")
        return result


def play_program(path: str, class_name: str, strategy: Strategy, *, seed: int, count: int = R.HANDS_PER_TEST,
                 cpu_limit: float = R.CPU_LIMIT_SECONDS, wall_seconds: float | None = None,
                 env: dict[str, str] | None = None, keep: Keep | None = None,
                 keep_on_interrupt: bool = False) -> "Played":
    """One test of the user's class: the match result and the isolation it ran under (and, as
    `.limits`, how memory and processes were limited). `keep`: save the process's stderr there."""
    wall = 3 * cpu_limit + 30 if wall_seconds is None else wall_seconds
    bot = ProgramBot(path, class_name, cpu_seconds=cpu_limit, wall_seconds=wall, env=env, keep=keep)
    try:
        result = play_match(bot, strategy, seed=seed, hands=count, cpu_limit=cpu_limit,
                            clock=ProgramClock(cpu_limit), keep_on_interrupt=keep_on_interrupt)
    finally:
        report = bot.close()
    return Played(result, report.isolation, report.limits)


class Played(tuple):
    """(result, isolation), unpacked as such; `limits`: the mode memory and processes were limited in."""

    def __new__(cls, result: MatchResult, isolation: str, limits: str):
        played = super().__new__(cls, (result, isolation))
        played.limits = limits
        return played
