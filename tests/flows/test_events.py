"""The encoder: a chunk's events as the hand log's raw tables, beside the tables it already has."""

import numpy as np
import pytest

from engine.core import events as ev
from engine.core.log import ChunkLog
from flows import events

TOY = ev.EventSpec("toy", {"flips": {"unit": ev.INT, "heads": ev.BOOL}})


class _Game:
    log_layout = None


def _log(**tables) -> ChunkLog:
    return ChunkLog(0, np.ones(2), tables=tables, events=TOY.batch(flips={"unit": [0, 1], "heads": [True, False]}))


def test_each_kind_becomes_prefix_kind_beside_the_logs_own_tables():
    encoded = events.encode(_log(referee_faults={"unit": []}), _Game())
    assert encoded.events is None
    assert encoded.tables == {"referee_faults": {"unit": []}, "toy_flips": {"unit": [0, 1], "heads": [True, False]}}
    assert events.encode(encoded, _Game()) is encoded  # nothing left to encode


def test_a_games_layout_replaces_the_table_per_kind():
    class Packed:
        @staticmethod
        def log_layout(batch):
            return {"toy_packed": {"bits": [u << 1 | h for u, h in zip(*batch["flips"].values(), strict=True)]}}

    assert events.encode(_log(), Packed()).tables == {"toy_packed": {"bits": [1, 2]}}


def test_an_events_table_the_log_already_has_is_refused():
    with pytest.raises(ValueError, match="toy_flips"):
        events.encode(_log(toy_flips={"unit": [0, 1]}), _Game())
