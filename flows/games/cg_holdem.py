"""CodinGame Hold'em in the workspace: whole games in duplicate format.

unit = one game; payoff = the primary bot's finish score (players - position) / (players - 1):
1 for first place, 0 for last (mean finishing position = players - payoff * (players - 1)).
Unit u plays deal u // players with the seats rotated u % players, so each bot of the
line-up sits in every seat on the same cards. Options: players (2-4) and the opponents
(bot names with default configs, '/'-separated, cycled to fill the table).
"""

from dataclasses import dataclass

from bots import choice
from bots.base import Ranged, ranged, validated
from bots.cg_holdem import BOTS
from engine.cg_holdem import judge
from engine.cg_holdem.phh_read import read_bytes as read_phh
from engine.cg_holdem.rules import FIRST_TURN_MS, MAX_PLAYERS, MIN_PLAYERS, TURN_MS, GameConfig
from engine.core.errors import BadValue, UserError
from engine.core.process import CLOCKS
from engine.core.seeds import Purpose, match_key, unit_key
from flows import opponents
from flows.games.base import PROGRAM, PROJECT_BOT, RANKING, DecisionDefaults, GameSpec, LeagueRules, python_and_cpp
from flows.games.cg_holdem_log import export_phh
from flows.games.cg_holdem_luck import unit_luck
from flows.league_play import GamePlan, argv
from flows.league_spec import LeagueSpec, project_bot
from flows.opponents import MODEL_PREFIX
from flows.ratings import rate
from flows.stats import summarize


def _unknown_opponents(text: str) -> str | None:
    names = [n for n in text.split("/") if n]
    unknown = [n for n in names if n not in BOTS and not n.startswith(MODEL_PREFIX)]
    if not names or unknown:
        return "no bot named" if not names else f"unknown {', '.join(unknown)}"
    for name in names:  # a fitted model must exist and be a cg-holdem one
        try:
            _opponent(name)
        except UserError as exc:
            return str(exc)
    return None


def _opponent(name: str):
    """A bot's factory: a registered bot by name, or a fitted model (`model:ID`, flows/opponents)."""
    if name.startswith(MODEL_PREFIX):
        return opponents.seat("cg-holdem", name).make
    return BOTS[name].make


@dataclass(frozen=True)
class MatchOptions(Ranged):
    players: int = ranged(4, MIN_PLAYERS, MAX_PLAYERS)
    opponents: str = validated("montecarlo/pushfold/station", _unknown_opponents,
                               "bot names separated by '/', each one of " + ", ".join(sorted(BOTS))
                               + " or model:ID (a fitted opponent model)")
    # A program's turn limits (sweep --turn-ms/--first-turn-ms/--clock): the arena's by default
    turn_ms: int = ranged(TURN_MS, 1, 60_000)
    first_turn_ms: int = ranged(FIRST_TURN_MS, 1, 60_000)
    clock: str = validated("wall", lambda v: None if v in CLOCKS else "unknown clock", " or ".join(CLOCKS))

    def opponent_names(self) -> list[str]:
        return [n for n in self.opponents.split("/") if n]


def lineup(spec, config, options: MatchOptions):
    """(bot factories, names): the primary bot first, then the opponents cycled."""
    others = options.opponent_names()
    chosen = [others[i % len(others)] for i in range(options.players - 1)]
    makers = [lambda: spec.make(config)] + [_opponent(name) for name in chosen]
    return makers, [spec.name if spec is not None else "program"] + chosen


def play_chunk(spec, config, *, seed: int, first: int, count: int, options: MatchOptions | None = None):
    makers, names = lineup(spec, config, options or MatchOptions())
    return judge.play_chunk(makers, seed=seed, first=first, count=count, names=names)


def play_program(config, *, seed: int, first: int, count: int, options: MatchOptions | None = None):
    """A user's program in the primary seat (a new process per game, as on CodinGame, with the
    contest's per-turn time limits) against the option's bots, on the bots' own deals and seatings."""
    options = options or MatchOptions()
    makers, names = lineup(None, None, options)
    makers[0] = lambda: judge.ProgramSeat(config.argv(), env=config.env(), first_turn_ms=options.first_turn_ms,
                                          turn_ms=options.turn_ms, clock=options.clock)
    return judge.play_chunk(makers, seed=seed, first=first, count=count, names=["program", *names[1:]])


def _league_seats(league: LeagueSpec, plan: GamePlan, config: GameConfig) -> list:
    """Each seat's player: a program's process, or an in-process bot keyed by (round's deal, seat)."""
    seats = []
    try:
        for i, e in enumerate(plan.seats):
            if e.in_process:
                bot = project_bot(league.game, e).make()
                if hasattr(bot, "new_game"):
                    bot.new_game(unit_key(match_key(plan.seed), i, Purpose.BOT))
                seats.append(judge.BotSeat(bot))
            else:
                seats.append(judge.ProgramSeat(argv(e), first_turn_ms=config.first_turn_ms, turn_ms=config.turn_ms,
                                               clock=config.clock))
    except BaseException:
        for seat in seats:
            seat.close()
        raise
    return seats


