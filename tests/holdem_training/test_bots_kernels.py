"""The exploit bot's numba kernels against slow pure-Python twins (and the engine's evaluator)."""

import math

import numpy as np
import pytest

from bots.holdem_training import _kernels as K
from bots.holdem_training import tables
from engine.core import seeds
from engine.holdem_training import _kernels as E

EV = tables.engine_evaluator_tables()
CARDS = K.pair_cards()
SETS = K.breakeven_sets(210, 100, 100)  # Bob's break-even rules for the contest's pots and raises


def _rng(seed: int) -> np.random.Generator:
    return seeds.generator(seeds.match_key(seed))


def _deal(rng, count: int) -> list[int]:
    return [int(c) for c in rng.permutation(52)[:count]]


# ---------------------------------------------------------------------------------- twins
def twin_full_board(hole, board):
    """Per pair k off the board: Bob's view (P(random Alice pair beats k), P(tie)) by brute
    force over the pairs disjoint from k, and Alice's result against k (-1 if k meets her cards)."""
    rest = [c for c in range(52) if c not in board]
    pairs = [(a, b) for i, b in enumerate(rest) for a in rest[:i]]
    values = E.evaluate_many(np.array([[a, b, *board] for a, b in pairs], np.int64))
    value = dict(zip(pairs, values.tolist(), strict=True))
    mine = value[tuple(sorted(hole))]
    out = {}
    for (a, b), v in value.items():
        beats = ties = 0
        for (c, d), u in value.items():
            if len({a, b, c, d}) < 4:
                continue
            beats += u > v
            ties += u == v
        result = -1.0 if {a, b} & set(hole) else (1.0 if mine > v else 0.5 if mine == v else 0.0)
        out[K.pair_index(a, b)] = (beats / 990, ties / 990, result)
    return out


def twin_cdf(w, d, s, rollouts=100):
    """P(2 * wins + ties <= s) over `rollouts` independent rollouts, by enumeration."""
    lose = 1.0 - w - d
    total = 0.0
    for wins in range(rollouts + 1):
        for ties in range(rollouts - wins + 1):
            if 2 * wins + ties <= s:
                total += (math.comb(rollouts, wins) * math.comb(rollouts - wins, ties)
                          * w**wins * d**ties * lose ** (rollouts - wins - ties))
    return total


def twin_call_threshold(pot, x, rollouts=100):
    """Largest 2W + D with which the statement's call rule holds, by trying every count."""
    best = -1
    for wins in range(rollouts + 1):
        for ties in range(rollouts - wins + 1):
            bob_wins = rollouts - wins - ties
            if 2 * bob_wins * (pot + x) + ties * pot - 2 * wins * x > 0:
                best = max(best, 2 * wins + ties)
    return best


def _cell(cdf, w, d):
    grid = cdf.shape[1] - 1
    return min(max(int(w * grid + 0.5), 0), grid), min(max(int(d * grid + 0.5), 0), grid)


def twin_call(cdf, pot, x, w, d, rollouts=100):
    """P(Bob calls) at the nearest cell: his score below the break-even, plus every break-even
    count that the judge's doubles rule (engine call_decision) calls, at the cell's rates."""
    if x == 0:
        return 1.0
    i, j = _cell(cdf, w, d)
    grid = cdf.shape[1] - 1
    j = min(j, grid - i)
    cw, cd = i / grid, j / grid
    p = float(cdf[K.call_threshold(pot, x, rollouts), i, j])
    for wins in range(rollouts + 1):
        for ties in range(rollouts - wins + 1):
            bob_wins = rollouts - wins - ties
            even = 2 * bob_wins * (pot + x) + ties * pot - 2 * wins * x == 0
            if even and E.call_decision(bob_wins, ties, rollouts, pot, x):
                p += (math.comb(rollouts, wins) * math.comb(rollouts - wins, ties)
                      * cw**wins * cd**ties * (1 - cw - cd) ** bob_wins)
    return min(1.0, p)


def twin_option_values(cdf, post, bw, bd, eq, extra, active, pot, stack, sizes, future):
    values = []
    total = sum(post[h] for h in active)
    for o, x in enumerate([0, *sizes]):
        after, left = pot + 2 * x, stack - x
        later = min(left, future[1] * after)
        acc = 0.0
        for h in active:
            p = twin_call(cdf, pot, x, bw[h], bd[h])
            mid = max(0.0, eq[h] - future[2]) * future[0]
            acc += post[h] * ((1 - p) * pot + p * (eq[h] * after - x + mid * later))
        values.append((acc + extra[o]) / total + stack - 100)
    return np.array(values)


