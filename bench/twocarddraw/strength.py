"""Bot strength over generated servers, measured exactly: the issue's benchmark (a command, not a test).

Server i: bet pair (11 i mod 35) so any 35 consecutive servers cover every pair; step count
drawn uniformly over 10,000..200,000 for even i and log-uniformly for odd i (the statement does
not say which); generator reading READINGS[i mod 5] (the default reading, then each alternative
in turn); strategy seed i + 1 (the prior banks use seeds from 1,000,000). A bot's strength on a
server is the exact expected profit per hand of the policies it played over the test (engine
exact.py), averaged over the deal seeds, as a ratio to the best response's value. Every bot
faces the same servers and deals, so differences are paired by server.
"""

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from bots.choice import BotChoice
from engine.core import seeds
from engine.core.stats import summarize
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R
from engine.twocarddraw.exact import exact_run


@dataclass(frozen=True)
class BenchServer:
    index: int
    bets: R.BetSizes
    steps: int
    seed: int
    reading: B.Reading
    step_law: str  # "uniform" or "log-uniform"

    def strategy(self):
        return B.generate(self.bets, steps=self.steps, seed=self.seed, reading=self.reading).strategy


def benchmark_server(index: int) -> BenchServer:
    bets = R.ALL_BET_SIZES[(index * 11) % len(R.ALL_BET_SIZES)]
    rng = seeds.generator(seeds.unit_key(seeds.match_key(index + 1), index, seeds.Purpose.OPPONENT))
    if index % 2 == 0:
        steps, law = int(rng.integers(B.MIN_STEPS, B.MAX_STEPS + 1)), "uniform"
    else:
        steps, law = int(round(math.exp(rng.uniform(math.log(B.MIN_STEPS), math.log(B.MAX_STEPS))))), "log-uniform"
    return BenchServer(index, bets, steps, index + 1, B.READINGS[index % len(B.READINGS)], law)


def strength_rows(entries: list[BotChoice], *, servers: Iterable[int], hands: int, deal_seeds: list[int],
                  progress: Callable[[str], None] | None = None) -> list[dict]:
    rows = []
    makers = {e.label: e.make for e in entries}
    for index in servers:
        server = benchmark_server(index)
        strategy = server.strategy()
        row = {"server": index, "bet1": server.bets.bet1, "bet2": server.bets.bet2, "steps": server.steps,
               "step_law": server.step_law, "reading": server.reading.label or "default",
               "br_value": B.best_response(strategy).value}
        for e in entries:
            runs = [exact_run(makers[e.label](), strategy, seed=s, hands=hands) for s in deal_seeds]
            row[e.label] = float(np.mean([r.expected_per_hand for r in runs]))
            row[f"{e.label}|last1000"] = float(np.mean([r.values[-1000:].mean() for r in runs]))
            row[f"{e.label}|cpu"] = max(r.bot_cpu_seconds for r in runs)
            row[f"{e.label}|status"] = ",".join(sorted({r.status for r in runs}))
        rows.append(row)
        if progress:
            ratios = "  ".join(f"{e.label} {row[e.label] / row['br_value']:.3f}" for e in entries)
            progress(f"server {index} ({server.bets.bet1},{server.bets.bet2}) {server.steps} steps, "
                     f"{row['reading']}: BR {row['br_value']:+.4f}; {ratios}")
    return rows


def _paired(diff: np.ndarray) -> dict:
    s = summarize(diff)
    return {"mean": s.mean, "ci_low": s.ci_low, "ci_high": s.ci_high}


def summarise(rows: list[dict], labels: list[str]) -> dict:
    """Per bot: mean of per-server ratios, ratio of sums, by reading; the first bot's paired
    differences (per-server ratio and expected profit per hand) to each other bot."""
    br = np.array([r["br_value"] for r in rows])
    first = labels[0]
    out = {}
    for label in labels:
        ev = np.array([r[label] for r in rows])
        ratios = ev / br
        by_reading = {}
        for reading in sorted({r["reading"] for r in rows}):
            pick = np.array([r["reading"] == reading for r in rows])
            by_reading[reading] = {"servers": int(pick.sum()), "mean_ratio": float(ratios[pick].mean()),
                                   "ratio_of_sums": float(ev[pick].sum() / br[pick].sum())}
        last = np.array([r[f"{label}|last1000"] for r in rows])
        out[label] = {
            "mean_ratio": float(ratios.mean()), "ratio_of_sums": float(ev.sum() / br.sum()),
            "last1000_ratio_of_sums": float(last.sum() / br.sum()),
            "expected_per_hand": float(ev.mean()), "by_reading": by_reading,
            "max_cpu": float(max(r[f"{label}|cpu"] for r in rows)),
            "faults": sum(r[f"{label}|status"] != "ok" for r in rows),
        }
        if label != first:
            mine = np.array([r[first] for r in rows])
            out[label]["first_minus_ratio"] = _paired(mine / br - ratios)
            out[label]["first_minus_per_hand"] = _paired(mine - ev)
    return out
