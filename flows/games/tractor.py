"""Tractor in the workspace: full rounds between bots, each replayed through the contest simulator.

unit = one round (deal, hidden cards, 25 cards each). payoff = the primary bot's team's level
change minus the other team's level change that round (the CR update of the contest), from
the primary team's side; odd rounds seat the primary bot on team 2 (MatchOptions.swap_seats).
"""

from bots.base import Accepts, declare
from bots.tractor import BOTS
from engine.tractor import judge
from flows.games.base import GameAdapter

declare(judge.MatchOptions, opponent=Accepts(choices=tuple(sorted(BOTS))))  # engine code cannot import bots


def play_chunk(spec, config, *, seed: int, first: int, count: int, options=None):
    return judge.play_chunk(spec, config, seed=seed, first=first, count=count, options=options, bots=BOTS)


ADAPTER = GameAdapter(
    name="tractor",
    title="Tractor (SPOJ TRACTOR): full rounds, checked against the single-round simulator",
    unit="round",
    bots=BOTS,
    default_bot="rule",
    play_chunk=play_chunk,
    sql_file="tractor.sql",
    options_type=judge.MatchOptions,
    default_grid={"dump_points": ("true", "false"), "min_block_rank": ("6", "9")},
    default_units=200,
    payoff_label="levels gained minus levels conceded per round",
)
