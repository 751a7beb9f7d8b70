"""The Splendor clone test (issue 27): does a fitted move-choice model play like the agent it was fitted to?

For each original (cardlab bots by default): play it in logged matches (`cardlab match`'s own path, into
a scratch hand log), fit its model from those games (flows/opponents/splendor.py), then play every
candidate heads-up against the original and against the clone on the same deals and seats (common random
numbers), and compare: each candidate's win share against both (Wilson intervals), the paired difference
clone - original per game (a 95% interval that should hold 0), and whether the candidates rank the same
way against both (every pair of candidates, and the pairs the original tells apart). The clone plays as
the fit chose (its most likely move, or drawn), unless --play says otherwise.

    nice -n 15 .venv/bin/python -m bench.splendor.clone_test --games 60 --log-games 40 --original greedy
"""

import argparse
import json
import tempfile
import time
from dataclasses import asdict, dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from bots.splendor import BOTS
from engine.core.stats import Interval, Proportion, mean_interval, wilson
from engine.splendor.agents import InProcessAgent
from engine.splendor.judge import play_chunk
from flows.match import MatchPlan, run_match
from flows.opponents import splendor as model
from flows.opponents.base import FittedModel
from flows.store import HandLog, read_only

ORIGINALS = ("greedy", "greedy:target=4,noble=4", "mcts:iterations=300")
# Against the originals' fields: each original is logged against each of these (its own games only count)
FIELD = ("random", "greedy", "greedy:target=4,noble=4")
CANDIDATES = ("random", "greedy:points=5,target=30", "greedy", "mcts:iterations=60", "mcts:iterations=300")


def parse(name: str):
    """(bot spec, config) of NAME or NAME:k=v,k=v."""
    bot, _, settings = name.partition(":")
    spec = BOTS[bot]
    return spec, spec.config_from([p for p in settings.split(",") if p])


def log_matches(db: Path, original: str, *, games: int, seed: int) -> list[str]:
    """The original as the candidate of one logged match per field bot (`cardlab match` plays them so)."""
    bot, _, settings = original.partition(":")
    ids = []
    for k, opponent in enumerate(FIELD):
        obot, _, osettings = opponent.partition(":")
        plan = MatchPlan(game="splendor", bot=bot, overrides=tuple(tuple(p.split("=", 1)) for p in settings.split(",")
                                                                   if p),
                         options=(("opponent", obot), ("opponent_set", osettings.replace(",", ";"))),
                         seed=seed + k, units=games, chunk_size=games)
        with HandLog(db) as store:
            ids.append(run_match(plan, store).match_id)
    return ids


def shares(candidate: str, opponent_agent, *, games: int, seed: int) -> np.ndarray:
    spec, config = parse(candidate)
    return play_chunk(InProcessAgent(f"{candidate}*", spec.make(config)), [opponent_agent], seed=seed, first=0,
                      count=games).payoffs


@dataclass(frozen=True)
class Row:
    original: str
    candidate: str
    against_original: Proportion
    against_clone: Proportion
    difference: Interval  # clone - original, paired per game

    @property
    def within(self) -> bool:
        return self.difference.low <= 0.0 <= self.difference.high


@dataclass(frozen=True)
class OriginalResult:
    original: str
    fit: FittedModel
    rows: tuple[Row, ...]
    argmax: bool = False  # the clone played its most likely move (else drew one)

    def pair_agreement(self) -> tuple[int, int, int, int]:
        """(pairs ordered alike, pairs, pairs the original tells apart ordered alike, such pairs)."""
        alike = total = decided_alike = decided = 0
        for a, b in combinations(self.rows, 2):
            d_orig = a.against_original.rate - b.against_original.rate
            d_clone = a.against_clone.rate - b.against_clone.rate
            same = np.sign(d_orig) == np.sign(d_clone)
            alike += bool(same)
            total += 1
            apart = a.against_original.low > b.against_original.high or b.against_original.low > a.against_original.high
            if apart:
                decided += 1
                decided_alike += bool(same)
        return alike, total, decided_alike, decided


