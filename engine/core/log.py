"""What a judge hands back for a chunk of a match: plain columns, no storage library.

The flows layer turns these into Arrow frames and appends them to DuckDB; the engine only
promises column names that match the game's raw tables in data/sql/<game>.sql.
"""

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class ChunkLog:
    """Units first..first+count-1 of one match.

    payoffs: the primary bot's result per unit (chips, points, score), in unit order.
    tables:  raw table name -> column name -> sequence of equal length (numpy or list).
    stats:   small extra numbers worth tracking (e.g. RATE rollouts used).
    """

    first: int
    payoffs: np.ndarray
    tables: dict[str, dict[str, object]]
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.payoffs)