def twin_river_values(cdf, post, bw, bd, river, active, pot, stack, sizes, fractions):
    out = []
    for x in [0, *sizes]:
        after, left = pot + 2 * x, stack - x
        if left < 1:
            out.append(0.0)
            continue
        weight = {h: post[h] * twin_call(cdf, pot, x, bw[h], bd[h]) for h in active}
        total = 0.0
        for r in range(river.shape[1]):
            best = 0.0
            for f in fractions:
                y = min(max(1, int(f * after + 0.5)), left)
                gain = 0.0
                for h in active:
                    o = river[2, r, h]
                    if o < 0:
                        continue
                    p = twin_call(cdf, after, y, river[0, r, h], river[1, r, h])
                    gain += weight[h] * ((1 - p) * (1 - o) * after + p * y * (2 * o - 1))
                best = max(best, gain)
            total += best
        out.append(total / river.shape[1])
    return np.array(out)


def twin_turn_equity(hole, board):
    """Alice's equity against every pair over all river cards, by brute force."""
    dead = set(hole) | set(board)
    rest = [c for c in range(52) if c not in dead]
    rows, owners = [], []
    for i, b in enumerate(rest):
        for a in rest[:i]:
            for river in rest:
                if river in (a, b):
                    continue
                rows.append([*hole, *board, river])
                rows.append([a, b, *board, river])
                owners.append(K.pair_index(a, b))
    values = E.evaluate_many(np.array(rows, np.int64)).reshape(-1, 2)
    score = np.where(values[:, 0] > values[:, 1], 1.0, np.where(values[:, 0] == values[:, 1], 0.5, 0.0))
    sums = np.bincount(owners, score, minlength=1326)
    counts = np.bincount(owners, minlength=1326)
    return sums, counts


# ---------------------------------------------------------------------------------- tests
def test_evaluator_on_bundle_tables_matches_engine():
    rng = _rng(1)
    hands = np.array([rng.permutation(52)[:7] for _ in range(20000)], np.int64)
    assert np.array_equal(K.values7(EV, hands), E.evaluate_many(hands))


def test_pair_index_round_trip():
    assert CARDS.shape == (1326, 2)
    for k in (0, 1, 777, 1325):
        a, b = CARDS[k]
        assert a < b and K.pair_index(a, b) == k == K.pair_index(b, a)


@pytest.mark.parametrize("seed", [3, 4])
def test_full_board_stats_match_brute_force(seed):
    rng = _rng(seed)
    cards = _deal(rng, 7)
    hole, board = cards[:2], cards[2:]
    stats, river = K.street_stats(EV, np.array(hole), np.array(board), 1, seeds.stream(1),
                                  K.rank_workspace())
    twin = twin_full_board(hole, board)
    for k, (w, d, result) in twin.items():
        assert stats[0, k] == pytest.approx(w) and stats[1, k] == pytest.approx(d)
        assert river[0, 0, k] == pytest.approx(w) and river[2, 0, k] == result
        if result >= 0:
            assert stats[2, k] == result


def test_sampled_streets_average_their_completions():
    """Flop stats are the mean over the sampled completions of full-board stats."""
    hole, board = np.array([12, 25]), np.array([0, 14, 30])
    stats, river = K.street_stats(EV, hole, board, 6, seeds.stream(9), K.rank_workspace())
    valid = river[0] >= 0
    k = K.pair_index(5, 44)
    assert valid[:, k].any()
    assert stats[0, k] == pytest.approx(river[0][valid[:, k], k].mean())
    alive = river[2, :, k] >= 0
    assert stats[2, k] == pytest.approx(river[2, alive, k].mean())
    assert (river[2, :, K.pair_index(12, 40)] == -1).all()  # meets Alice's cards


def test_score_cdf_matches_enumeration():
    cdf = K.score_cdf(20, 100)
    for i, j, s in [(10, 0, 100), (8, 2, 90), (12, 5, 130), (3, 1, 40), (15, 4, 170)]:
        assert cdf[s, i, j] == pytest.approx(twin_cdf(i / 20, j / 20, s), abs=1e-5)


def test_call_threshold_is_the_statement_rule():
    for pot, x in [(10, 1), (10, 5), (10, 10), (10, 100), (30, 7), (210, 50), (12, 99)]:
        assert K.call_threshold(pot, x, 100) == twin_call_threshold(pot, x)


