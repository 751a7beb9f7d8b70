"""The one encoder: a chunk's events (engine.core.events) as the hand log's raw tables.

Judges report events; everything that hands a chunk to the store (a match or sweep chunk, a league
game, a judged match) encodes it here first, so the store keeps taking table -> columns. Each event
kind becomes the table `<prefix>_<kind>` with its declared columns, unless the game's spec names a
denser layout (GameSpec.log_layout, e.g. Hold'em Training's packed hands); data/sql/<game>.sql
declares those tables and the views every reader uses.
"""

from collections.abc import Callable
from dataclasses import replace

from engine.core.events import EventBatch
from engine.core.log import ChunkLog

Layout = Callable[[EventBatch], dict[str, dict[str, object]]]


def table_name(events: EventBatch, kind: str) -> str:
    return f"{events.spec.prefix}_{kind}"


def tables(events: EventBatch, layout: Layout | None = None) -> dict[str, dict[str, object]]:
    """Raw table -> column -> values for `events`: one table per kind, or the game's own layout."""
    if layout is not None:
        return layout(events)
    return {table_name(events, kind): dict(columns) for kind, columns in events.columns.items()}


def encode(log: ChunkLog, game=None) -> ChunkLog:
    """`log` as the store takes it: its events as tables (game: its GameSpec, for its layout), beside
    the tables it already has. A log without events (already encoded, or a game that logs tables
    itself) comes back as it is."""
    if log.events is None:
        return log
    encoded = tables(log.events, getattr(game, "log_layout", None))
    clash = sorted(set(encoded) & set(log.tables))
    if clash:
        raise ValueError(f"the events' tables {clash} are already in the chunk's log")
    return replace(log, tables={**log.tables, **encoded}, events=None)
