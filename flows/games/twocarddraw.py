"""TwoCardDraw in the workspace: a bot against a server strategy, 10,000 hands per test.

unit = one hand; payoff = the bot's profit that hand. The server comes from the match
options: a strategy file, or a strategy generated from (bet1, bet2, steps, strategy_seed).
"""

from bots.twocarddraw import BOTS
from engine.twocarddraw import judge
from flows.games.base import GameAdapter

ADAPTER = GameAdapter(
    name="twocarddraw",
    title="TwoCardDraw (TCO07 Marathon Round 2): play a fixed probabilistic server",
    unit="hand",
    bots=BOTS,
    default_bot="learner",
    play_chunk=judge.play_chunk,
    sql_file="twocarddraw.sql",
    options_type=judge.MatchOptions,
    default_grid={"prior_scale": ("0.5", "1", "2")},
    default_units=2000,
    payoff_label="profit per hand",
)
