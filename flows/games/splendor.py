"""Splendor in the workspace: the adapter (a unit is one game; the payoff is the candidate's
win share, 1/#winners or 0), and tournament ratings from openskill (Plackett-Luce)."""

from collections.abc import Iterable
from dataclasses import dataclass

from bots.base import BotSpec, ConfigError, Ranged, one_of, ranged, split_pairs, validated
from bots.splendor import BOTS
from engine.core.errors import BadValue
from engine.core.log import ChunkLog
from engine.splendor.agents import ExternalAgent, InProcessAgent
from engine.splendor.judge import GameResult, bot_key, chunk_log, game_deal, play_chunk, play_game
from engine.splendor.program import play_program_chunk
from engine.splendor.rules import MAX_PLAYERS
from flows.games.base import PROGRAM, PROJECT_BOT, RANKING, DecisionDefaults, GameSpec, LeagueRules, python_and_cpp
from flows.league_play import GamePlan
from flows.league_spec import LeagueSpec, project_bot
from flows.ratings import rate


@dataclass(frozen=True)
class SplendorOptions(Ranged):
    players: int = ranged(2, 2, 4)  # table size: the candidate plus players-1 opponents
    opponent: str = one_of("greedy", sorted(BOTS))  # a bot name from bots.splendor.BOTS
    # the opponent's config as k=v;k=v (its keys and values are checked against the opponent's config)
    opponent_set: str = validated("", lambda text: None if all("=" in p for p in _pairs(text)) else "not k=v",
                                  "k=v pairs separated by ';'")

    def __post_init__(self):
        super().__post_init__()
        opponent_config(self)


def _pairs(text: str) -> list[str]:
    return [p for p in text.split(";") if p.strip()]


def opponent_config(options: "SplendorOptions"):
    try:
        return BOTS[options.opponent].config_from(split_pairs(_pairs(options.opponent_set)))
    except ConfigError as exc:
        raise BadValue(str(exc)) from exc


def opponent_agents(options: SplendorOptions) -> list[InProcessAgent]:
    spec = BOTS[options.opponent]
    config = opponent_config(options)
    return [InProcessAgent(f"{options.opponent}-{i + 1}", spec.make(config)) for i in range(options.players - 1)]


def play_splendor_chunk(spec: BotSpec, config, *, seed: int, first: int, count: int,
                        options: SplendorOptions | None = None) -> ChunkLog:
    options = options or SplendorOptions()
    candidate = InProcessAgent(f"{spec.name}*", spec.make(config))
    return play_chunk(candidate, opponent_agents(options), seed=seed, first=first, count=count)


def play_splendor_program(config, *, seed: int, first: int, count: int,
                          options: SplendorOptions | None = None) -> ChunkLog:
    """A user's program in the candidate's seat (a fresh process per move, as the arbiter runs it) against the
    options' opponents, on the bots' deals and seats (engine.splendor.program)."""
    return play_program_chunk(config.argv(), opponent_agents(options or SplendorOptions()), env=config.env(),
                              seed=seed, first=first, count=count)


def game_ranks(result: GameResult) -> list[int]:
    """1 for the winners, then by score (more) and purchased cards (fewer); a capped game
    with no winner is a draw for everyone."""
    if not result.winners:
        return [1] * len(result.names)
    keys = sorted({(-s, c) for i, (s, c) in enumerate(zip(result.scores, result.cards, strict=True))
                   if i not in result.winners})
    return [1 if i in result.winners else 2 + keys.index((-s, c))
            for i, (s, c) in enumerate(zip(result.scores, result.cards, strict=True))]


def ratings(games: Iterable[GameResult]) -> list[tuple[str, float, float, float]]:
    """(name, mu, sigma, ordinal) per agent after rating the games in order, best first."""
    rated = rate((result.names, game_ranks(result)) for result in games)
    return sorted(((n, r.mu, r.sigma, r.ordinal) for n, r in rated.items()), key=lambda row: -row[3])


def play_league_game(league: LeagueSpec, plan: GamePlan):
    """One game between the plan's agents (a process per move, as the arbiter runs them; project bots and
    fitted models in this process, seeded per seat as the judge seeds them)."""
    agents = []
    for seat, e in enumerate(plan.seats):
        if not e.in_process:
            agents.append(ExternalAgent(name=e.key, command=e.command))
            continue
        agent = InProcessAgent(e.key, project_bot(league.game, e).make())
        agent.new_game(bot_key(plan.seed, 0, seat))
        agents.append(agent)
    result = play_game(agents, game_deal(plan.seed, 0, len(agents)))
    payoffs = [result.share(s) for s in range(len(agents))]
    ranks = [1 if s in result.winners else 2 for s in range(len(agents))]
    faults = [""] * len(agents)
    cpu = [0.0] * len(agents)
    for turn in result.turns:  # the contest passes a faulty move; the league notes the first limit hit
        seat = turn.event.seat
        cpu[seat] += turn.reply.cpu_seconds
        if turn.reply.limit and not faults[seat]:
            faults[seat] = f"{turn.reply.limit} limit"
    return payoffs, ranks, faults, cpu, chunk_log(0, [(0, result, 0)])


SPEC = GameSpec(
    name="splendor",
    title="Splendor (nerdvana-ro arbiter)",
    unit="game",
    bots=BOTS,
    default_bot="greedy",
    play_chunk=play_splendor_chunk,
    play_program=play_splendor_program,
    sql_file="splendor.sql",
    options_type=SplendorOptions,
    default_grid={"target": ("6", "12"), "noble": ("0.5", "1.5")},
    default_units=24,  # greedy-vs-greedy games take ~0.3 s each: 4 configs x 24 games in ~30 s
    payoff_label="win share per game",
    payoff_kind=RANKING,
    payoff_bounds=(0.0, 1.0),  # a win share
    decision=DecisionDefaults(d1=0.05, batch=24, first_look=48),  # five points of win share
    league=LeagueRules(play=play_league_game, seats=(2, MAX_PLAYERS), entrants=(PROGRAM, PROJECT_BOT), in_folder=True,
                       entrant_help="NAME=COMMAND (a program), NAME=bot:BOT[:k=v...] (a project bot) or "
                                    "NAME=model:ID (a fitted opponent model)"),
    panels="reports.panels.splendor",
    replay="reports.replay.splendor",
    commands="cardlab.commands.splendor",
    rules_doc="docs/rules/splendor.md",
    starters=python_and_cpp("bots/splendor/starters", ('cardlab judge splendor --games 1 "{program}" "{program}"',),
                            extra=("data/splendor/cards.csv",)),  # the agent reads the cards beside it
    opponent_model="flows.opponents.splendor",  # a conditional logit over the legal moves, seated as its clone bot
)
