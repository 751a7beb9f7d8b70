"""What happened in a chunk of a match, as events: per kind, equal-length columns of plain values.

A game declares its kinds once (`EVENTS = EventSpec("ht", {"hands": {...}, "actions": {...}})` in
engine/<game>/events.py); its judge fills an `EventBatch` of those kinds and hands it back in its
ChunkLog. The engine names no table and packs no bits: the flows layer's encoder (flows/events.py)
turns a batch into the hand log's raw tables, and replays, PHH export and reports read them back.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# Column types: what a column's values are (numpy arrays of that dtype, or lists of Python values)
INT, UINT, FLOAT, STR, BOOL = "int64", "uint64", "float64", "str", "bool"
TYPES = (INT, UINT, FLOAT, STR, BOOL)
_NUMPY_KINDS = {INT: "iu", UINT: "u", FLOAT: "fiu", BOOL: "b", STR: "UO"}


@dataclass(frozen=True)
class EventSpec:
    """A game's event kinds, frozen: kind -> column -> type (one of TYPES), in column order.
    `prefix` is the game's short name (the encoder's tables are `<prefix>_<kind>`)."""

    prefix: str
    kinds: Mapping[str, Mapping[str, str]]

    def __post_init__(self):
        for kind, columns in self.kinds.items():
            if not columns:
                raise ValueError(f"{self.prefix} event kind {kind!r} declares no column")
            bad = {c: t for c, t in columns.items() if t not in TYPES}
            if bad:
                raise ValueError(f"{self.prefix} event kind {kind!r}: unknown column types {bad}; accepted: {TYPES}")

    def batch(self, **kinds: Mapping[str, Sequence]) -> "EventBatch":
        """A batch of these kinds, checked: `spec.batch(hands={...}, actions={...})`."""
        return EventBatch(self, kinds)


@dataclass(frozen=True, eq=False)
class EventBatch:
    """Events of one chunk: kind -> column -> values. Every declared kind is present (maybe empty),
    with exactly its declared columns, all of one length per kind."""

    spec: EventSpec
    columns: Mapping[str, Mapping[str, Sequence]]

    def __post_init__(self):
        if set(self.columns) != set(self.spec.kinds):
            raise ValueError(f"{self.spec.prefix} events: kinds {sorted(self.columns)}, "
                             f"declared {sorted(self.spec.kinds)}")
        for kind, declared in self.spec.kinds.items():
            columns = self.columns[kind]
            if list(columns) != list(declared):
                raise ValueError(f"{self.spec.prefix} {kind} events: columns {list(columns)}, "
                                 f"declared {list(declared)}")
            lengths = {len(values) for values in columns.values()}
            if len(lengths) > 1:
                raise ValueError(f"{self.spec.prefix} {kind} events: columns of unequal length {sorted(lengths)}")
            for name, values in columns.items():  # lists are not scanned; an empty array has any dtype
                if (isinstance(values, np.ndarray) and len(values)
                        and values.dtype.kind not in _NUMPY_KINDS[declared[name]]):
                    raise ValueError(f"{self.spec.prefix} {kind}.{name}: numpy {values.dtype} for {declared[name]}")

    def __getitem__(self, kind: str) -> Mapping[str, Sequence]:
        return self.columns[kind]

    def rows(self, kind: str) -> int:
        return len(next(iter(self.columns[kind].values())))

    def as_lists(self) -> dict[str, dict[str, list]]:
        """Every column as a Python list (for comparisons in tests and tools)."""
        return {kind: {name: values.tolist() if isinstance(values, np.ndarray) else list(values)
                       for name, values in columns.items()} for kind, columns in self.columns.items()}


def concat(batches: Sequence[EventBatch]) -> EventBatch:
    """Batches of one game end to end (consecutive chunks)."""
    spec = batches[0].spec
    if any(b.spec != spec for b in batches):
        raise ValueError("cannot join events of different games")
    joined = {}
    for kind, declared in spec.kinds.items():
        joined[kind] = {}
        for name in declared:
            parts = [b.columns[kind][name] for b in batches]
            joined[kind][name] = (np.concatenate(parts) if all(isinstance(p, np.ndarray) for p in parts)
                                  else [v for part in parts for v in part])
    return EventBatch(spec, joined)
