"""Event batches: a game's kinds declared once, checked when filled, joined chunk after chunk."""

import numpy as np
import pytest

from engine.core import events as ev
from engine.core.log import ChunkLog, concat

TOY = ev.EventSpec("toy", {"flips": {"unit": ev.INT, "side": ev.STR}, "ends": {"unit": ev.INT, "score": ev.FLOAT}})


def _batch(first: int, n: int) -> ev.EventBatch:
    units = np.arange(first, first + n, dtype=np.int64)
    return TOY.batch(flips={"unit": np.repeat(units, 2), "side": ["h", "t"] * n},
                     ends={"unit": units, "score": units * 0.5})


def test_a_batch_has_every_declared_kind_with_its_columns_in_order():
    batch = _batch(3, 4)
    assert batch.rows("flips") == 8 and batch.rows("ends") == 4
    assert batch.as_lists()["ends"] == {"unit": [3, 4, 5, 6], "score": [1.5, 2.0, 2.5, 3.0]}
    with pytest.raises(ValueError, match="kinds"):
        TOY.batch(flips={"unit": [1], "side": ["h"]})
    with pytest.raises(ValueError, match="columns"):
        TOY.batch(flips={"side": ["h"], "unit": [1]}, ends={"unit": [1], "score": [1.0]})
    with pytest.raises(ValueError, match="unequal length"):
        TOY.batch(flips={"unit": [1, 2], "side": ["h"]}, ends={"unit": [1], "score": [1.0]})
    with pytest.raises(ValueError, match="float64 for int64"):
        TOY.batch(flips={"unit": np.ones(1), "side": ["h"]}, ends={"unit": [1], "score": [1.0]})
    empty = TOY.batch(flips={"unit": np.asarray([]), "side": []}, ends={"unit": [], "score": []})  # float64, empty
    assert empty.rows("flips") == 0
    with pytest.raises(ValueError, match="unknown column types"):
        ev.EventSpec("bad", {"k": {"c": "decimal"}})


def test_chunk_logs_join_their_events_end_to_end():
    logs = [ChunkLog(first, np.zeros(n), events=_batch(first, n)) for first, n in ((0, 2), (2, 3))]
    joined = concat(logs)
    assert joined.events.as_lists() == _batch(0, 5).as_lists() and joined.tables == {}
    with pytest.raises(ValueError, match="with events and chunks without"):
        concat([logs[0], ChunkLog(2, np.zeros(1))])
