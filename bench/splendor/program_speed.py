"""Where a game's time goes when a user's program plays Splendor against an in-process bot.

The contest's arbiter starts a fresh process per move (docs/rules/splendor.md, "Running an
agent"), so each of the program's moves pays for: the sandbox (a fork of the judge as the guard,
namespaces, the read-only view, a control group, a private folder), the interpreter's start-up,
the program's own work, and the judge's reading and closing. The arbiter's own work (rendering the
input, checking and applying the move) and the in-process bot's moves come on top.

Timed per phase with CPU clocks (the machine is shared: wall figures are inflated by the load and
reported beside them). Phases:

- judge, start: the judge's CPU and wall from asking for a move to the program running (the guard
  forked, the sandbox set up, the program forked);
- judge, wait: the judge's CPU and wall from then to the program's answer and exit (its polling);
- judge, close: the judge's CPU and wall reaping the program and removing its folder and group;
- guard: the CPU of the guard process (a fork of the judge: its namespaces, mounts and waits), the
  children's CPU not charged to the program;
- program: the program's own CPU (wait4), of which the interpreter's start-up is measured apart by
  running the same interpreter on an empty program in the same sandbox (`--startup`);
- arbiter: the judge's CPU in the game outside the moves (render, parse, apply);
- bot: the in-process opponent's CPU.

Run: python -m bench.splendor.program_speed [--games N] [--seed S] [COMMAND ...]
"""

import argparse
import os
import resource
import shlex
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import process
from engine.splendor import agents as agents_module
from engine.splendor.agents import ExternalAgent, InProcessAgent
from engine.splendor.judge import play_chunk

PROJECT = Path(__file__).resolve().parents[2]
STARTER = PROJECT / "bots" / "splendor" / "starters" / "bot.py"
BUYER = PROJECT / "tests" / "flows" / "league_programs" / "splendor_buyer.py"
CARDS = PROJECT / "data" / "splendor" / "cards.csv"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Phases:
    """Seconds per phase, summed over the run: cpu[name] and wall[name]; moves counted apart."""

    cpu: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    wall: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    program_moves: int = 0
    bot_moves: int = 0

    def add(self, name: str, cpu: float, wall: float = 0.0) -> None:
        self.cpu[name] += cpu
        self.wall[name] += wall


@contextmanager
def _timed(phases: Phases):
    """Wrap the runner's and the agents' methods with timers for the run (restored after)."""
    line_init, line_close = process.LineProcess.__init__, process.LineProcess.close
    external, in_process = ExternalAgent.respond, InProcessAgent.respond
    kibitzes = agents_module._all_kibitzes
    marks = {}

    def init(self, *args, **kwargs):
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            line_init(self, *args, **kwargs)
        finally:
            phases.add("judge, start", time.process_time() - cpu, time.perf_counter() - wall)
            marks["started"] = (time.process_time(), time.perf_counter())

    def all_kibitzes(proc, *, ended):
        cpu, wall = marks.get("started", (time.process_time(), time.perf_counter()))
        phases.add("judge, wait", time.process_time() - cpu, time.perf_counter() - wall)
        marks["waited"] = (time.process_time(), time.perf_counter())
        return kibitzes(proc, ended=ended)

    def close(self, grace=1.0):
        report = line_close(self, grace)
        cpu, wall = marks.pop("waited", (time.process_time(), time.perf_counter()))
        phases.add("judge, close", time.process_time() - cpu, time.perf_counter() - wall)
        return report

    def respond_external(self, stdin_text):
        children = _children_cpu()
        reply = external(self, stdin_text)
        phases.add("program", reply.cpu_seconds, 0.0)
        phases.add("guard", max(0.0, _children_cpu() - children - reply.cpu_seconds))
        phases.add("move, all", 0.0, reply.wall_seconds)
        phases.program_moves += 1
        return reply

    def respond_bot(self, stdin_text):
        cpu, wall = time.process_time(), time.perf_counter()
        reply = in_process(self, stdin_text)
        phases.add("bot", time.process_time() - cpu, time.perf_counter() - wall)
        phases.bot_moves += 1
        return reply

    process.LineProcess.__init__, process.LineProcess.close = init, close
    ExternalAgent.respond, InProcessAgent.respond = respond_external, respond_bot
    agents_module._all_kibitzes = all_kibitzes
    try:
        yield
    finally:
        process.LineProcess.__init__, process.LineProcess.close = line_init, line_close
        ExternalAgent.respond, InProcessAgent.respond = external, in_process
        agents_module._all_kibitzes = kibitzes


@dataclass(frozen=True)
class Measured:
    command: str
    games: int
    phases: Phases
    cpu: float  # the judge's own CPU plus its children's, for the whole run
    wall: float
    startup_cpu: float  # the interpreter's start-up CPU per move (an empty program, same sandbox)
    startup_wall: float

    def per_game(self, seconds: float) -> float:
        return seconds / self.games


