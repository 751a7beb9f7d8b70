"""A game's one declaration: the `GameSpec` every tool reads (match, sweep, judge, league, report,
replay, PHH export, rules docs, the CLI's own commands).

Each contest declares one `SPEC` in its module (flows/games/<game>.py for the built-in five) and
registers it as a `cardlab.games` entry point in its package's pyproject, so a game from another
installed package is a game like the built-in ones (flows/games/__init__.py reads the entry points).
Nothing above this layer names a game: every per-game table is a field here.

Specs only wire engine and bots together: no prefect, duckdb or mlflow imports here, so specs load
in any worker. Parts that live in upper layers (report panels, replay pages, CLI commands) are
named by module path and imported by the layer that uses them, so imports still flow one way.
"""

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots.base import BotSpec
from engine.core.errors import UnknownName
from engine.core.log import ChunkLog

PROJECT = Path(__file__).resolve().parents[2]
SQL_DIR = PROJECT / "data" / "sql"

# How a game's units are scored, which decides how leagues rank and pair entrants:
HOUSE = "house"  # each entrant alone against the contest's fixed opponent: mean payoff per unit, paired on seeds
RANKING = "ranking"  # entrants at one table: finishing ranks, openskill ratings, head-to-head shares
REFERENCE = "reference"  # a program's output against a reference: share of cases agreeing
PAYOFF_KINDS = (HOUSE, RANKING, REFERENCE)

# Entrant kinds a league may seat (flows/league_spec.py tells them apart)
PROGRAM, PROJECT_BOT, CLASS_FILE = "program", "bot", "class"


@dataclass(frozen=True)
class LeagueRules:
    """How one league game of this contest is played and how big it is.

    `play(league, plan)` plays one game of the league plan's seats (flows.league_play.GamePlan) and
    returns (payoffs, ranks, faults, cpu_seconds, ChunkLog), each per seat; it runs in a worker
    thread and must be deterministic in the plan's seed."""

    play: Callable[..., tuple]
    seats: tuple[int, int] = (1, 1)  # table sizes `--players` may ask for (min, max)
    units_option: str | None = None  # the league option giving units per game ("hands", "cases")
    default_units: int = 1  # units per game when the option is not set
    # league options the game reads (`--opt k=v`) and their types; numbers must be positive
    options: Mapping[str, type] = field(default_factory=dict)
    entrants: tuple[str, ...] = (PROGRAM,)  # entrant kinds accepted: PROGRAM, PROJECT_BOT, CLASS_FILE
    entrant_help: str = "NAME=COMMAND (a program)"
    # The contest runs a program in its own folder (Splendor's arbiter): the folder's files are then part of
    # an entrant's version, as the program reads them
    in_folder: bool = False

    @property
    def multi_seat(self) -> bool:
        return self.seats[1] > 1


@dataclass(frozen=True)
class Starter:
    """A minimal working program in one language, for `cardlab new`: the files copied into the
    user's folder (paths relative to the project, or absolute; the first is the source to edit),
    the build step if any (run in that folder), the program command the judges take, and the
    commands that try it there (`{program}` stands for the program command)."""

    files: tuple[str, ...]
    program: str
    try_it: tuple[str, ...]
    build: tuple[str, ...] = ()


def takes_keyword(hook: Callable | None, name: str) -> bool:
    """Whether a GameSpec hook takes an optional keyword added after games were written (luck's `start`,
    play_program's `keep_on_interrupt`): a hook without it keeps its whole-call behaviour."""
    if hook is None:
        return False
    try:
        return name in inspect.signature(hook).parameters
    except (TypeError, ValueError):  # a callable without a signature: treated as one without the keyword
        return False


def python_and_cpp(folder: str, try_it: tuple[str, ...], *, extra: tuple[str, ...] = ()) -> dict[str, Starter]:
    """The usual pair of starters: FOLDER/bot.py run by python3 and FOLDER/bot.cpp built with g++,
    each with the extra files (data the program reads beside it)."""
    return {
        "python": Starter(files=(f"{folder}/bot.py", *extra), program="python3 bot.py", try_it=try_it),
        "cpp": Starter(files=(f"{folder}/bot.cpp", *extra), program="./bot", try_it=try_it,
                       build=("g++ -O2 -std=c++17 -o bot bot.cpp",)),
    }


@dataclass(frozen=True)
class DecisionDefaults:
    """What a user need not know to start a sequential decision (flows/decide.py): the smallest
    difference worth switching for (d1, in the game's unit), the units per look, the first look."""

    d1: float
    batch: int
    first_look: int