def clone_test(*, originals=ORIGINALS, candidates=CANDIDATES, games: int = 40, log_games: int = 60, seed: int = 1,
               play: str = "model", folder: Path | None = None) -> list[OriginalResult]:
    folder = Path(folder or tempfile.mkdtemp(prefix="clone-test-"))
    db = folder / "handlog.duckdb"
    out = []
    for i, original in enumerate(originals):
        ids = log_matches(db, original, games=log_games, seed=1000 * (i + 1))
        con = read_only(db)
        try:
            fitted = model.fit(con, original, matches=ids, seed=seed)
        finally:
            con.close()
        clone_spec, clone_config = model.seat(fitted.params)
        if play != "model":  # else as the fit chose (its params' argmax)
            clone_config = type(clone_config)(**{**asdict(clone_config), "argmax": play == "argmax"})
        spec, config = parse(original)
        rows = []
        for candidate in candidates:
            vs_original = shares(candidate, InProcessAgent(original, spec.make(config)), games=games, seed=seed)
            vs_clone = shares(candidate, InProcessAgent("clone", clone_spec.make(clone_config)), games=games, seed=seed)
            diff = vs_clone - vs_original
            rows.append(Row(original, candidate, wilson(float(vs_original.sum()), games),
                            wilson(float(vs_clone.sum()), games),
                            mean_interval(games, float(diff.mean()), float(diff.std(ddof=1)), (-1.0, 1.0))))
        out.append(OriginalResult(original, fitted, tuple(rows), clone_config.argmax))
    return out


def report(results: list[OriginalResult]) -> str:
    lines = []
    for r in results:
        f = r.fit
        lines.append(f"original {r.original}: {f.decisions} fit decisions, held-out log-loss per decision "
                     f"{f.heldout_logloss:.3f} (population {f.baseline_logloss:.3f}, uniform {f.uniform_logloss:.3f}; "
                     f"{f.heldout_decisions} decisions); pull toward the population {f.params.get('shrink')}, "
                     f"the clone {'plays its most likely move' if r.argmax else 'draws'}")
        cal = f.calibration[0]
        lines.append("  held-out move kinds, predicted / observed: "
                     + ", ".join(f"{k} {cal.predicted[k]:.2f}/{cal.observed[k]:.2f}" for k in cal.predicted))
        lines.append(f"  {'candidate':28} {'vs original':>22} {'vs clone':>22} {'clone - original':>26}")
        for row in r.rows:
            o, c, d = row.against_original, row.against_clone, row.difference
            lines.append(f"  {row.candidate:28} {o.rate:6.3f} [{o.low:.3f}, {o.high:.3f}]  {c.rate:6.3f} "
                         f"[{c.low:.3f}, {c.high:.3f}]  {d.mean:+.3f} [{d.low:+.3f}, {d.high:+.3f}]"
                         + ("" if row.within else "  *"))
        alike, total, decided_alike, decided = r.pair_agreement()
        order_o = sorted(r.rows, key=lambda x: -x.against_original.rate)
        order_c = sorted(r.rows, key=lambda x: -x.against_clone.rate)
        lines.append(f"  ranking vs original: {' > '.join(x.candidate for x in order_o)}")
        lines.append(f"  ranking vs clone:    {' > '.join(x.candidate for x in order_c)}")
        lines.append(f"  pairs ordered alike {alike}/{total}; of the pairs the original tells apart {decided_alike}/"
                     f"{decided}; differences whose interval holds 0: {sum(x.within for x in r.rows)}/{len(r.rows)}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per candidate against each opponent")
    parser.add_argument("--log-games", type=int, default=60, help="logged games per field bot to fit from")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play", choices=("model", "argmax", "drawn"), default="model",
                        help="the clone plays its most likely move or draws one; model: as the fit chose")
    parser.add_argument("--original", action="append", help=f"agents to clone (default: {', '.join(ORIGINALS)})")
    parser.add_argument("--candidate", action="append", help=f"candidates (default: {', '.join(CANDIDATES)})")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    results = clone_test(originals=tuple(args.original or ORIGINALS), candidates=tuple(args.candidate or CANDIDATES),
                         games=args.games, log_games=args.log_games, seed=args.seed, play=args.play)
    print(report(results))
    print(f"{time.perf_counter() - started:.0f} s")
    if args.json:
        args.json.write_text(json.dumps([{"original": r.original, "fit": {k: v for k, v in asdict(r.fit).items()
                                                                          if k != "params"},
                                          "rows": [asdict(x) for x in r.rows], "pairs": r.pair_agreement(),
                                          "argmax": r.argmax, "shrink": r.fit.params.get("shrink"),
                                          "inner_logloss": r.fit.params.get("inner_logloss")}
                                         for r in results], indent=1, default=float))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