def play_league_game(league: LeagueSpec, plan: GamePlan):
    """One game between the plan's programs (a new process per game, the contest's turn limits)."""
    # the arena's limits by default; a league on a loaded machine may give more (`--opt turn_ms=200`)
    config = GameConfig(players=len(plan.seats), turn_ms=league.option("turn_ms", TURN_MS),
                        first_turn_ms=league.option("first_turn_ms", FIRST_TURN_MS),
                        clock=league.option("clock", "wall"))
    if any(e.in_process for e in plan.seats):  # project bots and fitted models play in this process
        result = judge.play_game(_league_seats(league, plan, config), seed=judge.java_seed(plan.seed), config=config)
    else:
        result = judge.play_programs([argv(e) for e in plan.seats], seed=judge.java_seed(plan.seed), config=config)
    n = result.players
    payoffs = [(n - pos) / (n - 1) for pos in result.positions]
    faults = [r.get("failure") or "" for r in result.seat_reports]
    cpu = [r.get("cpu_seconds") for r in result.seat_reports]
    return payoffs, list(result.positions), faults, cpu, judge.game_log(result, [e.key for e in plan.seats])


SPEC = GameSpec(
    name="cg-holdem",
    title="CodinGame Hold'em (Poker, 2-4 players): whole games, duplicate seating",
    unit="game",
    bots=BOTS,
    default_bot="aggressive",
    play_chunk=play_chunk,
    sql_file="cg_holdem.sql",
    options_type=MatchOptions,
    default_grid={"bet_respect": ("0.25", "0.4"), "push_below_bb": ("8", "12")},
    default_units=48,
    payoff_label="finish score (1 first, 0 last)",
    play_program=play_program,
    payoff_kind=RANKING,
    payoff_bounds=(0.0, 1.0),  # a finish score
    # d1: five points of finish score. The first look waits for 96 games: resampled from 720 real paired games
    # (skewness -1), the SPRT said "switch" at d0 in 5.0% (4.6-5.5%) of runs looking from 48 on, 4.0% (3.6-4.4%)
    # from 96 (`bench decisions --game cg-holdem --pool 720 --part 240 --seed 9000 --repeats 10000`, statistics.md).
    decision=DecisionDefaults(d1=0.05, batch=24, first_look=96),
    luck=unit_luck,  # all-in boards valued by the stacks they leave (engine/cg_holdem/luck.py)
    league=LeagueRules(play=play_league_game, seats=(MIN_PLAYERS, MAX_PLAYERS),
                       options={"turn_ms": int, "first_turn_ms": int, "clock": str}, entrants=(PROGRAM, PROJECT_BOT),
                       entrant_help="NAME=COMMAND (a program), NAME=bot:BOT[:k=v...] (a project bot) or "
                                    "NAME=model:ID (a fitted opponent model)"),
    phh=export_phh,
    read_phh=read_phh,
    panels="reports.panels.cg_holdem",
    replay="reports.replay.cg_holdem",
    commands="cardlab.commands.cg_holdem",
    rules_doc="docs/rules/cg_holdem.md",
    opponent_model="flows.opponents.cg_holdem",
    starters=python_and_cpp("bots/cg_holdem/starters", ('cardlab judge cg-holdem --seed 1 "{program}" "{program}"',)),
)


# -- tournaments ------------------------------------------------------------------------
@dataclass(frozen=True)
class Standing:
    bot: str
    games: int
    mean_position: float
    ci95: float  # half-width of the 95% interval of the mean position
    win_rate: float
    rating: float  # openskill ordinal (mu - 3 sigma)
    mu: float
    sigma: float


@dataclass(frozen=True)
class Tournament:
    players: int
    deals: int
    standings: tuple[Standing, ...]
    logs: tuple[tuple[tuple[str, ...], object], ...]  # (line-up, ChunkLog) per table played


def run_tournament(entries: list[str], *, players: int, deals: int, seed: int = 1) -> Tournament:
    """Every line-up of ``players`` distinct entries plays ``deals`` shared deals, each in
    every rotation (duplicate format); standings by mean finishing position with 95% CIs and
    openskill (Plackett-Luce) ratings over all games in order."""
    import itertools

    if not MIN_PLAYERS <= players <= MAX_PLAYERS or len(entries) < players:
        raise BadValue(f"need {players} (2-4) players and at least that many bots, got {len(entries)}")
    makers = {e: choice.entry(BOTS, e, option="bot").make for e in entries}  # 'name' or 'name:k=v:k=v'
    positions: dict[str, list[int]] = {e: [] for e in makers}
    games, logs = [], []
    for table in itertools.combinations(makers, players):
        log = judge.play_chunk([makers[e] for e in table], seed=seed, first=0, count=deals * players,
                               names=list(table))
        logs.append((table, log))
        seats = log.events["seats"]
        for unit in range(deals * players):
            rows = [i for i, u in enumerate(seats["unit"]) if u == unit]
            bots = [seats["bot"][i] for i in rows]
            ranks = [seats["position"][i] for i in rows]
            for b, r in zip(bots, ranks, strict=True):
                positions[b].append(r)
            games.append((bots, ranks))
    ratings = rate(games)
    standings = []
    for e, pos in positions.items():
        s, r = summarize(pos), ratings[e]
        n, mean = s.n, s.mean
        standings.append(Standing(e, n, mean, s.half_width if n > 1 else 0.0,
                                  sum(p == 1 for p in pos) / n, r.ordinal, r.mu, r.sigma))
    standings.sort(key=lambda s: s.mean_position)
    return Tournament(players, deals, tuple(standings), tuple(logs))