@dataclass(frozen=True)
class GameSpec:
    name: str  # CLI name, e.g. "holdem-training"
    title: str
    unit: str  # what one row of payoffs is: "hand", "game", "round"
    bots: Mapping[str, BotSpec]
    default_bot: str
    # (bot spec, bot config, *, seed, first, count, options) -> ChunkLog; must be thread-safe,
    # deterministic in (seed, unit index) and independent of chunking.
    play_chunk: Callable[..., ChunkLog]
    sql_file: str  # this game's raw tables and views: a name in data/sql/, or a path (a plug-in's own file)
    options_type: type | None = None  # frozen dataclass of match options (opponents, files, ...)
    default_grid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # nightly sweep
    default_units: int = 2000  # units per nightly config
    # The main job's sweep (`cardlab demo`): the bot and the grid worth showing; None: the default bot
    # over default_grid. The main job's default game is the first, by name, that declares one.
    demo_sweep: tuple[str, tuple[str, ...]] | None = None
    payoff_label: str = "profit per hand"
    payoff_kind: str = HOUSE  # HOUSE, RANKING or REFERENCE
    # The payoff's range when bounded (a finish score, a win share): intervals then never collapse to
    # a point (flows.stats.payoff_interval)
    payoff_bounds: tuple[float, float] | None = None
    decision: DecisionDefaults | None = None  # `sweep --until-decided` defaults; None: the user gives --d1
    # (query, match_id, units) -> per unit 0..units-1 a correction of expectation zero computed from what the
    # judge knows and the players do not (the luck of the cards), taken out of payoffs by decisions; None: none.
    # One that also takes `start` gives units start..units-1 only, so a decision's look computes just its new units
    luck: Callable[..., object] | None = None
    # (ProgramConfig, *, seed, first, count, options) -> ChunkLog: a user's program in the primary
    # seat, on the same units as the bots (None: the game cannot sweep programs yet). One that also takes
    # keep_on_interrupt (default False) returns, when it is True (a judged match), the units finished before
    # Ctrl-C, SIGTERM or SIGHUP instead of raising, so the generic judge keeps them (engine.core.ending).
    play_program: Callable[..., ChunkLog] | None = None
    league: LeagueRules | None = None  # None: no leagues for this game
    # (con, match_id, out_dir) -> (files written, hands): the match as PHH hand histories (poker games)
    phh: Callable[..., tuple[tuple[Path, ...], int]] | None = None
    # (bytes, file name) -> the hands of a PHH file, each with `.names`; a bad file raises one UserError line
    # (`cardlab phh import` checks histories with it before keeping them); None: the game reads no PHH
    read_phh: Callable[[bytes, str], list] | None = None
    log_layout: Callable[..., dict] | None = None  # (EventBatch) -> raw tables; None: flows.events' table per kind
    panels: str | None = None  # module with panels(con, data, out) for the sweep report (reports layer)
    replay: str | None = None  # module with replay(con, match_id, unit) -> Replay (reports layer)
    commands: str | None = None  # module with the game's own CLI: judge, export, app, bench_app (cardlab layer)
    rules_doc: str | None = None  # the rules as implemented: a path relative to the project, or absolute
    starters: Mapping[str, Starter] = field(default_factory=dict)  # language -> a first bot (`cardlab new`)
    # module with fit(con, player, ...) and seat(params): the game's opponent models (flows/opponents/base.py)
    opponent_model: str | None = None

    def __post_init__(self):
        if self.payoff_kind not in PAYOFF_KINDS:
            raise ValueError(f"{self.name}: payoff_kind {self.payoff_kind!r} is not one of {PAYOFF_KINDS}")

    def spec(self, bot: str) -> BotSpec:
        if bot not in self.bots:
            raise UnknownName(f"unknown bot {bot!r} for {self.name}; accepted: {', '.join(sorted(self.bots))}")
        return self.bots[bot]

    def options(self, overrides: Mapping[str, str] | None = None) -> Any:
        from bots.base import build_config

        if self.options_type is None:
            if overrides:
                raise UnknownName(f"{self.name} takes no match options")
            return None
        return build_config(self.options_type, overrides or {}, owner=f"{self.name} options")

    def sql_path(self) -> Path:
        path = Path(self.sql_file)
        return path if path.is_absolute() else SQL_DIR / self.sql_file

    def rules_path(self) -> Path | None:
        if self.rules_doc is None:
            return None
        path = Path(self.rules_doc)
        return path if path.is_absolute() else PROJECT / path
