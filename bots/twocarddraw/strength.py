"""Bot strength over generated servers: the issue's benchmark (a command, not a test).

Servers: bet pairs spread evenly over the 35 legal pairs, step counts drawn from the
statement's 10,000..200,000, strategy seeds 1.. (the prior banks use seeds from 1,000,000).
Every bot faces the same servers and the same deals, so differences are paired.
"""

import math
from collections.abc import Callable, Iterable

import numpy as np

from bots.twocarddraw import BOTS
from engine.core import seeds
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R
from engine.twocarddraw.judge import play_bot


def benchmark_server(index: int) -> tuple[R.BetSizes, int, int]:
    """(bets, steps, strategy seed) of benchmark server `index` (0..34)."""
    bets = R.ALL_BET_SIZES[round(index * 34 / 15) % 35] if index < 16 else R.ALL_BET_SIZES[(index * 7) % 35]
    rng = seeds.generator(seeds.unit_key(seeds.match_key(index + 1), index, seeds.Purpose.OPPONENT))
    steps = int(rng.integers(B.MIN_STEPS, B.MAX_STEPS + 1))
    return bets, steps, index + 1


def strength_rows(names: list[str], *, configs: dict | None = None, tests: int, hands: int, seeds: Iterable[int],
                  first_test: int = 0, progress: Callable[[str], None] | None = None) -> list[dict]:
    rows = []
    for index in range(first_test, first_test + tests):
        bets, steps, strategy_seed = benchmark_server(index)
        server = B.generate(bets, steps=steps, seed=strategy_seed).strategy
        value = B.best_response(server).value
        for deal_seed in seeds:
            row = {"server": index, "bet1": bets.bet1, "bet2": bets.bet2, "steps": steps, "seed": deal_seed,
                   "br_value": value}
            for name in names:
                result = play_bot(BOTS[name].make((configs or {}).get(name)), server, seed=deal_seed, count=hands)
                row[name] = result.score
                row[f"{name}_cpu"] = result.cpu_seconds
            rows.append(row)
            if progress:
                scores = "  ".join(f"{n} {row[n]:.0f}" for n in names)
                progress(f"server {index} ({bets.bet1},{bets.bet2}) {steps} steps, seed {deal_seed}: {scores}")
    return rows


def summarise(rows: list[dict], names: list[str]) -> dict:
    first = np.array([r[names[0]] for r in rows])
    out = {}
    for name in names:
        scores = np.array([r[name] for r in rows])
        diff = first - scores
        half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else math.nan
        out[name] = {
            "mean_score": float(scores.mean()), "diff": float(diff.mean()),
            "ci_low": float(diff.mean() - half), "ci_high": float(diff.mean() + half),
            "ratio": float(first.mean() / scores.mean()) if scores.mean() else math.inf,
            "max_cpu": float(max(r[f"{name}_cpu"] for r in rows)),
        }
    return out
