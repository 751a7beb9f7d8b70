"""`cardlab bench decisions`: the sequential pipeline (flows/decide.py) over repeated independent runs on
pairs of configs whose right decision is known, against the fixed design of 20,000 units per config.

Each run is a real decided sweep (race, then the SPRT on fresh deals) of one challenger against a
baseline, on its own sweep seed (so its own deals), in a scratch hand log; MLflow is left out (it
does not change a decision). A wrong decision is "switch" where keeping is right, or "keep" where
switching is; "undecided" at the cap is counted apart.

A full run costs a sweep's overhead and, on the null pair, thousands of hands; bounding an error rate near
alpha takes hundreds of runs. `pool` and `blocks` are the faster harness: the pair's configs play a long
stretch of deals once (the judge's real output, the game's luck taken out by flows.decide.Outcomes), and the
same SPRT (flows.stats.Sprt on flows.stats.paired_look, as the confirmation reads it) runs again and again
on consecutive disjoint blocks of those paired differences: every run on hands no other run saw, so the runs
are independent like the full pipeline's.
"""

import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.stats import Proportion, exact_binomial
from flows.decide import Rule, defaults_for, make_rule, with_runner
from flows.stats import paired_look
from flows.sweep import SweepSpec

FIXED_PER_CONFIG = 20_000  # today's design: every config gets 20,000 units


@dataclass(frozen=True)
class Pair:
    name: str
    challenger: tuple[tuple[str, str], ...]
    baseline: tuple[tuple[str, str], ...]
    right: str  # switch or keep
    why: str
    null: bool = False  # no difference by construction: its true mean is d0 exactly, whatever a sample says
    # Overrides that are the bot's own sampling seed, given fresh values by every run (odd for the challenger, even
    # for the baseline): a bot whose draws follow its config seed and the hand number alone, not the match's seed,
    # replays the same draws at hand h in every run, so runs with fixed seeds would all test one conditional
    # difference (the mean given those draws, which is not 0) and would not be independent.
    reseeded: tuple[str, ...] = ()

    def configs(self, run_seed: int) -> tuple[tuple, tuple]:
        """(challenger, baseline) overrides for the run on sweep seed `run_seed`."""
        if not self.reseeded:
            return self.challenger, self.baseline
        mine = {k: str(2 * run_seed + 1) for k in self.reseeded}
        theirs = {k: str(2 * run_seed) for k in self.reseeded}
        return (tuple((dict(self.challenger) | mine).items()), tuple((dict(self.baseline) | theirs).items()))


# Hold'em Training, exploit bot. The bot's own sampling seed changes no expectation (a difference of
# exactly 0); one completion per street instead of 10/8 costs about 2.7 chips/hand (a fixed sweep:
# -2.70 +/- 0.5 over 4,000 paired hands, seed 77; the bench's own fixed runs print theirs).
WEAK = (("runouts_flop", "1"), ("runouts_turn", "1"))
STRONG = (("runouts_flop", "10"), ("runouts_turn", "8"))
NO_RULES = (("lead_blocks", "false"), ("dump_points", "false"), ("ruff", "false"))  # Tractor's rule bot
PAIRS = {
    "holdem-training": (
        Pair("null", (("seed", "1"),), (("seed", "0"),), "keep", "the bot's sampling seed: no difference", True,
             reseeded=("seed",)),
        Pair("worse", WEAK, STRONG, "keep", "1/1 completions against 10/8: clearly worse", reseeded=("seed",)),
        Pair("better", STRONG, WEAK, "switch", "10/8 completions against 1/1: clearly better", reseeded=("seed",)),
    ),
    # TwoCardDraw, mixture bot, the default server. Thompson draws on seed 1 or 0: the same expectation by
    # symmetry, different play; a learner that never re-solves (the prior's best response throughout) is
    # clearly worse than one re-solving every hand (bench decisions --luck prints the differences).
    "twocarddraw": (
        Pair("null", (("explore", "thompson"), ("explore_seed", "1")), (("explore", "thompson"), ("explore_seed", "0")),
             "keep", "Thompson draws on another seed: no difference", True),
        Pair("worse", (("resolve_every", "1000000"),), (("resolve_every", "1"),), "keep",
             "never re-solving against re-solving every hand: clearly worse"),
        Pair("better", (("resolve_every", "1"),), (("resolve_every", "1000000"),), "switch",
             "re-solving every hand against never: clearly better"),
    ),
    # CodinGame Hold'em, aggressive bot, default opponents: calling whenever the pot odds allow minus a whole
    # unit of equity (calling everything) is clearly worse. (No null pair: the bot's seed is replaced per game,
    # so seeds 0 and 1 play identical games.)
    "cg-holdem": (
        Pair("worse", (("call_margin", "-1"),), (), "keep", "calling every bet against the default: clearly worse"),
    ),
    # Splendor, greedy bot against the default greedy opponent: a bot that values points negatively (it avoids
    # scoring) is clearly worse than the default evaluation; the same pair the other way is clearly better.
    "splendor": (
        Pair("worse", (("points", "-20"),), (), "keep", "points valued at -20 against +20: clearly worse"),
        Pair("better", (), (("points", "-20"),), "switch", "points valued at +20 against -20: clearly better"),
    ),
    # Tractor, rule bot against the default rule opponents: every rule off (no high pairs led, no points to the
    # partner, no ruffing) against every rule on.
    "tractor": (
        Pair("worse", NO_RULES, (), "keep", "every rule off against every rule on: clearly worse"),
        Pair("better", (), NO_RULES, "switch", "every rule on against every rule off: clearly better"),
    ),
}
BOT = {"holdem-training": "exploit", "twocarddraw": "mixture", "cg-holdem": "aggressive", "splendor": "greedy",
       "tractor": "rule"}  # whose configs they are


