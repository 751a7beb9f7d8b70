"""Versions of a bot paired on the same deals, in process (fast enough to iterate on; the league
benchmark, ranged_leagues.sh, plays the exported programs for the final figures).

    python -m bench.cg_holdem.ranged_paired --against aggressive --games 400 ranged ranged:adapt=0
    python -m bench.cg_holdem.ranged_paired --against aggressive/montecarlo/pushfold ranged@HEAD ranged

Each candidate plays the same games (seed, units, seatings: every deal in every seat rotation) against
the same line-up; candidates and opponents are cardlab bots (`name:k=v`), the ranged bot as committed
at a git revision (`ranged@REV`, its defaults) or the style programs (`style:lag`), whose own code
runs in process. Printed: each candidate's mean finish score, and every later candidate minus
the first per game with a 95% interval (flows.stats.paired_mean_interval).
"""

import argparse
import importlib
import subprocess
import sys
import types
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from bots import choice
from bots.cg_holdem import BOTS
from engine.cg_holdem import judge
from flows.stats import paired_look, paired_mean_interval, summarize

STYLES = Path(__file__).parent / "styles"
ROOT = Path(__file__).resolve().parents[2]


def style_maker(name: str):
    """A style program's player in process (bench/cg_holdem/styles/NAME.py, its own seed)."""
    if str(STYLES) not in sys.path:
        sys.path.insert(0, str(STYLES))
    module = importlib.import_module(name)
    common = importlib.import_module("common")
    return lambda: common.Program(module.decide, getattr(module, "SEED", 1))


def committed_module(rev: str) -> types.ModuleType:
    """bots/cg_holdem/ranged.py as committed at ``rev`` (git)."""
    source = subprocess.run(["git", "show", f"{rev}:bots/cg_holdem/ranged.py"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    module = types.ModuleType(f"ranged_at_{rev}")
    exec(compile(source, f"ranged.py@{rev}", "exec"), module.__dict__)
    return module


def committed_maker(rev: str):
    """The ranged bot as committed at ``rev`` (git), defaults only: the version before a change."""
    module = committed_module(rev)
    return lambda: module.RangedBot(module.RangedConfig())


def maker(entry: str):
    if entry.startswith("style:"):
        return style_maker(entry.split(":", 1)[1])
    if entry.startswith("ranged@"):
        return committed_maker(entry.split("@", 1)[1])
    return choice.entry(BOTS, entry).make


def _chunk(job) -> np.ndarray:
    entries, seed, first, count = job
    return judge.play_chunk([maker(e) for e in entries], seed=seed, first=first, count=count).payoffs


def payoffs(candidate: str, against: list[str], *, games: int, seed: int, workers: int = 1) -> np.ndarray:
    """The candidate's finish score per game (units 0..games-1) against the line-up."""
    entries = [candidate, *against]
    step = max(1, -(-games // max(1, workers)))
    jobs = [(entries, seed, first, min(step, games - first)) for first in range(0, games, step)]
    if workers <= 1:
        return np.concatenate([_chunk(j) for j in jobs])
    with ProcessPoolExecutor(workers) as pool:
        return np.concatenate(list(pool.map(_chunk, jobs)))


def compare(candidates: list[str], against: list[str], *, games: int, seed: int, workers: int = 1) -> list[str]:
    return report({c: payoffs(c, against, games=games, seed=seed, workers=workers) for c in candidates})


def report(scores: dict[str, np.ndarray]) -> list[str]:
    """Each candidate's mean finish score, and every later one minus the first per game (95% interval)."""
    base = next(iter(scores))
    lines = []
    for c, s in scores.items():
        line = f"{c}: mean finish score {s.mean():.3f} over {len(s)} games"
        if c != base:
            d = summarize(s - scores[base])
            look = paired_look(s - scores[base])
            m = paired_mean_interval(d.n, d.mean, d.se, (-1.0, 1.0))
            line += f"; minus {base}: {m.mean:+.3f} [{m.low:+.3f}, {m.high:+.3f}] per game (sd {look.sd:.3f})"
        lines.append(line)
    return lines


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", nargs="+", help="bot entries, the first is the baseline")
    ap.add_argument("--against", required=True, help="opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    against = [a for a in args.against.split("/") if a]
    print(f"against {'/'.join(against)}, seed {args.seed}:")
    print("\n".join(compare(args.candidates, against, games=args.games, seed=args.seed, workers=args.workers)))


if __name__ == "__main__":
    main()
