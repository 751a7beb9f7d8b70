"""How a contest plugs into the workspace (match, sweep, judge logging, export, serve).

Each game writes one module flows/games/<game>.py that builds a ``GameAdapter``; the
registry in flows/games/__init__.py lists them. Adapters only wire engine and bots
together: no prefect, duckdb or mlflow imports here, so adapters work in any worker.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bots.base import BotSpec
from engine.core.errors import UnknownName
from engine.core.log import ChunkLog

SQL_DIR = Path(__file__).resolve().parents[2] / "data" / "sql"


@dataclass(frozen=True)
class GameAdapter:
    name: str  # CLI name, e.g. "holdem-training"
    title: str
    unit: str  # what one row of payoffs is: "hand", "game", "round"
    bots: Mapping[str, BotSpec]
    default_bot: str
    # (bot spec, bot config, *, seed, first, count, options) -> ChunkLog; must be thread-safe,
    # deterministic in (seed, unit index) and independent of chunking.
    play_chunk: Callable[..., ChunkLog]
    sql_file: str  # file name in data/sql/ that creates this game's raw tables and views
    options_type: type | None = None  # frozen dataclass of match options (opponents, files, ...)
    default_grid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # nightly sweep
    default_units: int = 2000  # units per nightly config
    payoff_label: str = "profit per hand"
    # (ProgramConfig, *, seed, first, count, options) -> ChunkLog: a user's program in the primary
    # seat, on the same units as the bots (None: the game cannot sweep programs yet).
    play_program: Callable[..., ChunkLog] | None = None

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
        return SQL_DIR / self.sql_file
