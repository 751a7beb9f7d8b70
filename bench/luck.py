"""`cardlab bench decisions --luck`: how much the judge's zero-mean luck correction (GameSpec.luck) narrows
paired differences, and a check that it moves no mean, on a large fixed run of the benchmark pairs.

Every config of the pairs plays the same `hands` deals (seed `seed`) into a scratch hand log; for each pair
the raw and the adjusted paired differences are compared: their means must agree within the interval of the
correction's own mean (an unbiased correction's interval covers 0), and the variance-reduction factor (raw
variance / adjusted) is how many times fewer hands a sequential test needs for the same decision.
"""

import importlib
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.decisions import BOT, PAIRS, Pair
from engine.core.stats import LuckCheck, luck_check
from flows import games
from flows.decide import Outcomes
from flows.match import MatchPlan, run_match
from flows.store import HandLog


@dataclass(frozen=True)
class PairLuck:
    pair: Pair
    check: LuckCheck
    single: tuple[float, float]  # each config's own variance-reduction factor (challenger, baseline)


# Corrections measured here that decisions do not use (docs/statistics.md says why): game -> module with unit_luck
MEASURED_ONLY = {"twocarddraw": "flows.games.twocarddraw_luck"}


def correction(game: str):
    """The game's zero-mean correction: its spec's (what decisions use), else one measured only here; or None."""
    found = games.get(game).luck
    if found is None and game in MEASURED_ONLY:
        found = importlib.import_module(MEASURED_ONLY[game]).unit_luck
    return found


def run(game: str = "holdem-training", *, bot: str | None = None, hands: int = 40_000, seed: int = 5_000,
        pairs: tuple[str, ...] | None = None, progress=None) -> tuple[list[PairLuck], float]:
    """The pairs' configs on `hands` deals of `seed`; returns each pair's check and the seconds taken."""
    luck = correction(game)
    if luck is None:
        raise ValueError(f"{game} has no luck correction")
    chosen = [p for p in PAIRS[game] if pairs is None or p.name in pairs]
    bot = bot or BOT[game]
    folder = Path(tempfile.mkdtemp(prefix="cardlab-bench-luck-"))
    started = time.perf_counter()
    try:
        with HandLog(str(folder / "handlog.duckdb")) as store:
            ids: dict[tuple, str] = {}
            for config in dict.fromkeys(c for p in chosen for c in (p.challenger, p.baseline)):
                ids[config] = f"luck-{len(ids)}"
                run_match(MatchPlan(game=game, bot=bot, overrides=config, seed=seed, units=hands, chunk_size=hands),
                          store, match_id=ids[config], source="bench")
                if progress is not None:
                    progress(config)
            outcomes = Outcomes(store, luck)
            out = []
            for p in chosen:
                a, b = ids[p.challenger], ids[p.baseline]
                single = tuple(luck_check(*outcomes.of(m, hands)).factor for m in (a, b))
                out.append(PairLuck(p, outcomes.check(a, b, hands), single))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return out, time.perf_counter() - started