@dataclass(frozen=True)
class PairResult:
    pair: Pair
    decisions: tuple[str, ...]
    hands: tuple[int, ...]
    seconds: float

    @property
    def wrong(self) -> int:
        return sum(d not in (self.pair.right, "undecided") for d in self.decisions)

    @property
    def undecided(self) -> int:
        return sum(d == "undecided" for d in self.decisions)

    @property
    def error(self) -> Proportion:
        return exact_binomial(self.wrong, len(self.decisions))

    @property
    def mean_hands(self) -> float:
        return sum(self.hands) / len(self.hands)

    @property
    def factor(self) -> float:
        """Units of the fixed design (2 configs x 20,000) per unit the sequential pipeline used."""
        return 2 * FIXED_PER_CONFIG / self.mean_hands


def look_every(game: str) -> int:
    """Units between two looks: the game's chunk, as `sweep --until-decided` plays it (cardlab/cli.py)."""
    found = defaults_for(game)
    return found.batch if found else 1000


def run(game: str = "holdem-training", *, bot: str | None = None, repeats: int = 10, cap: int = FIXED_PER_CONFIG,
        seed: int = 1000, pairs: tuple[str, ...] | None = None, rule: Rule | None = None, workers: int | None = None,
        batch: int | None = None, progress=None, record=None) -> list[PairResult]:
    """Every pair `repeats` times, run r on sweep seed `seed + r`; `cap` units per config and phase, a look
    every `batch` units (default: the game's). `progress(pair, r, decision)` after each run; `record(pair, r,
    decision, looks)` with the confirmation's looks too (units, mean, sd, llr each), read from the run's hand log."""
    chosen = [p for p in PAIRS[game] if pairs is None or p.name in pairs]
    bot = bot or BOT[game]
    rule = rule or make_rule(game)
    batch = min(cap, batch or look_every(game))
    folder = Path(tempfile.mkdtemp(prefix="cardlab-bench-decisions-"))
    decide = with_runner("threads", workers=workers)
    results = []
    try:
        db = str(folder / "handlog.duckdb")
        for pair in chosen:
            started = time.perf_counter()
            decisions, hands = [], []
            for r in range(repeats):
                challenger, baseline = pair.configs(seed + r)
                spec = SweepSpec(game=game, bot=bot, grid=tuple((k, (v,)) for k, v in challenger),
                                 units=cap, seed=seed + r, chunk_size=batch, baseline=baseline)
                got = decide(spec, rule, db=db, track=False)
                decisions.append(got.decision)
                hands.append(got.hands)
                if progress is not None:
                    progress(pair, r, got)
                if record is not None:
                    record(pair, r, got, confirm_looks(db, got.sweep_id))
            results.append(PairResult(pair, tuple(decisions), tuple(hands), time.perf_counter() - started))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return results


def confirm_looks(db: str, sweep_id: str) -> list[dict]:
    """The confirmation's looks of a decided sweep: units, mean, sd and llr at each."""
    from flows.store import read_only

    with read_only(db) as con:
        rows = con.execute("SELECT units, mean, sd, llr FROM decision_looks WHERE sweep_id = ? AND phase = 'confirm' "
                           "ORDER BY look", [sweep_id]).fetchall()
    return [dict(zip(("units", "mean", "sd", "llr"), row, strict=True)) for row in rows]


