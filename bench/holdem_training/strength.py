"""Strength benchmark: exported bots played as external programs through the real judge.

    cardlab bench holdem-training strength --bots exploit,rate_equity,checker --seeds 5 --hands 10000

For each bot: export a bundle (warming its cache), then play one full match per seed under
the contest's limits (512 MB; 10 s CPU unless --cpu-limit says otherwise, so that a
measurement can finish). Prints mean W with a 95% CI over seeds (t distribution), the
points, the program's CPU seconds per match as the judge measures it (started fresh), and
its CPU alone on the first seed's recorded judge lines (the live judge's round trips are
charged to the program too: ~0.3 s for `checker`, ~0.8 s for exploit per 10,000 hands here),
and how many hands a paced bot decided lean.
"""

import math
import os
import re
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bots.holdem_training import bundle
from engine.core.stats import summarize, t95
from engine.holdem_training.judge import play_external
from engine.holdem_training.rules import points

CONTEST_CPU_SECONDS = 10.0
SEED_LABEL = "first"
WALL_SECONDS = 900.0  # a safety net only: the contest limit is CPU time, and this machine is shared
_LEAN_NOTE = re.compile(r"(\d+) of \d+ hands decided lean")  # ExploitBot.summary()


@dataclass(frozen=True)
class Strength:
    bot: str
    hands: int  # per match
    scores: tuple[float, ...]
    cpu_seconds: tuple[float, ...]
    statuses: tuple[str, ...]
    replay_cpu_seconds: float  # the program alone on the first seed's recorded judge lines
    lean_hands: tuple[int, ...] = ()  # per seed, hands a paced bot decided lean (from its stderr note)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.scores)

    @property
    def half_width(self) -> float:
        n = len(self.scores)
        if n < 2:
            return math.nan
        return t95(n - 1) * summarize(self.scores).se


def replay_cpu(run: Path, judge_lines: list[str]) -> float:
    """CPU seconds of a fresh program fed a recorded match's judge lines from a file: its own
    cost, without the live judge on the same machine (which inflates it here, see README)."""
    with tempfile.TemporaryFile() as feed:
        feed.write(("\n".join(judge_lines) + "\n").encode())
        feed.seek(0)
        proc = subprocess.Popen([str(run)], stdin=feed, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(proc.pid, 0)
    return usage.ru_utime + usage.ru_stime


def measure(bot: str, settings: list[str], *, seeds: list[int], hands: int, cpu_limit: float) -> Strength:
    """Export `bot` with `settings` into a scratch directory and play one match per seed."""
    with tempfile.TemporaryDirectory(prefix="ht_strength_") as tmp:
        return _measure(bot, settings, seeds=seeds, hands=hands, workdir=Path(tmp), cpu_limit=cpu_limit)


def _measure(bot: str, settings: list[str], *, seeds: list[int], hands: int, workdir: Path,
             cpu_limit: float) -> Strength:
    made = bundle.write(workdir / bot, bot, settings)
    scores, cpu, statuses, lean = [], [], [], []
    transcript: list[str] = []
    for seed in seeds:
        result = play_external([str(made.run)], seed=seed, hands=hands, wall_seconds=WALL_SECONDS,
                               cpu_seconds=cpu_limit, transcript=transcript if not scores else None)
        scores.append(result.average_profit)
        cpu.append(result.cpu_seconds or 0.0)
        statuses.append(result.status if not result.reason else f"{result.status}: {result.reason}")
        found = _LEAN_NOTE.search(result.stderr_tail)
        if found:
            lean.append(int(found.group(1)))
    judge_lines = [line[2:] for line in transcript if line.startswith("> ")]
    return Strength(bot, hands, tuple(scores), tuple(cpu), tuple(statuses), replay_cpu(made.run, judge_lines),
                    tuple(lean))


def report(s: Strength) -> str:
    """One line per bot for the benchmark's output."""
    hands = s.hands
    per_10k = [c * 10_000 / hands for c in s.cpu_seconds]
    over = sum(c > CONTEST_CPU_SECONDS for c in s.cpu_seconds)
    bad = [st for st in s.statuses if st != "ok"]
    return (f"{s.bot:12s} W = {s.mean:7.3f} +- {s.half_width:.3f} (95% CI, {len(s.scores)} seeds x {hands} hands)"
            f"  points {points(s.mean):4d}  CPU/10k hands with the live judge: mean {statistics.fmean(per_10k):.2f} s,"
            f" max {max(per_10k):.2f} s ({over} over {CONTEST_CPU_SECONDS:g} s;"
            f" per seed {', '.join(f'{c:.2f}' for c in per_10k)});"
            f" program alone (replayed seed {SEED_LABEL}): {s.replay_cpu_seconds * 10_000 / hands:.2f} s"
            f"  per-seed W {', '.join(f'{w:.2f}' for w in s.scores)}"
            + (f"  hands decided lean (CPU pace) per seed: {', '.join(map(str, s.lean_hands))}" if s.lean_hands else "")
            + (f"  NOT OK: {bad}" if bad else ""))
