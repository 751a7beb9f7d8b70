"""A match played in pieces and joined equals the match played whole (what the judges rely on
when they report progress)."""

import numpy as np
import pytest

from bots.tractor import BOTS
from engine.core.log import concat
from engine.tractor.judge import MatchOptions, play_chunk


def _play(first, count):
    spec = BOTS["rule"]
    return play_chunk(spec, spec.default_config(), seed=9, first=first, count=count, options=MatchOptions(), bots=BOTS)


def test_pieces_joined_equal_the_whole():
    whole = _play(0, 7)
    joined = concat([_play(0, 3), _play(3, 1), _play(4, 3)])
    assert joined.first == 0 and joined.payoffs.tolist() == whole.payoffs.tolist()
    for table, columns in whole.tables.items():
        for column, values in columns.items():
            assert np.asarray(joined.tables[table][column]).tolist() == np.asarray(values).tolist(), (table, column)
    assert joined.stats == pytest.approx(whole.stats)


def test_pieces_must_be_consecutive():
    with pytest.raises(ValueError, match="not consecutive"):
        concat([_play(0, 2), _play(3, 2)])