@dataclass(frozen=True)
class Resampled:
    """The SPRT's error rates on one pair's real paired differences, resampled with replacement after
    centring (so the true difference is exactly d0, or exactly d1 once shifted)."""

    pair: str  # "a minus b" by match id
    sd: float
    skewness: float
    kurtosis: float  # excess
    wrong_d0: Proportion  # runs at d0 that said switch, with the exact 95% interval of the rate
    wrong_d1: Proportion  # runs at d1 that said keep
    units_d0: float  # mean units per config at d0
    units_d1: float
    undecided: float
    runs: int

    @property
    def alpha(self) -> float:
        return self.wrong_d0.rate

    @property
    def beta(self) -> float:
        return self.wrong_d1.rate


def resample(con, sweep_id: str, rule: Rule, *, runs: int = 1000, cap: int = FIXED_PER_CONFIG, batch: int = 1000,
             seed: int = 1) -> list[Resampled]:
    """Every ordered pair of the sweep's configs (both signs of each difference: the skew's direction
    matters) as the confirmation would test it, `runs` times at d0 and at d1, looking every `batch` units."""
    rows = con.execute("SELECT match_id FROM matches WHERE sweep_id = ? ORDER BY match_id", [sweep_id]).fetchall()
    ids = [r[0] for r in rows]
    rng = np.random.default_rng(seed)
    out = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            d = np.array([x for (x,) in con.execute(
                "SELECT x.payoff - y.payoff FROM units x JOIN units y ON x.unit = y.unit "
                "WHERE x.match_id = ? AND y.match_id = ? ORDER BY x.unit", [a, b]).fetchall()], dtype=float)
            if len(d) < 2 or d.std() == 0:
                continue
            for sign, name in ((1.0, f"{a} minus {b}"), (-1.0, f"{b} minus {a}")):
                out.append(resampled(name, sign * d, rule, rng, runs=runs, cap=cap, batch=batch))
    return out


def resampled(name: str, d: np.ndarray, rule: Rule, rng, *, runs: int, cap: int, batch: int) -> Resampled:
    """The SPRT `runs` times on `d` centred at d0 and shifted to d1, drawn with replacement."""
    base = d - d.mean()
    test = rule.sprt()
    verdicts, units = {}, {}
    for shift in (rule.d0, rule.d1):
        verdicts[shift], units[shift] = _sprt_runs(base + shift, test, rng, runs=runs, cap=cap, batch=batch)
    sd = float(base.std())
    z = base / sd
    return Resampled(
        name, sd, float((z ** 3).mean()), float((z ** 4).mean() - 3),
        exact_binomial(int(np.sum(verdicts[rule.d0] == "H1")), runs),
        exact_binomial(int(np.sum(verdicts[rule.d1] == "H0")), runs),
        float(units[rule.d0].mean()), float(units[rule.d1].mean()),
        float(np.mean(np.concatenate([verdicts[rule.d0], verdicts[rule.d1]]) == None)),  # noqa: E711
        runs)


def _sprt_runs(values, test, rng, *, runs: int, cap: int, batch: int):
    """`runs` sequential tests on draws from `values`: each run's verdict (None at the cap) and units."""
    verdicts = np.full(runs, None, dtype=object)
    used = np.full(runs, cap)
    n = np.zeros(runs)
    total = np.zeros(runs)
    squares = np.zeros(runs)
    open_ = np.ones(runs, dtype=bool)
    while open_.any() and n[open_][0] < cap:
        idx = np.flatnonzero(open_)
        x = rng.choice(values, (len(idx), batch))
        n[idx] += batch
        total[idx] += x.sum(axis=1)
        squares[idx] += (x * x).sum(axis=1)
        for r in idx:
            mean = total[r] / n[r]
            verdict = test.verdict(test.llr(int(n[r]), mean, (squares[r] - n[r] * mean * mean) / (n[r] - 1)),
                                   int(n[r]))
            if verdict is not None:
                verdicts[r], used[r], open_[r] = verdict, n[r], False
    return verdicts, used


# ---------------------------------------------------------------------------------- the faster harness
@dataclass(frozen=True)
class Pooled:
    """One pair's configs on the same long stretch of deals: per unit, challenger minus baseline, raw and
    with the game's luck taken out (what decisions read)."""

    pair: Pair
    raw: np.ndarray
    adjusted: np.ndarray