def startup(argv: list[str], runs: int) -> tuple[float, float]:
    """CPU and wall per start of the program's interpreter on an empty program, in the same
    sandbox as a move (for python: `-c pass`; for a binary: nothing to subtract)."""
    name = os.path.basename(argv[0])
    if not name.startswith("python"):
        return 0.0, 0.0
    cpu = wall = 0.0
    for _ in range(runs):
        started = time.perf_counter()
        proc = process.LineProcess([argv[0], "-c", "pass"], cpu_seconds=11.0)
        proc.wait(30.0)
        cpu += proc.close(grace=0.0).cpu_seconds
        wall += time.perf_counter() - started
    return cpu / runs, wall / runs


def measure(command: str, *, games: int, seed: int, opponent: str = "greedy", startup_runs: int = 10) -> Measured:
    from flows.games.splendor import SplendorOptions, opponent_agents

    process.namespaces_work()  # the one probe, outside the timing
    start_cpu, start_wall = startup(shlex.split(command), startup_runs)
    phases = Phases()
    candidate = ExternalAgent("program", command)
    opponents = opponent_agents(SplendorOptions(opponent=opponent))
    play_chunk(opponents[0], opponent_agents(SplendorOptions(opponent=opponent)), seed=seed, first=0, count=1)  # warm
    cpu, children, wall = time.process_time(), _children_cpu(), time.perf_counter()
    with _timed(phases):
        game_cpu = time.process_time()
        play_chunk(candidate, opponents, seed=seed, first=0, count=games)
        judge_cpu = time.process_time() - game_cpu
    inside = sum(phases.cpu[k] for k in ("judge, start", "judge, wait", "judge, close", "bot"))
    phases.add("arbiter", max(0.0, judge_cpu - inside))
    return Measured(command, games, phases, time.process_time() - cpu + _children_cpu() - children,
                    time.perf_counter() - wall, start_cpu, start_wall)


def table(m: Measured) -> str:
    p = m.phases
    moves = max(1, p.program_moves)
    rows = [("judge, start", "sandbox set-up, judge side"), ("guard", "sandbox set-up and waits, guard side"),
            ("judge, wait", "judge polling for the answer"), ("judge, close", "reaping, folder and group removed")]
    lines = [f"command: {m.command}",
             f"{m.games} games, {p.program_moves} program moves ({p.program_moves / m.games:.1f}/game), "
             f"{p.bot_moves} bot moves; per game: CPU {m.per_game(m.cpu):.2f} s, wall {m.per_game(m.wall):.2f} s",
             f"{'phase':<14} {'CPU/game':>9} {'CPU/move':>9} {'wall/game':>10}  what"]
    for name, what in rows:
        lines.append(f"{name:<14} {m.per_game(p.cpu[name]):9.3f} {p.cpu[name] / moves * 1000:7.1f}ms "
                     f"{m.per_game(p.wall[name]):10.3f}  {what}")
    program = p.cpu["program"]
    start = m.startup_cpu * p.program_moves
    lines.append(f"{'program':<14} {m.per_game(program):9.3f} {program / moves * 1000:7.1f}ms {'':>10}  its own CPU, "
                 f"of which interpreter start-up {m.startup_cpu * 1000:.1f} ms/move "
                 f"({m.startup_wall * 1000:.0f} ms wall alone), "
                 f"the agent's work {max(0.0, program - start) / moves * 1000:.1f} ms/move")
    for name, what in (("arbiter", "render, parse, apply"), ("bot", "the in-process opponent")):
        lines.append(f"{name:<14} {m.per_game(p.cpu[name]):9.3f} {'':>9} {m.per_game(p.wall[name]):10.3f}  {what}")
    lines.append(f"{'a move, all':<14} {'':>9} {'':>9} {m.per_game(p.wall['move, all']):10.3f}  the program's moves "
                 f"on the wall clock ({p.wall['move, all'] / moves * 1000:.0f} ms each)")
    return "\n".join(lines)


def default_commands(folder: str) -> list[str]:
    """The starter `cardlab new splendor` writes (copied into `folder` with the cards it reads beside
    it) and the league tests' buyer, both run by the python3 on PATH."""
    python = shutil.which("python3") or sys.executable
    for source in (STARTER, CARDS):
        shutil.copy(source, folder)
    return [f"python3 {os.path.join(folder, STARTER.name)}", f"{python} {BUYER} {CARDS}"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("commands", nargs="*", help="program commands (default: the starter and the league buyer)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="greedy")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-") as folder:
        for command in args.commands or default_commands(folder):
            print(table(measure(command, games=args.games, seed=args.seed, opponent=args.opponent)), flush=True)
            print(flush=True)


if __name__ == "__main__":
    main()
