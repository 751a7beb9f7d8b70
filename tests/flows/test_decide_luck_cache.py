"""Decided sweeps keep each match's luck-corrected outcomes and compute the correction only for the units a
look adds (flows.decide.Outcomes): the race, the decision and the LLR path are those of recomputing every
unit's correction at every look, and the games' hooks give a stretch of units what they give it whole."""

from dataclasses import replace
from functools import partial

import numpy as np
import pytest

from flows import decide
from flows.decide import Outcomes, Rule, decided_sweep_flow, luck_takes_start
from flows.match import MatchPlan, run_match
from flows.store import HandLog
from flows.sweep import SweepSpec, parse_grid

RULE = Rule(d1=0.1, first_look=200, bounds=(-1.0, 1.0), luck=True)


class CountingLuck:
    """A zero-mean correction for the toy (a tenth of each flip's departure from its config's exact mean
    2e - 1) that counts the units it is asked for, with or without `start`."""

    def __init__(self):
        self.asked: dict[str, int] = {}

    def _edge(self, query, match_id: str) -> float:
        import json

        return json.loads(query("SELECT config FROM matches WHERE match_id = ?", [match_id])["config"][0])["edge"]

    def whole(self, query, match_id: str, units: int):
        return self(query, match_id, units)

    def __call__(self, query, match_id: str, units: int, start: int = 0):
        self.asked[match_id] = self.asked.get(match_id, 0) + units - start
        flips = query("SELECT payoff FROM units WHERE match_id = ? AND unit >= ? AND unit < ? ORDER BY unit",
                      [match_id, start, units])["payoff"].to_numpy()
        return 0.1 * (flips - (2 * self._edge(query, match_id) - 1))


def _decide(tmp_path, monkeypatch, name: str, luck, *, incremental: bool):
    from flows import games

    real = games.get
    monkeypatch.setattr(games, "get", lambda g: replace(real(g), luck=luck) if g == "toy" else real(g))
    monkeypatch.setattr(decide, "Outcomes", partial(Outcomes, incremental=incremental))
    spec = SweepSpec(game="toy", bot="coin", grid=parse_grid(["edge=0.4,0.52,0.53"]), units=1500, seed=12,
                     chunk_size=100, baseline=(), sweep_id=f"s-{name}")
    return decided_sweep_flow(spec, RULE, db=str(tmp_path / f"{name}.duckdb"), track=False)


def test_a_cached_look_decides_as_recomputing_every_unit_does(toy, tmp_path, monkeypatch):
    cached_luck, whole_luck = CountingLuck(), CountingLuck()
    cached = _decide(tmp_path, monkeypatch, "cached", cached_luck, incremental=True)
    whole = _decide(tmp_path, monkeypatch, "whole", whole_luck.whole, incremental=False)
    assert cached.selection_units > 0 and cached.dropped  # a race with looks and stops, then a confirmation
    assert len(cached.llr_path) >= 3  # several looks of the SPRT too
    assert (cached.decision, cached.best, cached.challenger, cached.dropped, cached.hands) == \
        (whole.decision, whole.best, whole.challenger, whole.dropped, whole.hands)
    assert cached.llr_path == whole.llr_path  # bit for bit: the same arrays at every look
    assert cached.confirmed == whole.confirmed
    # Each unit's correction computed once; the uncached path recomputed the earlier units at every look.
    assert sum(cached_luck.asked.values()) == cached.hands
    assert sum(whole_luck.asked.values()) > cached.hands


def test_the_uncached_path_is_taken_for_hooks_without_a_start():
    assert luck_takes_start(CountingLuck()) and not luck_takes_start(CountingLuck().whole)
    assert not luck_takes_start(None)


def test_holdem_trainings_hook_gives_a_stretch_what_it_gives_it_whole(tmp_path):
    from flows.games.holdem_training_luck import unit_luck

    with HandLog(str(tmp_path / "h.duckdb")) as store:
        run_match(MatchPlan(game="holdem-training", bot="exploit", overrides=(("runouts_flop", "1"),
                  ("runouts_turn", "1")), seed=5, units=300, chunk_size=100), store, match_id="m", source="test")
        whole = unit_luck(store.query, "m", 300)
        parts = np.concatenate([unit_luck(store.query, "m", 120), unit_luck(store.query, "m", 250, start=120),
                                unit_luck(store.query, "m", 300, start=250)])
        assert np.count_nonzero(whole) > 100  # most hands see a flop: the comparison is not of zeros
        assert np.array_equal(parts, whole)
        looked = Outcomes(store, unit_luck)
        looked.of("m", 100)
        raw, adjusted = looked.of("m", 300)
        assert np.array_equal(adjusted, raw - whole)
        with pytest.raises(ValueError, match="units 250..349"):  # more units asked than were logged
            unit_luck(store.query, "m", 350, start=250)


@pytest.mark.slow  # 24 CodinGame games played and their all-in boards enumerated
def test_cg_holdems_hook_gives_a_stretch_what_it_gives_it_whole(tmp_path):
    from flows.games.cg_holdem_luck import unit_luck

    with HandLog(str(tmp_path / "h.duckdb")) as store:
        run_match(MatchPlan(game="cg-holdem", bot="aggressive", seed=3, units=24, chunk_size=12), store,
                  match_id="g", source="test")
        whole = unit_luck(store.query, "g", 24)
        parts = np.concatenate([unit_luck(store.query, "g", 10), unit_luck(store.query, "g", 24, start=10)])
        assert np.count_nonzero(whole) > 0
        assert np.array_equal(parts, whole)
