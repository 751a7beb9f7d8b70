"""Who answers a turn: an in-process bot, or an external program started anew for every move.

Both take the exact stdin text and give back raw stdout, so the judge treats them alike.
External programs are run the arbiter's way: a fresh process per move in the folder of the
program's real file (symlinks resolved), killed at 11 s of CPU time (the judge stops it there,
RLIMIT_CPU is the backstop), the exit code ignored, whatever stdout holds parsed even after a
crash or a kill, and kibitz lines taken from all of stderr. Two differences, both documented
in the README: stdin is a pipe closed after the input (the arbiter redirects a file; an agent
that only reads its stdin cannot tell), and a far wall-clock guard (60 s) the arbiter lacks,
cardlab's safety net against agents that sleep forever.
"""

import os
import resource
import shlex
import shutil
import time
from dataclasses import dataclass, field
from typing import Protocol

from engine.core.contract import TurnBot
from engine.core.errors import BadValue
from engine.core.process import Keep, LimitExceeded, LineProcess, ProgramEnded, exit_text, last_lines
from engine.splendor.protocol import kibitzes, parse_input
from engine.splendor.rules import CPU_SECONDS


@dataclass(frozen=True)
class AgentReply:
    stdout: str
    kibitzes: tuple[str, ...] = ()
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    returncode: int | None = 0
    limit: str | None = None  # 'cpu', 'wall', 'output', 'memory', 'processes' when a limit stopped the program
    isolation: str = ""  # external programs: what isolated the program (engine.core.sandbox)
    crash: str = ""  # a crash (no limit): 'exit status N' or 'killed by signal ...', and its stderr's last lines


class Agent(Protocol):
    name: str

    def respond(self, stdin_text: str) -> AgentReply: ...

    def new_game(self, key: int) -> None: ...


class Bot(TurnBot, Protocol):
    """An in-process bot (the core's turn-based shape): sees the parsed stdin only, answers
    with its stdout text."""

    def act(self, obs) -> str: ...


@dataclass
class InProcessAgent:
    name: str
    bot: Bot

    def respond(self, stdin_text: str) -> AgentReply:
        start = time.process_time()
        wall = time.perf_counter()
        stdout = self.bot.act(parse_input(stdin_text))
        notes = tuple(getattr(self.bot, "kibitz", ()) or ())
        return AgentReply(stdout, notes, time.process_time() - start, time.perf_counter() - wall)

    def new_game(self, key: int) -> None:
        if hasattr(self.bot, "new_game"):
            self.bot.new_game(key)


WALL_GUARD_SECONDS = 60.0  # cardlab's safety net only: the arbiter has no wall limit


class AgentNotFound(BadValue):
    """The agent's program cannot be started; the arbiter refuses to start the match too."""


def command_argv(command: str) -> tuple[list[str], str | None]:
    """argv with existing file paths made absolute, and the directory to run in.

    The arbiter runs an agent in its binary's real directory (realpath: symlinks resolved); for
    "python3 dir/agent.py" that is the directory of the first argument after the program that
    names an existing file.
    """
    argv = shlex.split(command)
    if not argv:
        raise AgentNotFound("empty agent command; accepted: a program and its arguments")
    if shutil.which(argv[0]) is None:
        raise AgentNotFound(f"agent program {argv[0]!r} is not an executable file or on PATH")
    files = []
    for i, arg in enumerate(argv):
        if os.path.isfile(arg):
            argv[i] = os.path.abspath(arg)
            files.append(i)
    script = [i for i in files if i > 0] or files
    return argv, os.path.dirname(os.path.realpath(argv[script[0]])) if script else None


STDERR_ALL = 1 << 40  # more than any stderr file can hold (RLIMIT_FSIZE caps it at 64 MB)


def _all_kibitzes(proc: LineProcess, *, ended: bool) -> list[str]:
    """Kibitz lines from the whole stderr (ProcessReport keeps only its last 2000 characters).
    Read before closing, which removes the file: after the program has ended, or was stopped by
    a limit (then what it wrote until then, as the arbiter reads it after the kill)."""
    if ended:
        proc.wait(1.0)
    return kibitzes(proc.stderr_text(STDERR_ALL))


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


MAX_MOVE_OUTPUT_BYTES = 1 << 20  # a move is a few numbers; more is an output limit, not a memory hog


@dataclass
class ExternalAgent:
    name: str
    command: str
    cpu_seconds: float = CPU_SECONDS
    wall_seconds: float = WALL_GUARD_SECONDS
    strict_exit: bool = False  # contest: False (a crashed agent's stdout still counts)
    env: dict[str, str] = field(default_factory=dict)  # variables added to the scrubbed environment
    keep: Keep | None = None  # save each move's stderr (and folder) there, as NAME.stderr, NAME.2.stderr, ...
    _argv: list[str] = field(default_factory=list, init=False)
    _cwd: str | None = field(default=None, init=False)

    def __post_init__(self):
        self._argv, self._cwd = command_argv(self.command)

    def new_game(self, key: int) -> None:
        pass

    def respond(self, stdin_text: str) -> AgentReply:
        start = time.perf_counter()
        children_before = _children_cpu()
        try:
            proc = LineProcess(self._argv, cpu_seconds=self.cpu_seconds, cwd=self._cwd, env=self.env,
                               max_output_bytes=MAX_MOVE_OUTPUT_BYTES,
                               keep=self.keep.named(self.name) if self.keep else None)
        except ProgramEnded as exc:
            return AgentReply("", returncode=None, wall_seconds=time.perf_counter() - start, crash=str(exc))
        lines, limit = [], None
        try:
            proc.send(stdin_text.removesuffix("\n"))
            proc.close_input()  # the arbiter's stdin is a file: the agent sees its end
        except (ProgramEnded, OSError):
            pass  # it quit before reading everything; its stdout may still hold a move
        deadline = start + self.wall_seconds
        while True:
            try:
                lines.append(proc.read_line(timeout=max(0.0, deadline - time.perf_counter())))
            except ProgramEnded:
                break
            except LimitExceeded as hit:
                limit = hit.kind
                lines.append(proc.unfinished_line())  # a last line cut short by the limit still counts
                break
        notes = _all_kibitzes(proc, ended=limit is None)
        report = proc.close(grace=0.0 if limit else 1.0)
        # Should the guard's report be missing, the children's rusage delta is exact here
        # because one judge thread runs one agent at a time.
        cpu = report.cpu_seconds or max(0.0, _children_cpu() - children_before)
        stdout = "\n".join(lines)
        if self.strict_exit and (report.returncode != 0 or limit):
            stdout = ""
        limit = limit or report.limit
        crash, said = "", last_lines(report.stderr_tail)
        if not limit and report.returncode not in (0, None):  # the move still counts: the arbiter's rule
            crash = exit_text(report.returncode) + (f": {said}" if said else "")
        return AgentReply(stdout, tuple(notes), cpu, time.perf_counter() - start, report.returncode,
                          limit, report.isolation, crash)