def _play_outcomes(game: str, bot: str, config: tuple, seed: int, units: int, luck: bool):
    """One config on `units` deals of `seed` in a scratch hand log of this process: (raw, adjusted) payoffs."""
    from flows import games
    from flows.decide import Outcomes
    from flows.match import MatchPlan, run_match
    from flows.store import HandLog

    folder = Path(tempfile.mkdtemp(prefix="cardlab-bench-pool-"))
    try:
        with HandLog(str(folder / "handlog.duckdb")) as store:
            run_match(MatchPlan(game=game, bot=bot, overrides=config, seed=seed, units=units,
                                chunk_size=min(units, 5000)), store, match_id="pool", source="bench")
            return Outcomes(store, games.get(game).luck if luck else None).of("pool", units)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def pool(game: str = "holdem-training", *, bot: str | None = None, hands: int = 100_000, seed: int = 8000,
         part: int = 10_000, pairs: tuple[str, ...] | None = None, luck: bool = True, workers: int = 2,
         progress=None) -> list[Pooled]:
    """The chosen pairs' configs on `hands` deals in parts of `part` (part p on seed `seed + p`, so each part
    is one match per config and the parts play in parallel, each in its own process)."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from flows.match import MatchPlan

    chosen = [p for p in PAIRS[game] if pairs is None or p.name in pairs]
    bot = bot or BOT[game]
    # Overrides that resolve to the same config (the default seed, the default completions) play once.
    resolved = {c: MatchPlan(game=game, bot=bot, overrides=c, seed=seed, units=1).config()
                for p in chosen for c in (p.challenger, p.baseline)}
    configs = list({v: c for c, v in reversed(resolved.items())}.values())
    sizes = [min(part, hands - first) for first in range(0, hands, part)]
    got: dict[tuple, list] = {c: [None] * len(sizes) for c in configs}
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as ex:
        jobs = {ex.submit(_play_outcomes, game, bot, c, seed + p, n, luck): (c, p)
                for p, n in enumerate(sizes) for c in configs}
        for job in jobs:
            c, p = jobs[job]
            got[c][p] = job.result()
            if progress is not None:
                progress(c, p, len(sizes))
    whole = {resolved[c]: (np.concatenate([r for r, _ in parts]), np.concatenate([a for _, a in parts]))
             for c, parts in got.items()}
    return [Pooled(p, *(whole[resolved[p.challenger]][k] - whole[resolved[p.baseline]][k] for k in (0, 1)))
            for p in chosen]


def blocks(differences: np.ndarray, rule: Rule, *, batch: int, cap: int = FIXED_PER_CONFIG) -> list[tuple[str, int]]:
    """The confirmation's SPRT run after run on consecutive disjoint blocks of real paired differences: each
    run starts on the first unit no earlier run read, looks after every `batch` units (the SPRT itself waits
    for its first look), and ends at a verdict or the cap, as flows/decide.py's confirmation does. Returns
    each run's decision (switch, keep or undecided) and units per config; the last run is dropped when the
    differences end before it does."""
    test = rule.sprt()
    out, start = [], 0
    while True:
        n, verdict = 0, None
        while verdict is None and n < cap:
            n = min(n + batch, cap)
            if start + n > len(differences):
                return out
            look = paired_look(differences[start:start + n])
            verdict = test.verdict(test.llr(look.n, look.mean, look.sd ** 2), look.n)
        out.append((_decision(verdict), n))
        start += n


def _decision(verdict: str | None) -> str:
    return {"H1": "switch", "H0": "keep"}.get(verdict, "undecided")


def resampled_runs(pair: Pair, d: np.ndarray, rule: Rule, rng, *, runs: int, cap: int, batch: int) -> PairResult:
    """`runs` tests on draws with replacement from the pair's own differences, their real mean kept (what
    independent runs would do if the pool's hands were all the hands there are), scored like full runs."""
    verdicts, used = _sprt_runs(d, rule.sprt(), rng, runs=runs, cap=cap, batch=batch)
    return PairResult(pair, tuple(_decision(v) for v in verdicts), tuple(2 * int(u) for u in used), 0.0)


def block_result(pair: Pair, runs: list[tuple[str, int]]) -> PairResult:
    """Block runs scored like full ones (a run's units count both configs, as a sweep's hands do)."""
    return PairResult(pair, tuple(d for d, _ in runs), tuple(2 * n for _, n in runs), 0.0)
