"""bench/cg_holdem/range_calibration.py (issue 32): the ranged bot's reads against the actual cards. The watcher plays
as ranged bit for bit; the equity against the actual cards is exact; the rows hold the true decile and a range's mass;
the intervals cluster by game."""

import random

import numpy as np

from bench.cg_holdem.range_calibration import interval, known_equity, tables, watch
from bench.cg_holdem.ranged_paired import maker
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem import judge
from engine.core.cards import parse_card_name


def cards(*names: str) -> list[int]:
    return [parse_card_name(n) for n in names]


def test_known_equity_on_a_river_a_turn_and_a_split():
    board = cards("Ks", "9c", "8d", "7h", "2s")
    assert known_equity(cards("Kh", "Qd"), board, [tuple(cards("Jh", "Tc"))], random.Random(0), 10) == 0.0
    assert known_equity(cards("Jd", "Ts"), board, [tuple(cards("Jh", "Tc"))], random.Random(0), 10) == 0.5
    # turn: trips against an overpair, 44 rivers: the overpair wins with its two outs (a full house) only
    turn = cards("5s", "5d", "9c", "2h")
    eq = known_equity(cards("5c", "3d"), turn, [tuple(cards("Ah", "Ac"))], random.Random(0), 44)
    assert abs(eq - 42 / 44) < 1e-12


def test_the_watcher_changes_no_play_and_records_true_deciles():
    rest, seed = ["aggressive", "style:lag"], 5
    plain = judge.play_chunk([maker("ranged"), *[maker(e) for e in rest]], seed=seed, first=0, count=1)
    rows, decisions, logs = watch(rest, seed=seed, games=1, exact_samples=50)
    assert list(logs[0].payoffs) == list(plain.payoffs)
    for column in ("round", "seat", "action", "chips"):
        assert list(logs[0].events.columns["actions"][column]) == list(plain.events.columns["actions"][column])
    assert decisions and rows
    for r in rows:
        assert abs(sum(r["mass"]) - 1) < 1e-9 and 0 <= r["true"] < 10 and 0 <= r["exact"] <= 1
        assert r["program"] in rest
    assert any(line.startswith("  aggressive") or line.startswith("  style:lag")
               for line in tables(rows, decisions, rest))


def test_the_cluster_interval_widens_when_a_game_repeats_itself():
    x = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    mean, plain, cluster = interval(x, np.array([0, 0, 0, 1, 1, 1]))
    assert mean == 0 and cluster > plain
    _, plain2, cluster2 = interval(x, np.arange(6))
    assert abs(plain2 - plain) < 1e-12 and cluster2 < cluster


def test_the_watcher_plays_with_the_settings_it_is_given():
    # heads-up, opening almost nothing first in: another game than the default's on the same deals
    _, default, _ = watch(["style:lag"], seed=5, games=2, exact_samples=20)
    _, tight, _ = watch(["style:lag"], seed=5, games=2, exact_samples=20, config=RangedConfig(open_hu=0.05))
    assert [(d["hand"], d["est"]) for d in default] != [(d["hand"], d["est"]) for d in tight]
