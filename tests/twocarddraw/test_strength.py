"""The strength benchmark's server set and its summary (the long runs are the bench command)."""

import numpy as np
import pytest

from bench.twocarddraw.strength import (
    HELDOUT2_READINGS,
    HELDOUT_LAWS,
    HELDOUT_READINGS,
    benchmark_server,
    far_tuning_server,
    heldout2_server,
    heldout3_server,
    heldout4_server,
    heldout5_server,
    heldout6_server,
    heldout7_server,
    heldout8_server,
    heldout9_server,
    heldout10_server,
    heldout11_server,
    heldout12_server,
    heldout13_server,
    heldout14_server,
    heldout_server,
    ratio_of_sums_interval,
    summarise,
)
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
    rows = [{"server": i, "br_value": br, "reading": rd, "step_law": law, "a": a, "b": b, "a|last1000": a,
             "b|last1000": b, "a|cpu": 1.0, "b|cpu": 2.0, "a|status": "ok", "b|status": "ok"}
            for i, (br, rd, law, a, b) in enumerate([(0.1, "default", "uniform", 0.09, -0.05),
                                                     (0.4, "order=random", "near-eq", 0.2, 0.2),
                                                     (0.2, "default", "near-eq", 0.1, 0.0)])]
    out = summarise(rows, ["a", "b"])
    assert out["a"]["ratio_of_sums"] == pytest.approx(0.39 / 0.7)
    assert out["a"]["mean_ratio"] == pytest.approx(np.mean([0.9, 0.5, 0.5]))
    assert out["b"]["first_minus_ratio"]["mean"] == pytest.approx(np.mean([1.4, 0.0, 0.5]))
    assert out["b"]["first_minus_per_hand"]["mean"] == pytest.approx(np.mean([0.14, 0.0, 0.1]))
    assert out["a"]["lost_servers"] == [] and out["b"]["lost_servers"] == [0]
    assert out["a"]["by_step_law"]["near-eq"]["ratio_of_sums"] == pytest.approx(0.3 / 0.6)
    low, high = out["a"]["ratio_of_sums_ci"]
    assert low < out["a"]["ratio_of_sums"] < high
    assert out["a"]["by_reading"]["default"] == {"servers": 2, "mean_ratio": pytest.approx(0.7),
                                                 "ratio_of_sums": pytest.approx(0.19 / 0.3)}


def test_summary_pairs_each_bot_with_the_safe_strategy_server_by_server():
    rows = [{"server": i, "br_value": 0.2, "safe": safe, "reading": "default", "step_law": "uniform", "a": a,
             "a|last1000": a, "a|cpu": 1.0, "a|status": "ok"}
            for i, (safe, a) in enumerate([(-0.1, 0.05), (0.1, 0.08), (0.0, 0.1)])]
    got = summarise(rows, ["a"])["a"]["minus_safe_per_hand"]
    assert got["mean"] == pytest.approx(np.mean([0.15, -0.02, 0.1])) and got["min"] == pytest.approx(-0.02)
    assert got["below"] == [1]


def test_heldout_servers_are_apart_from_the_tuning_servers():
    tuning = [benchmark_server(i) for i in range(200)] + [far_tuning_server(i) for i in range(40)]
    held = [heldout_server(i) for i in range(40)]
    assert not {s.seed for s in held} & {s.seed for s in tuning}
    assert not {s.reading for s in held} & set(B.READINGS[1:])  # combined readings only (and the default)
    assert {s.step_law for s in held} == set(HELDOUT_LAWS) and {s.bets for s in held[:35]} == set(R.ALL_BET_SIZES)
    assert sum(s.steps >= 100_000 for s in held) >= len(held) // 2
    assert max(s.steps for s in held) > B.MAX_STEPS and min(s.steps for s in held) >= B.MIN_STEPS
    assert heldout_server(5) == heldout_server(5)


def test_the_second_heldout_set_is_apart_from_the_tuning_set_and_the_first():
    tuning = [benchmark_server(i) for i in range(200)] + [far_tuning_server(i) for i in range(40)]
    first = [heldout_server(i) for i in range(200)]
    second = [heldout2_server(i) for i in range(40)]
    assert not {s.seed for s in second} & ({s.seed for s in tuning} | {s.seed for s in first})
    assert not set(HELDOUT2_READINGS[1:]) & (set(B.READINGS) | set(HELDOUT_READINGS))
    assert {s.reading for s in second} == set(HELDOUT2_READINGS)
    assert {s.step_law for s in second} == set(HELDOUT_LAWS) and {s.bets for s in second[:35]} == set(R.ALL_BET_SIZES)
    assert max(s.steps for s in second) > B.MAX_STEPS and heldout2_server(3) == heldout2_server(3)


def test_the_third_heldout_set_is_apart_from_the_others_and_every_step_law_meets_every_reading():
    earlier = ([benchmark_server(i) for i in range(200)] + [far_tuning_server(i) for i in range(40)]
               + [heldout_server(i) for i in range(200)] + [heldout2_server(i) for i in range(200)])
    third = [heldout3_server(i) for i in range(40)]
    assert not {s.seed for s in third} & {s.seed for s in earlier}
    assert not set(heldout3_server.readings[1:]) & {s.reading for s in earlier}
    pairs = {(law, r) for law in HELDOUT_LAWS for r in heldout3_server.readings}
    assert {(s.step_law, s.reading) for s in third[:16]} == pairs
    assert {s.bets for s in third[:35]} == set(R.ALL_BET_SIZES) and heldout3_server(7) == heldout3_server(7)


@pytest.mark.parametrize("later, before", [(heldout4_server, 3), (heldout5_server, 4), (heldout6_server, 5),
                                           (heldout7_server, 6), (heldout8_server, 7), (heldout9_server, 8),
                                           (heldout10_server, 9), (heldout11_server, 10),
                                           (heldout12_server, 11), (heldout13_server, 12),
                                           (heldout14_server, 13)])
def test_a_later_heldout_set_has_seeds_of_its_own_and_every_step_law_meets_every_reading(later, before):
    sets = (heldout_server, heldout2_server, heldout3_server, heldout4_server, heldout5_server,
            heldout6_server, heldout7_server, heldout8_server, heldout9_server, heldout10_server,
            heldout11_server, heldout12_server, heldout13_server)[:before]
    earlier = ([benchmark_server(i) for i in range(200)] + [far_tuning_server(i) for i in range(40)]
               + [f(i) for f in sets for i in range(200)])
    drawn = [later(i) for i in range(40)]
    assert not {s.seed for s in drawn} & {s.seed for s in earlier}
    pairs = {(law, r) for law in HELDOUT_LAWS for r in later.readings}
    assert {(s.step_law, s.reading) for s in drawn[:16]} == pairs
    assert {s.bets for s in drawn[:35]} == set(R.ALL_BET_SIZES) and later(9) == later(9)


def test_ratio_of_sums_interval_is_exact_for_a_constant_ratio_and_widens_with_spread():
    br = np.array([0.1, 0.3, 0.2, 0.5])
    low, high = ratio_of_sums_interval(0.8 * br, br)
    assert low == pytest.approx(0.8) and high == pytest.approx(0.8)
    low, high = ratio_of_sums_interval(br * np.array([0.6, 1.0, 0.7, 0.9]), br)
    assert low < 0.85 < high
