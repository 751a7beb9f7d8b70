"""The strength benchmark's server set and its summary (the long runs are the bench command)."""

import numpy as np
import pytest

from bench.twocarddraw.strength import benchmark_server, summarise
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R


def test_servers_cover_every_bet_pair_reading_and_step_law():
    servers = [benchmark_server(i) for i in range(40)]
    assert {s.bets for s in servers[:35]} == set(R.ALL_BET_SIZES)
    assert {s.reading for s in servers} == set(B.READINGS)
    assert {s.step_law for s in servers} == {"uniform", "log-uniform"}
    assert all(B.MIN_STEPS <= s.steps <= B.MAX_STEPS for s in servers)
    assert benchmark_server(7) == benchmark_server(7)


def test_summary_ratios_and_paired_differences():
    rows = [{"br_value": br, "reading": rd, "a": a, "b": b, "a|last1000": a, "b|last1000": b, "a|cpu": 1.0,
             "b|cpu": 2.0, "a|status": "ok", "b|status": "ok"}
            for br, rd, a, b in [(0.1, "default", 0.09, 0.05), (0.4, "order=random", 0.2, 0.2),
                                 (0.2, "default", 0.1, 0.0)]]
    out = summarise(rows, ["a", "b"])
    assert out["a"]["ratio_of_sums"] == pytest.approx(0.39 / 0.7)
    assert out["a"]["mean_ratio"] == pytest.approx(np.mean([0.9, 0.5, 0.5]))
    assert out["b"]["first_minus_ratio"]["mean"] == pytest.approx(np.mean([0.4, 0.0, 0.5]))
    assert out["b"]["first_minus_per_hand"]["mean"] == pytest.approx(np.mean([0.04, 0.0, 0.1]))
    assert out["a"]["by_reading"]["default"] == {"servers": 2, "mean_ratio": pytest.approx(0.7),
                                                 "ratio_of_sums": pytest.approx(0.19 / 0.3)}
