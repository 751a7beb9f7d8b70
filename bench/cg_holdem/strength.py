"""Bot strength: 4-player tables among all bots, and the best one heads-up against montecarlo (Wilson share)."""

from dataclasses import dataclass

from bench.cg_holdem.bots import makers
from engine.cg_holdem import judge as referee
from engine.core.stats import Proportion, wilson
from flows.games.cg_holdem import Tournament, run_tournament

LINE_UP = ("aggressive", "montecarlo", "pushfold", "station")


@dataclass(frozen=True)
class Strength:
    four: Tournament  # 4-player tables, the expected best bot first in the line-up
    heads_up: Proportion  # the best bot's wins against montecarlo


def strength(best: str, *, deals: int, seed: int) -> Strength:
    four = run_tournament([best] + [b for b in LINE_UP if b != best], players=4, deals=deals, seed=seed)
    hu_deals = deals * 4
    log = referee.play_chunk(makers([best, "montecarlo"]), seed=seed + 1, first=0, count=hu_deals * 2,
                             names=[best, "montecarlo"])
    return Strength(four=four, heads_up=wilson(int(log.payoffs.sum()), len(log.payoffs)))
