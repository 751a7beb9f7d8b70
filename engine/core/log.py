"""What a judge hands back for a chunk of a match: payoffs and events, no storage library.

A judge reports what happened as events (engine.core.events); the flows layer's encoder
(flows/events.py) turns them into the hand log's raw tables (`tables`), which the store
appends to DuckDB through Arrow. A log may also carry tables of its own (the referee loop's
referee_events and referee_faults, a plug-in game's rows), which the encoder keeps.
"""

import itertools
from dataclasses import dataclass, field

import numpy as np

from engine.core import events as ev


@dataclass(frozen=True)
class ChunkLog:
    """Units first..first+count-1 of one match.

    payoffs: the primary bot's result per unit (chips, points, score), in unit order.
    tables:  raw table name -> column name -> sequence of equal length (numpy or list).
    stats:   small extra numbers worth tracking (e.g. RATE rollouts used).
    events:  what happened, per event kind of the game (None: the game logs tables only).
    """

    first: int
    payoffs: np.ndarray
    tables: dict[str, dict[str, object]] = field(default_factory=dict)
    stats: dict[str, float] = field(default_factory=dict)
    events: ev.EventBatch | None = None

    @property
    def count(self) -> int:
        return len(self.payoffs)


def concat(logs: list[ChunkLog]) -> ChunkLog:
    """Consecutive chunks of one match as one chunk: payoffs, table and event columns end to end, stats
    added up (a judge that plays a match in pieces, e.g. to report progress, logs it whole)."""
    if not logs:
        raise ValueError("concat needs at least one chunk")
    for before, after in itertools.pairwise(logs):
        if after.first != before.first + before.count:
            raise ValueError(f"chunks are not consecutive: units {before.first}+{before.count} then {after.first}")
    tables: dict[str, dict[str, object]] = {}
    for name, columns in logs[0].tables.items():
        tables[name] = {}
        for column, values in columns.items():
            parts = [log.tables[name][column] for log in logs]
            tables[name][column] = (np.concatenate(parts) if isinstance(values, np.ndarray)
                                    else [v for part in parts for v in part])
    stats: dict[str, float] = {}
    for log in logs:
        for key, value in log.stats.items():
            stats[key] = stats.get(key, 0.0) + value
    batches = [log.events for log in logs if log.events is not None]
    if batches and len(batches) != len(logs):
        raise ValueError("cannot join chunks with events and chunks without")
    return ChunkLog(first=logs[0].first, payoffs=np.concatenate([log.payoffs for log in logs]), tables=tables,
                    stats=stats, events=ev.concat(batches) if batches else None)
