"""TwoCardDraw in the workspace: a bot against a server strategy, 10,000 hands per test.

unit = one hand; payoff = the bot's profit that hand. The server comes from the match
options: a strategy file, or a strategy generated from (bet1, bet2, steps, strategy_seed).
"""

from bots.base import SEED_MAX, Accepts, declare, empty_or_file
from bots.twocarddraw import BOTS
from engine.twocarddraw import judge
from engine.twocarddraw.best_response import MAX_STEPS
from flows.games.base import CLASS_FILE, HOUSE, PROJECT_BOT, DecisionDefaults, GameSpec, LeagueRules, Starter
from flows.league_play import GamePlan
from flows.league_spec import LeagueSpec, project_bot

# The engine's options cannot import bots.base: their ranges are declared here (bet2 is also
# checked against bet1 by the engine).
declare(judge.MatchOptions,
        strategy=Accepts(check=empty_or_file, text="'' (generate one) or an existing strategy file"),
        bet1=Accepts(1, 5), bet2=Accepts(1, 15), steps=Accepts(0, 10 * MAX_STEPS), strategy_seed=Accepts(0, SEED_MAX))

LEAGUE_HANDS = 1000  # per league game; a TopCoder test was 10,000 hands


def play_league_game(league: LeagueSpec, plan: GamePlan):
    """One entrant (a user's class in its own process, or a project bot) against the league's server."""
    from engine.twocarddraw.program import play_program

    server = judge.load_server(judge.MatchOptions(strategy=league.option("strategy", "")))
    hands = league.option("hands", LEAGUE_HANDS)
    entrant = plan.seats[0]
    if entrant.bot_class:  # the user's class in its own sandboxed process, TopCoder's CPU accounting
        result, _ = play_program(*entrant.bot_class, server, seed=plan.seed, count=hands)
    else:
        bot = project_bot(league.game, entrant).make()
        result = judge.play_bot(bot, server, seed=plan.seed, count=hands)  # CPU: the bot's own thread time
    fault = "" if result.status == judge.OK else f"{result.status}: {result.record.message}"
    return [result.profit / hands], [1], [fault], [result.cpu_seconds], result.chunk_log()


SPEC = GameSpec(
    name="twocarddraw",
    title="TwoCardDraw (TCO07 Marathon Round 2): play a fixed probabilistic server",
    unit="hand",
    bots=BOTS,
    default_bot="dbr",  # the strongest measured: above the mixture on heldout6 (docs/twocarddraw-strength.md)
    play_chunk=judge.play_chunk,
    sql_file="twocarddraw.sql",
    options_type=judge.MatchOptions,
    default_grid={"prior_scale": ("0.5", "1", "2")},
    default_units=2000,
    payoff_label="profit per hand",
    payoff_kind=HOUSE,
    decision=DecisionDefaults(d1=0.05, batch=1000, first_look=1000),
    # No luck= for decisions: the correction (flows/games/twocarddraw_luck.py) leaves a learning bot's policy values,
    # correlated hand to hand, which the SPRT would read as independent (docs/statistics.md)
    league=LeagueRules(play=play_league_game, units_option="hands", default_units=LEAGUE_HANDS,
                       options={"hands": int, "strategy": str}, entrants=(CLASS_FILE, PROJECT_BOT),
                       entrant_help="classes, as TopCoder's tester ran them: NAME=PATH.py:ClassName (yours, in its "
                                    "own process) or NAME=bot:BOT[:k=v...] (a project bot)"),
    panels="reports.panels.twocarddraw",
    commands="cardlab.commands.twocarddraw",
    rules_doc="docs/rules/twocarddraw.md",
    # TopCoder's tester calls a class's methods: a bot is a Python class, not a program
    starters={"python": Starter(files=("bots/twocarddraw/starters/bot.py",), program="bot.py:Bot", try_it=(
        "cardlab twocarddraw generate --bet1 1 --bet2 2 --seed 7 --out server.txt",
        "cardlab judge twocarddraw --strategy server.txt --hands 2000 --bot-file {program}"))},
    opponent_model="flows.opponents.twocarddraw",  # the server, fitted from the logged hands
)
