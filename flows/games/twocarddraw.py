"""TwoCardDraw in the workspace: a bot against a server strategy, 10,000 hands per test.

unit = one hand; payoff = the bot's profit that hand. The server comes from the match
options: a strategy file, or a strategy generated from (bet1, bet2, steps, strategy_seed).
"""

from bots.base import SEED_MAX, Accepts, declare, empty_or_file
from bots.twocarddraw import BOTS
from engine.twocarddraw import judge
from engine.twocarddraw.best_response import MAX_STEPS
from flows.games.base import GameAdapter

# The engine's options cannot import bots.base: their ranges are declared here (bet2 is also
# checked against bet1 by the engine).
declare(judge.MatchOptions,
        strategy=Accepts(check=empty_or_file, text="'' (generate one) or an existing strategy file"),
        bet1=Accepts(1, 5), bet2=Accepts(1, 15), steps=Accepts(0, 10 * MAX_STEPS), strategy_seed=Accepts(0, SEED_MAX))

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
