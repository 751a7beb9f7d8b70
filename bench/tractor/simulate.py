"""`cardlab tractor simulate` as its own process on a large input: best CPU time and peak RSS, against the
accepted C++ solution's stated figure. Generated inputs repeat 1,000 bot-played rounds (random vs rule)."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bots.tractor import BOTS
from engine.tractor.judge import contest_input, play_rounds

PEER_CPU_100K = 0.6  # s CPU of the accepted C++ solution on 100,000 cases: the figure (not built here)
DISTINCT_ROUNDS = 1000  # bot-played rounds generated for the benchmark; repeated up to --cases


class SimulatorFailed(Exception):
    """The simulator process exited with an error on a benchmark input."""


@dataclass(frozen=True)
class Generated:
    rounds: int  # distinct bot-played rounds
    cases: int
    seconds: float


@dataclass(frozen=True)
class SimulateBench:
    generated: Generated | None  # None when the input was given
    cases: int  # cases simulated
    repeat: int
    cpu: float  # best CPU seconds of the process
    rss_mb: float  # its peak RSS
    start_cpu: float  # the same for an input of 0 cases: process start alone
    start_rss_mb: float
    tenth_rss_mb: float | None  # peak RSS on a tenth of a generated input (memory must not grow with it)

    @property
    def peer_cpu(self) -> float:
        return PEER_CPU_100K * self.cases / 100_000


def simulate_bench(*, cases: int, seed: int, input_file: Path | None, write: Path | None,
                   repeat: int) -> SimulateBench:
    folder = Path(tempfile.mkdtemp(prefix="cardlab-bench-tractor-"))
    try:
        generated = None
        if input_file is not None:
            big = input_file
        else:
            big = folder / "input.txt"
            started = time.perf_counter()
            write_repeated(big, cases, seed)
            generated = Generated(rounds=min(cases, DISTINCT_ROUNDS), cases=cases,
                                  seconds=time.perf_counter() - started)
            if write is not None:
                shutil.copyfile(big, write)
        empty = folder / "empty.txt"
        empty.write_text("0\n")
        start_cpu, start_rss = best_run(empty, repeat)
        cpu, rss = best_run(big, repeat)
        tenth_rss = None
        if generated is not None and cases >= 10:
            small = folder / "tenth.txt"
            write_repeated(small, cases // 10, seed)
            tenth_rss = best_run(small, 1)[1]
        return SimulateBench(generated=generated, cases=cases if generated else count_cases(big), repeat=repeat,
                             cpu=cpu, rss_mb=rss, start_cpu=start_cpu, start_rss_mb=start_rss, tenth_rss_mb=tenth_rss)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def write_repeated(path: Path, cases: int, seed: int) -> None:
    played = play_rounds(BOTS["random"].make(), BOTS["rule"].make(), seed=seed, first=0,
                         count=min(cases, DISTINCT_ROUNDS))
    body = contest_input(played).split("\n", 1)[1].strip("\n")
    rounds = body.split("\n\n")
    with path.open("w") as out:
        out.write(f"{cases}\n")
        for i in range(cases):
            out.write("\n" + rounds[i % len(rounds)] + "\n")


def count_cases(path: Path) -> int:
    with path.open("rb") as handle:
        first = handle.readline().split()
    return int(first[0]) if first and first[0].isdigit() else 0


def _simulate_command() -> list[str]:
    script = Path(sys.executable).parent / "cardlab"
    if script.exists():
        return [str(script), "tractor", "simulate"]
    return [sys.executable, "-c", "from cardlab.cli import main; main()", "tractor", "simulate"]


def best_run(path: Path, repeat: int) -> tuple[float, float]:
    """(best CPU seconds, its peak RSS in MB) of `cardlab tractor simulate < path > /dev/null`."""
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        with path.open("rb") as source, open(os.devnull, "wb") as sink:
            proc = subprocess.Popen(_simulate_command(), stdin=source, stdout=sink, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            error = proc.stderr.read().decode(errors="replace").strip()
            proc.stderr.close()
        if proc.returncode != 0:
            raise SimulatorFailed(f"the simulator failed on {path.name}: {error or f'exit {proc.returncode}'}")
        cpu = usage.ru_utime + usage.ru_stime
        if cpu < best[0]:
            best = (cpu, usage.ru_maxrss / 1024)
    return best