def test_canonical_classes_and_suit_maps():
    seen = set()
    for k in range(1326):
        cls, smap = K.canonical(*CARDS[k])
        seen.add(int(cls))
        hi, lo = K.class_representative(cls)
        mapped = sorted(int(smap[c // 13]) * 13 + c % 13 for c in CARDS[k])
        assert mapped == sorted([hi, lo])
    assert seen == set(range(169))


def test_preflop_tables_agree_with_suit_symmetry_and_monte_carlo():
    win, tie = K.preflop_tables(EV, 400, seeds.stream(3), CARDS, K.rank_workspace())
    aw, at = K.alice_preflop(win, tie, 12, 51, CARDS)  # Ac As
    aw2, at2 = K.alice_preflop(win, tie, 38, 25, CARDS)  # Ah Ad: same class, suits permuted
    k, k2 = K.pair_index(11, 50), K.pair_index(37, 24)  # Kc Ks vs Kh Kd
    assert aw[k] == aw2[k2] and at[k] == at2[k2]
    assert 0.72 < aw[k] < 0.9  # AA vs KK with the same suits wins about 81%
    assert aw[K.pair_index(12, 0)] == 0.0  # pairs meeting Alice's cards stay empty


def test_option_values_match_twin():
    rng = _rng(8)
    cdf = K.score_cdf(20, 100)
    post = rng.random(1326)
    bw, bd = rng.random(1326) * 0.8, rng.random(1326) * 0.1
    eq = rng.random(1326)
    active = np.sort(rng.choice(1326, 300, replace=False))
    sizes = np.array([1, 5, 12, 40, 90])
    extra = rng.random(6) * 20
    future = np.array([0.4, 1.5, 0.45])
    got = K.option_values(K.call_model(cdf, SETS), post, bw, bd, eq, extra, active, 30, 90, sizes, future, 100)
    want = twin_option_values(cdf, post, bw, bd, eq, extra, active, 30, 90, sizes, future)
    assert np.allclose(got, want)


@pytest.mark.parametrize("reps, every", [pytest.param(3, 7, marks=pytest.mark.slow), (2, 29)])  # the twin is slow
def test_river_values_match_twin(reps, every):
    rng = _rng(12)
    cdf = K.score_cdf(20, 100)
    river = np.empty((3, reps, 1326))
    river[0] = rng.random((reps, 1326)) * 0.9
    river[1] = rng.random((reps, 1326)) * 0.05
    river[2] = rng.choice([-1.0, 0.0, 0.5, 1.0], size=(reps, 1326))
    post = rng.random(1326)
    bw, bd = rng.random(1326) * 0.8, rng.random(1326) * 0.1
    active = np.arange(0, 1326, every)
    sizes = np.array([3, 10, 25, 60])
    fractions = np.array([0.25, 0.5, 1.0, 3.0])
    got = K.river_values(K.call_model(cdf, SETS), post, bw, bd, river, active, 20, 60, sizes, fractions, 100)
    want = twin_river_values(cdf, post, bw, bd, river, active, 20, 60, sizes, fractions)
    assert np.allclose(got, want)
    assert got[-1] == 0.0 and got[0] > 0.0  # all-in leaves nothing to raise on the river


def test_alice_equity_enumerates_the_river():
    rng = _rng(21)
    cards = _deal(rng, 6)
    hole, board = cards[:2], cards[2:]
    got = K.alice_equity(EV, np.array(hole), np.array(board), 48, seeds.stream(2), CARDS, K.rank_workspace())
    sums, counts = twin_turn_equity(hole, board)
    live = counts > 0
    assert live.sum() == 1035  # pairs of the 46 unseen cards
    assert np.allclose(got[live], sums[live] / counts[live])
    assert (got[~live] == 0.5).all()


def test_subsample_is_a_uniform_subset():
    active = np.arange(0, 1000, 2)
    state = seeds.stream(4)
    picks = [K.subsample(active, 50, state) for _ in range(400)]
    assert all(len(p) == 50 and len(set(p.tolist())) == 50 and set(p.tolist()) <= set(active.tolist())
               and (np.diff(p) > 0).all() for p in picks)
    hits = np.bincount(np.concatenate(picks) // 2, minlength=500)
    assert hits.sum() == 20000 and 20 < hits.min() and hits.max() < 70  # each about 40 (binomial sd 6)
    assert np.array_equal(K.subsample(active, 600, state), active)


def test_raise_sizes_match_twin():
    for fractions, pot, stack, allin in [([0.1, 0.5, 1.0, 3.0], 10, 100, True), ([0.25, 0.5], 30, 12, False),
                                         ([0.1, 0.2], 4, 1, True), ([1.0, 5.0], 210, 60, False)]:
        want = sorted({min(stack, max(1, int(f * pot + 0.5))) for f in fractions} | ({stack} if allin else set()))
        assert K.raise_sizes(np.array(fractions), pot, stack, allin).tolist() == want


def test_decide_is_the_best_of_myopic_plus_lookahead_over_candidates():
    rng = _rng(14)
    cdf = K.score_cdf(20, 100)
    post = rng.random(1326) * (rng.random(1326) > 0.2)
    bw, bd, eq = rng.random(1326) * 0.8, rng.random(1326) * 0.05, rng.random(1326)
    river = np.empty((3, 2, 1326))
    river[0], river[1] = rng.random((2, 1326)) * 0.9, rng.random((2, 1326)) * 0.05
    river[2] = rng.choice([-1.0, 0.0, 0.5, 1.0], size=(2, 1326))
    sizes, fractions, future = np.array([2, 6, 15, 40, 80]), np.array([0.5, 1.0, 2.0]), np.array([0.3, 1.0, 0.5])
    bob = K.call_model(cdf, SETS)
    x, active = K.decide(bob, post, bw, bd, eq, river, 20, 80, sizes, future, fractions, 2, 2000, 0.0,
                         seeds.stream(1), 100)
    assert np.array_equal(active, np.flatnonzero(post > 0))
    myopic = K.option_values(bob, post, bw, bd, eq, np.zeros(6), active, 20, 80, sizes, future, 100)
    picks = np.sort(np.argsort(-myopic[1:])[:2])
    extra = K.river_values(bob, post, bw, bd, river, active, 20, 80, sizes[picks], fractions, 100)
    mass = post[active].sum()
    options = [(myopic[0] + extra[0] / mass, 0)] + [(myopic[p + 1] + extra[i + 1] / mass, int(sizes[p]))
                                                     for i, p in enumerate(picks)]
    assert x == max(options)[1]
    none = np.zeros((3, 0, 1326))
    x_river, _ = K.decide(bob, post, bw, bd, eq, none, 20, 80, sizes, future, fractions, 2, 2000, 0.0,
                          seeds.stream(1), 100)
    assert x_river == ([0, *sizes.tolist()])[int(np.argmax(myopic))]


def test_blurred_call_table_averages_nearby_win_rates():
    from bots.holdem_training.exploit import blurred

    cdf = K.score_cdf(20, 100)
    assert blurred(cdf, 0.0) is cdf
    soft = blurred(cdf, 0.1)  # 2 grid cells of 0.05
    weights = np.exp(-0.5 * (np.arange(-6, 7) / 2.0) ** 2)
    weights /= weights.sum()
    rows = cdf[120, np.clip(10 + np.arange(-6, 7), 0, 20), 1]
    assert soft[120, 10, 1] == pytest.approx(float(weights @ rows), rel=1e-5)
    assert (np.diff(soft, axis=0) >= -1e-6).all()  # still a distribution function in s


@pytest.mark.parametrize("board", [[0, 14, 30, 41, 51], [13, 15, 18, 22, 25], [13, 15, 18, 22, 3],
                                   [13, 15, 18, 5, 3], [13, 26, 0, 15, 2], [0, 13, 26, 39, 1]])
def test_rank_runout_groups_every_pair_off_the_board_by_value(board):
    """Flush-free, 5-, 4- and 3-suited and paired boards: the groups against the engine's values."""
    work = K.rank_workspace()
    n_groups = K._rank_runout(EV, np.array(board), work)
    vals, order, starts, lo, hi = work[:5]
    rest = [c for c in range(52) if c not in board]
    pairs = [(a, b) for i, b in enumerate(rest) for a in rest[:i]]
    want = E.evaluate_many(np.array([[a, b, *board] for a, b in pairs], np.int64))
    n = starts[n_groups]
    assert n == len(pairs) == 1081 and sorted(order[:n].tolist()) == sorted(K.pair_index(a, b) for a, b in pairs)
    assert [vals[K.pair_index(a, b)] for a, b in pairs] == want.tolist()
    assert all(K.pair_index(int(lo[t]), int(hi[t])) == order[t] and lo[t] < hi[t] for t in range(n))
    group_values = [{int(vals[k]) for k in order[starts[g]:starts[g + 1]]} for g in range(n_groups)]
    assert all(len(v) == 1 for v in group_values)  # one value per group, ascending
    assert [min(v) for v in group_values] == sorted(set(want.tolist()))


def twin_subsample(active, m, state):
    """Partial Fisher-Yates on the values, then sorted (no draws when m covers them all)."""
    pool = list(active)
    if m >= len(pool):
        return pool
    for t in range(m):
        s = t + int(K.below(state, len(pool) - t))
        pool[t], pool[s] = pool[s], pool[t]
    return sorted(pool[:m])


def test_subsample_matches_twin_and_draws_alike():
    rng = _rng(5)
    for active in (np.flatnonzero(rng.random(1326) < 0.6), rng.permutation(900)):
        for m in (1, 50, 200, 2000):
            state, twin_state = seeds.stream(7), seeds.stream(7)
            assert K.subsample(active, m, state).tolist() == twin_subsample(active, m, twin_state)
            assert state[0] == twin_state[0]


def test_cell_slots_number_cells_in_order_of_appearance():
    rng = _rng(6)
    cells = rng.integers(0, 101 * 101, 500)
    table = K._cell_table(len(cells))
    slots, n = {}, 0
    for c in cells.tolist():
        slot, new = K._cell_slot(table, c, n)
        assert new == (c not in slots) and slot == slots.setdefault(c, n)
        n += new
    assert n == len(set(cells.tolist()))
