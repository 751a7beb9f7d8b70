"""Numba kernels of the Hold'em Training bots (private; each has a slow twin in the tests).

Holdings are indexed by pair: index(i, j) = j * (j - 1) // 2 + i for cards i < j (1326).

The evaluator is the one in engine/core, in its tables-passed-in convention
(engine/core/hand_eval_ev.py; values7 is re-exported for tests): the contestant loads the
tables from its bundle, so a fresh process never builds or looks for the project's cache.
"""

import math

import numpy as np

from engine.core._rng import below
from engine.core.hand_eval_ev import FLUSH_BITS, SUIT_BIAS, nonflush_value_of, value_of, values7  # noqa: F401
from engine.core.jit import kernel

PAIRS = 1326
CLASSES = 169


@kernel
def pair_index(i, j):
    if i > j:
        i, j = j, i
    return j * (j - 1) // 2 + i


@kernel
def pair_cards():
    """(1326, 2) array: the two cards of each pair index, lower card first."""
    out = np.empty((PAIRS, 2), np.int64)
    for j in range(52):
        for i in range(j):
            k = j * (j - 1) // 2 + i
            out[k, 0] = i
            out[k, 1] = j
    return out


# --------------------------------------------------------------------------------------
# Bob's noisy call rule: he calls iff S = 2*(Alice wins) + (ties) over his rollouts <= smax
# --------------------------------------------------------------------------------------
@kernel
def score_cdf(grid, rollouts):
    """cdf[s, i, j] = P(S <= s) when each rollout scores 2 w.p. w = i/grid, 1 w.p. d = j/grid,
    0 otherwise. Cells with w + d > 1 repeat the edge d = 1 - w (used only to interpolate)."""
    top = 2 * rollouts
    out = np.empty((top + 1, grid + 1, grid + 1), np.float32)
    pmf = np.empty(top + 1)
    nxt = np.empty(top + 1)
    for i in range(grid + 1):
        for j in range(grid + 1):
            jj = min(j, grid - i)
            w = i / grid
            d = jj / grid
            lo = max(0.0, 1.0 - w - d)
            pmf[:] = 0.0
            pmf[0] = 1.0
            for n in range(rollouts):
                for s in range(2 * n + 3):
                    v = lo * pmf[s] if s <= 2 * n else 0.0
                    if 1 <= s <= 2 * n + 1:
                        v += d * pmf[s - 1]
                    if s >= 2:
                        v += w * pmf[s - 2]
                    nxt[s] = v
                pmf[: 2 * n + 3] = nxt[: 2 * n + 3]
            acc = 0.0
            for s in range(top + 1):
                acc += pmf[s]
                out[s, i, j] = min(acc, 1.0)
    return out


@kernel
def call_threshold(pot, x, rollouts):
    """Largest score S at which Bob still calls a raise x into pot (strict EV > 0 rule):
    (pot + 2x) * S < 2 * rollouts * (pot + x)."""
    return (2 * rollouts * (pot + x) - 1) // (pot + 2 * x)


@kernel
def corners(cdf, w, d):
    """Bilinear interpolation corners of (w, d) in the cdf grid: (i, j, tw, td)."""
    grid = cdf.shape[1] - 1
    fw = min(max(w, 0.0), 1.0) * grid
    fd = min(max(d, 0.0), 1.0) * grid
    i = min(int(fw), grid - 1)
    j = min(int(fd), grid - 1)
    return i, j, fw - i, fd - j


@kernel
def interpolated(cdf, i, j, tw, td, smax):
    if smax < 0:
        return 0.0
    if smax >= cdf.shape[0] - 1:
        return 1.0
    a = cdf[smax, i, j] * (1.0 - tw) + cdf[smax, i + 1, j] * tw
    b = cdf[smax, i, j + 1] * (1.0 - tw) + cdf[smax, i + 1, j + 1] * tw
    return a * (1.0 - td) + b * td


@kernel
def breakeven_calls(pot, x, rollouts):
    """(Alice's wins, ties) of Bob's rollouts that score exactly the break-even S0 and that his
    rule still calls: the judge evaluates it in doubles, as the reference interactor does
    (engine/holdem_training/_kernels.call_decision; not imported, since that module builds the
    evaluator tables at import). Empty when (pot, x) has no integer break-even score."""
    num = 2 * rollouts * (pot + x)
    den = pot + 2 * x
    out = np.empty((rollouts + 1, 2), np.int64)
    n = 0
    if num % den:
        return out[:0]
    s0 = num // den
    for alice in range(min(s0 // 2, rollouts) + 1):
        ties = s0 - 2 * alice
        if alice + ties > rollouts:
            continue
        w = alice / rollouts
        d = ties / rollouts
        if -w * x + d * pot / 2 + (1.0 - w - d) * (pot + x) > 0.0:
            out[n, 0] = alice
            out[n, 1] = ties
            n += 1
    return out[:n]


@kernel
def _log_or_none(p):
    return np.log(p) if p > 0.0 else -np.inf


@kernel
def call_rule(pot, x, rollouts):
    """Bob's whole call rule for a raise x into pot, as the model uses it: (smax, pairs, log_coef).
    He calls when his score S <= smax, and at the break-even score smax + 1 when his counts
    (Alice's wins, ties) are one of `pairs` (breakeven_calls: the doubles rule);
    log_coef[k] = log of pairs[k]'s multinomial coefficient."""
    smax = call_threshold(pot, x, rollouts)
    pairs = breakeven_calls(pot, x, rollouts)
    log_coef = np.empty(pairs.shape[0])
    top = math.lgamma(rollouts + 1)
    for k in range(pairs.shape[0]):
        a, t = pairs[k, 0], pairs[k, 1]
        log_coef[k] = top - math.lgamma(a + 1) - math.lgamma(t + 1) - math.lgamma(rollouts - a - t + 1)
    return smax, pairs, log_coef


@kernel
def breakeven_mass(pairs, log_coef, rollouts, lw, ld, ll):
    """P(Bob's counts land on one of `pairs`) when each of his rollouts is an Alice win with
    log-probability lw, a tie with ld, else ll (multinomial; logs may be -inf)."""
    total = 0.0
    for k in range(pairs.shape[0]):
        a, t = pairs[k, 0], pairs[k, 1]
        rest = rollouts - a - t
        log_p = log_coef[k] + (a * lw if a else 0.0) + (t * ld if t else 0.0) + (rest * ll if rest else 0.0)
        total += math.exp(log_p)
    return total


@kernel
def grid_logs(grid):
    """logs[k] = log(k / grid) (-inf for 0): a grid cell's win, tie and loss rates."""
    out = np.empty(grid + 1)
    for k in range(grid + 1):
        out[k] = _log_or_none(k / grid)
    return out


@kernel
def breakeven_sets(max_pot, max_raise, rollouts):
    """Every break-even rule of Bob's for pots and raises up to these, each distinct one once:
    (index, pairs, n_pairs, log_coef) where index[pot, x] = the rule of (pot, x) (-1: his rule
    calls no break-even count there), and rule s calls the counts pairs[s, :n_pairs[s]]
    (call_rule's pairs and log_coef). 283 rules for pots up to 210 and raises up to 100."""
    index = np.full((max_pot + 1, max_raise + 1), -1, np.int64)
    cap = 16
    pairs = np.zeros((cap, rollouts + 1, 2), np.int64)
    n_pairs = np.zeros(cap, np.int64)
    log_coef = np.zeros((cap, rollouts + 1))
    n = 0
    for pot in range(1, max_pot + 1):
        for x in range(1, max_raise + 1):
            _, these, coef = call_rule(pot, x, rollouts)
            k = these.shape[0]
            if k == 0:
                continue
            found = -1
            for r in range(n):
                if n_pairs[r] == k and np.all(pairs[r, :k] == these):
                    found = r
                    break
            if found < 0:
                if n == cap:
                    cap *= 2
                    pairs = np.concatenate((pairs, np.zeros_like(pairs)))
                    n_pairs = np.concatenate((n_pairs, np.zeros_like(n_pairs)))
                    log_coef = np.concatenate((log_coef, np.zeros_like(log_coef)))
                pairs[n, :k] = these
                n_pairs[n] = k
                log_coef[n, :k] = coef
                found = n
                n += 1
            index[pot, x] = found
    return index, pairs[:n].copy(), n_pairs[:n].copy(), log_coef[:n].copy()


def call_model(cdf, sets):
    """What the planning kernels know of Bob's call rule: his score's cdf (score_cdf), his
    break-even rules (breakeven_sets) and a cache of their break-even mass per grid cell
    (filled as cells are met: -1 until then)."""
    grid = cdf.shape[1] - 1
    return (cdf, *sets, np.full((sets[1].shape[0], grid + 1, grid + 1), -1.0, np.float32))


_NEGLIGIBLE = 1e-6  # break-even mass below this (read off the cdf) is not worth its exps


@kernel
def cell_call_probs(bob, pot, x, rollouts, logs, cell_i, cell_j, cells, out):
    """out[c] = P(Bob calls a raise x into pot) for each c in `cells`, his equity being grid cell
    (cell_i[c], cell_j[c]): his score below the break-even, read off the cdf, plus the mass of
    the break-even counts his rule calls, at the cell's rates (cached in bob; `bob` from
    call_model). One call per rule, not per cell: a call with array arguments costs ~40 ns
    here (reference counting), more than the lookup."""
    cdf, index, set_pairs, set_n, set_coef, mass = bob
    if pot >= index.shape[0] or x >= index.shape[1]:
        raise ValueError("pot or raise past the call model's break-even rules")
    smax = call_threshold(pot, x, rollouts)
    s = index[pot, x]
    grid = cdf.shape[1] - 1
    for c in cells:
        i, j = cell_i[c], cell_j[c]
        p = np.float64(cdf[smax, i, j])
        if s >= 0:
            m = mass[s, i, j]
            if m < 0.0:
                m = 0.0
                if cdf[smax + 1, i, j] - p >= _NEGLIGIBLE:
                    k = set_n[s]
                    jj = min(j, grid - i)  # cells past w + d = 1 repeat its edge (score_cdf)
                    m = breakeven_mass(set_pairs[s, :k], set_coef[s, :k], rollouts, logs[i], logs[jj],
                                       logs[grid - i - jj])
                mass[s, i, j] = m
            p = min(1.0, p + m)
        out[c] = p


@kernel
def call_probs(cdf, bob_w, bob_d, active, pot, x, rollouts):
    """P(Bob calls raise x) for each active holding, given his exact equity (w, d): his score
    below the break-even (interpolated in the cdf), plus the break-even counts that his
    double-precision rule calls."""
    smax, pairs, log_coef = call_rule(pot, x, rollouts)
    out = np.zeros(PAIRS)
    for h in active:
        w, d = bob_w[h], bob_d[h]
        i, j, tw, td = corners(cdf, w, d)
        p = interpolated(cdf, i, j, tw, td, smax)
        if pairs.shape[0] > 0:
            p += breakeven_mass(pairs, log_coef, rollouts, _log_or_none(w), _log_or_none(d),
                                _log_or_none(1.0 - w - d))
        out[h] = min(1.0, p)
    return out


# --------------------------------------------------------------------------------------
# Street statistics by shared runouts: every runout ranks all holdings once, which gives
# Bob's exact equity against every Alice holding for that runout (counting with card
# removal) and Alice's result against every Bob holding.
# --------------------------------------------------------------------------------------
@kernel
def _values_off_board(ev, final, vals, rank_val, members):
    """vals[k] for every pair k off the 5-card board `final`, whose indices go to
    members[:n]; returns n.
    Without a flush a hand's value depends on its two ranks only, so the 91 rank pairs are
    evaluated once and the pairs look theirs up."""
    used = np.zeros(52, np.bool_)
    key = SUIT_BIAS
    bits = np.uint64(0)
    for c in final:
        used[c] = True
        key += ev[0][c]
        bits |= ev[1][c]
    for r2 in range(13):
        for r1 in range(r2 + 1):
            v = nonflush_value_of(ev, key + ev[0][r1] + ev[0][r2])
            rank_val[r1 * 13 + r2] = v
            rank_val[r2 * 13 + r1] = v
    n = 0
    for j in range(52):
        if used[j]:
            continue
        kj = key + ev[0][j]
        for i in range(j):
            if used[i]:
                continue
            k = j * (j - 1) // 2 + i
            kk = kj + ev[0][i]
            if kk & FLUSH_BITS:
                vals[k] = value_of(ev, kk, bits | ev[1][i] | ev[1][j])
            else:
                vals[k] = rank_val[(i % 13) * 13 + j % 13]
            members[n] = k
            n += 1
    return n


@kernel
def alice_equity(ev, hole, board, runouts, state, cards, work):
    """Alice's equity (win + tie / 2) against every pair k, over completions of the board
    drawn from the cards neither on the board nor in her hand: all of them when one card is
    missing and runouts >= their number, else `runouts` draws (distinct when one card is
    missing). Completions that use k's cards are skipped for k; 0.5 where none counted."""
    vals, rank_val, members = work[0], work[5], work[6]
    nb = board.shape[0]
    h0, h1 = hole[0], hole[1]
    pool = np.empty(52, np.int64)
    m = 0
    for c in range(52):
        skip = c == h0 or c == h1
        for b in board:
            skip = skip or c == b
        if not skip:
            pool[m] = c
            m += 1
    need = 5 - nb
    reps = 1 if need == 0 else (m if need == 1 and runouts >= m else runouts)
    final = np.empty(5, np.int64)
    final[:nb] = board
    score = np.zeros(PAIRS)
    count = np.zeros(PAIRS)
    alice = pair_index(h0, h1)
    for rep in range(reps):
        if need == 1:  # rivers without replacement
            s = rep + below(state, m - rep) if reps < m else rep
            pool[rep], pool[s] = pool[s], pool[rep]
            final[4] = pool[rep]
        else:
            for t in range(need):
                s = t + below(state, m - t)
                pool[t], pool[s] = pool[s], pool[t]
                final[nb + t] = pool[t]
        n = _values_off_board(ev, final, vals, rank_val, members)
        va = vals[alice]
        for t in range(n):
            k = members[t]
            a, b = cards[k, 0], cards[k, 1]
            if a == h0 or a == h1 or b == h0 or b == h1:
                continue
            v = vals[k]
            score[k] += 1.0 if va > v else 0.5 if va == v else 0.0
            count[k] += 1.0
    out = np.full(PAIRS, 0.5)
    for k in range(PAIRS):
        if count[k] > 0:
            out[k] = score[k] / count[k]
    return out


RANK_PAIRS = 91
# _rank_runout sorts keys value * _ITEM + item, item = a rank pair (< RANK_PAIRS) or
# RANK_PAIRS + 52 * j + i for the flush pair of cards i < j
_ITEM = 4096


@kernel
def rank_workspace():
    """Scratch arrays for _rank_runout and the kernels that use it, in this order:
    vals, order, starts, lo, hi (its results), rank_val, members (for _values_off_board),
    keys, above, stronger (scratch), and the constant pairs of each rank pair: combo_pair,
    combo_lo, combo_hi, combo_start (rank pair rp = combos combo_start[rp]:combo_start[rp + 1],
    rank pairs numbered r2 = 0..12, r1 = 0..r2). Card and pair arrays are unsigned: numba
    then skips the negative-index wraparound on every lookup."""
    combo_pair = np.empty(PAIRS, np.uint16)
    combo_lo = np.empty(PAIRS, np.uint8)
    combo_hi = np.empty(PAIRS, np.uint8)
    combo_start = np.empty(RANK_PAIRS + 1, np.int64)
    n = 0
    rp = 0
    for r2 in range(13):
        for r1 in range(r2 + 1):
            combo_start[rp] = n
            rp += 1
            for s2 in range(4):
                for s1 in range(4):
                    if r1 == r2 and s1 >= s2:
                        continue
                    a, b = s1 * 13 + r1, s2 * 13 + r2
                    combo_pair[n] = pair_index(a, b)
                    combo_lo[n] = min(a, b)
                    combo_hi[n] = max(a, b)
                    n += 1
    combo_start[RANK_PAIRS] = n
    return (np.zeros(PAIRS, np.int64), np.zeros(PAIRS, np.uint16), np.zeros(PAIRS + 1, np.int64),
            np.zeros(PAIRS, np.uint8), np.zeros(PAIRS, np.uint8), np.zeros(169, np.int64),
            np.zeros(PAIRS, np.int64), np.zeros(PAIRS + RANK_PAIRS, np.int64), np.zeros(52, np.int64),
            np.zeros(PAIRS, np.int64), combo_pair, combo_lo, combo_hi, combo_start)


@kernel
def _rank_runout(ev, final, work):
    """Value of every pair outside the 5-card board `final`, grouped by value.

    Fills work.vals (by pair index), work.order (pairs, weakest value first), work.lo and
    work.hi (the cards of order[t]) and work.starts (group g = order[starts[g]:starts[g + 1]],
    in no particular order within a group); returns the number of groups.
    Without a flush the value depends on the two ranks only, so the 91 rank pairs are
    evaluated and sorted with the flush pairs; each then emits its pairs off the board."""
    vals, order, starts, lo, hi = work[0], work[1], work[2], work[3], work[4]
    keys, combo_pair, combo_lo, combo_hi, combo_start = work[7], work[10], work[11], work[12], work[13]
    key = SUIT_BIAS
    bits = np.uint64(0)
    suits = np.zeros(4, np.int64)
    for c in final:
        key += ev[0][c]
        bits |= ev[1][c]
        suits[c // 13] += 1
    # a pair flushes iff it holds `need` cards of suit fs (need = 3: no flush possible);
    # cost[c] = 1 for those cards, 0 for the others, 8 on the board: a pair off the board
    # flushes iff need <= its cost <= 2
    fs = np.argmax(suits)
    need = 5 - suits[fs] if suits[fs] >= 3 else 3
    cost = np.zeros(52, np.int64)
    if need < 3:
        cost[13 * fs: 13 * fs + 13] = 1
    for c in final:
        cost[c] = 8
    n_items = 0
    for r2 in range(13):
        for r1 in range(r2 + 1):
            keys[n_items] = nonflush_value_of(ev, key + ev[0][r1] + ev[0][r2]) * _ITEM + n_items
            n_items += 1
    if need < 3:
        for j in range(52):
            for i in range(j):
                if need <= cost[i] + cost[j] <= 2:
                    k = j * (j - 1) // 2 + i
                    v = value_of(ev, key + ev[0][i] + ev[0][j], bits | ev[1][i] | ev[1][j])
                    vals[k] = v
                    keys[n_items] = v * _ITEM + RANK_PAIRS + 52 * j + i
                    n_items += 1
    keys[:n_items].sort()
    n = 0  # pairs placed
    n_groups = 0
    prev = -1
    for t in range(n_items):
        v, item = keys[t] // _ITEM, keys[t] % _ITEM
        first = n
        if item >= RANK_PAIRS:
            i, j = (item - RANK_PAIRS) % 52, (item - RANK_PAIRS) // 52
            k = j * (j - 1) // 2 + i
            order[n] = k
            lo[n] = i
            hi[n] = j
            n += 1
        else:
            for u in range(np.uint64(combo_start[item]), np.uint64(combo_start[item + 1])):
                a, b = combo_lo[u], combo_hi[u]
                if cost[a] + cost[b] < need:  # off the board, no flush
                    k = combo_pair[u]
                    vals[k] = v
                    order[n] = k
                    lo[n] = a
                    hi[n] = b
                    n += 1
        if n > first and v != prev:  # items of one value are adjacent: a new value opens a group
            starts[n_groups] = first
            n_groups += 1
            prev = v
    starts[n_groups] = n
    return n_groups


@kernel
def board_views(order, lo, hi, starts, n_groups, above, stronger, w_out, d_out):
    """Bob's view on one full board, from _rank_runout's groups (order, its cards lo and
    hi, starts): for each pair k off the board, w_out[k] = P(a random Alice hand disjoint
    from k and the board beats k) and d_out[k] = P(tie); 990 = C(45, 2) such hands.
    `above` (52 ints) and `stronger` (PAIRS ints) are scratch."""
    above[:] = 0  # above[c]: pairs in the stronger groups that hold card c
    total = 0
    for g in range(n_groups - 1, -1, -1):  # groups of equal value, strongest first
        a, b = np.uint64(starts[g]), np.uint64(starts[g + 1])  # unsigned: no index wraparound
        for t in range(a, b):  # pairs disjoint from order[t] that are strictly stronger
            stronger[t] = total - above[lo[t]] - above[hi[t]]
        for t in range(a, b):
            above[lo[t]] += 1
            above[hi[t]] += 1
        total += starts[g + 1] - starts[g]
        for t in range(a, b):  # disjoint pairs at least as strong, minus the stronger
            k = order[t]
            at_least = total - above[lo[t]] - above[hi[t]] + 1
            w_out[k] = stronger[t] * (1.0 / 990.0)
            d_out[k] = (at_least - stronger[t]) * (1.0 / 990.0)


@kernel
def street_stats(ev, hole, board, runouts, state, work):
    """Per holding h (pair index), averaged over board completions (the one board when it
    is full, else `runouts` uniform completions of the cards off the board):
    row 0, 1: Bob's view of h — P(a random Alice hand beats h), P(tie), Alice's hand drawn
    from the pairs disjoint from h and the board (completions that use h's cards skipped);
    row 2: Alice's real equity against h, win + tie / 2 (completions that use her cards or
    h's skipped). 0.5 where no completion counted. `work` = rank_workspace().
    Also per completion r (the river boards): river[0, r, h], river[1, r, h] = Bob's view of
    h on that full board (-1 and undefined where the board holds h's cards), river[2, r, h]
    = Alice's result against h (1, 0.5, 0; -1 where the completion uses her cards or h's)."""
    nb = board.shape[0]
    pool = np.empty(52 - nb, np.int64)
    m = 0
    for c in range(52):
        hit = False
        for b in board:
            hit = hit or b == c
        if not hit:
            pool[m] = c
            m += 1
    need = 5 - nb
    reps = 1 if need == 0 else runouts
    final = np.empty(5, np.int64)
    final[:nb] = board
    vals, order, starts, lo, hi, above, stronger = work[0], work[1], work[2], work[3], work[4], work[8], work[9]
    h0, h1 = hole[0], hole[1]
    alice = pair_index(h0, h1)
    mine = np.zeros(PAIRS, np.bool_)  # pairs that use Alice's cards cannot be Bob's
    for c in range(52):
        if c != h0:
            mine[pair_index(h0, c)] = True
        if c != h1:
            mine[pair_index(h1, c)] = True
    river = np.empty((3, reps, PAIRS))
    # sums over the completions that count for h (rows as in out) and their numbers; the
    # loops below add 0.0 for the others (exact: sums are >= 0) to stay branch-free
    out = np.zeros((3, PAIRS))
    sw, sd, so = out[0], out[1], out[2]
    seen = np.zeros(PAIRS)
    seen_alice = np.zeros(PAIRS)
    for rep in range(reps):
        for t in range(need):  # partial Fisher-Yates: a uniform completion in pool[:need]
            s = t + below(state, m - t)
            pool[t], pool[s] = pool[s], pool[t]
            final[nb + t] = pool[t]
        n_groups = _rank_runout(ev, final, work)
        alice_live = True
        for t in range(need):
            if final[nb + t] == h0 or final[nb + t] == h1:
                alice_live = False
        va = vals[alice]
        rw, rd, ro = river[0, rep], river[1, rep], river[2, rep]
        rw[:] = -1.0
        board_views(order, lo, hi, starts, n_groups, above, stronger, rw, rd)
        for k in range(PAIRS):
            ro[k] = 0.5 * ((va > vals[k]) + (va >= vals[k]))  # 1, 0.5 or 0
        for k in range(PAIRS):  # -1 where the board holds k's cards, or k or the board Alice's
            ro[k] = ro[k] if rw[k] >= 0.0 and not mine[k] and alice_live else -1.0
        for k in range(PAIRS):
            off = rw[k] >= 0.0  # k off the board (rd[k] is undefined otherwise)
            sw[k] += rw[k] if off else 0.0
            sd[k] += rd[k] if off else 0.0
            seen[k] += 1.0 if off else 0.0
        for k in range(PAIRS):
            so[k] += ro[k] if ro[k] >= 0.0 else 0.0
            seen_alice[k] += 1.0 if ro[k] >= 0.0 else 0.0
    for k in range(PAIRS):
        sw[k] = sw[k] / seen[k] if seen[k] > 0 else 0.5
        sd[k] = sd[k] / seen[k] if seen[k] > 0 else 0.5
        so[k] = so[k] / seen_alice[k] if seen_alice[k] > 0 else 0.5
    return out, river


# --------------------------------------------------------------------------------------
# Preflop tables: Alice's result against every holding, per canonical starting hand
# --------------------------------------------------------------------------------------
@kernel
def canonical(c0, c1):
    """(class 0..168, suit map) of a starting hand: the higher card's suit -> 0, the other
    card's suit -> 1 (0 if suited), the remaining suits in increasing order."""
    r0, s0, r1, s1 = c0 % 13, c0 // 13, c1 % 13, c1 // 13
    if r1 > r0 or (r1 == r0 and s1 < s0):
        r0, s0, r1, s1 = r1, s1, r0, s0
    smap = np.full(4, -1, np.int64)
    smap[s0] = 0
    nxt = 1
    if s1 != s0:
        smap[s1] = 1
        nxt = 2
    for s in range(4):
        if smap[s] < 0:
            smap[s] = nxt
            nxt += 1
    if s0 == s1:
        cls = r0 * 13 + r1
    else:
        cls = r1 * 13 + r0
    return cls, smap


@kernel
def class_representative(cls):
    hi, lo = cls // 13, cls % 13
    if hi > lo:
        return hi, lo  # suited: both suit 0
    return lo, 13 + hi  # pair or offsuit: suits 0 and 1


@kernel
def preflop_tables(ev, boards, state, cards, work):
    """win[c, k], tie[c, k]: Alice's showdown win/tie frequency with the representative of
    class c against Bob's pair k, over `boards` random boards (drawn from the 50 cards
    Alice does not hold; each pair counts the boards that miss it)."""
    win = np.zeros((CLASSES, PAIRS), np.float32)
    tie = np.zeros((CLASSES, PAIRS), np.float32)
    seen = np.zeros(PAIRS)
    vals, order = work[0], work[1]
    final = np.empty(5, np.int64)
    pool = np.empty(50, np.int64)
    for cls in range(CLASSES):
        a0, a1 = class_representative(cls)
        m = 0
        for c in range(52):
            if c != a0 and c != a1:
                pool[m] = c
                m += 1
        seen[:] = 0.0
        wins = np.zeros(PAIRS)
        ties = np.zeros(PAIRS)
        for _ in range(boards):
            for t in range(5):
                s = t + below(state, 50 - t)
                pool[t], pool[s] = pool[s], pool[t]
                final[t] = pool[t]
            n_groups = _rank_runout(ev, final, work)
            va = vals[pair_index(a0, a1)]
            for t in range(work[2][n_groups]):
                k = order[t]
                i, j = cards[k, 0], cards[k, 1]
                if i == a0 or i == a1 or j == a0 or j == a1:
                    continue
                seen[k] += 1.0
                if va > vals[k]:
                    wins[k] += 1.0
                elif va == vals[k]:
                    ties[k] += 1.0
        for k in range(PAIRS):
            if seen[k] > 0:
                win[cls, k] = wins[k] / seen[k]
                tie[cls, k] = ties[k] / seen[k]
    return win, tie


@kernel
def alice_preflop(win, tie, c0, c1, cards):
    """Alice's (win, tie) against every Bob pair, from the class tables through the suit map."""
    cls, smap = canonical(c0, c1)
    aw = np.zeros(PAIRS)
    at = np.zeros(PAIRS)
    for k in range(PAIRS):
        a, b = cards[k, 0], cards[k, 1]
        if a == c0 or a == c1 or b == c0 or b == c1:
            continue
        ka = smap[a // 13] * 13 + a % 13
        kb = smap[b // 13] * 13 + b % 13
        m = pair_index(ka, kb)
        aw[k] = win[cls, m]
        at[k] = tie[cls, m]
    return aw, at


@kernel
def bob_preflop(win, tie, cards):
    """Bob's preflop view per pair k: P(a random Alice hand beats k), P(tie) (exact average
    of the class tables over the 1225 Alice hands disjoint from k)."""
    bw = np.zeros(PAIRS)
    bd = np.zeros(PAIRS)
    for g in range(PAIRS):
        aw, at = alice_preflop(win, tie, cards[g, 0], cards[g, 1], cards)
        for k in range(PAIRS):
            bw[k] += aw[k]
            bd[k] += at[k]
    return bw / 1225.0, bd / 1225.0


# --------------------------------------------------------------------------------------
# Decision values
# --------------------------------------------------------------------------------------
@kernel
def subsample(active, m, state):
    """A uniform random m-subset of `active` (all of it when m >= its size), sorted."""
    n = active.shape[0]
    if m >= n:
        return active.copy()
    pool = np.arange(n)  # positions in active
    for t in range(m):
        s = t + below(state, n - t)
        pool[t], pool[s] = pool[s], pool[t]
    ascending = True
    for t in range(1, n):
        ascending = ascending and active[t - 1] < active[t]
    if not ascending:
        return np.sort(active[pool[:m]])
    # strictly ascending (as np.flatnonzero gives): reading the picked positions in order
    # sorts them, cheaper than np.sort
    picked = np.zeros(n, np.bool_)
    for t in range(m):
        picked[pool[t]] = True
    out = np.empty(m, active.dtype)
    u = 0
    for t in range(n):
        if picked[t]:
            out[u] = active[t]
            u += 1
    return out


@kernel
def nearest_cell(grid, w, d):
    i = min(max(int(w * grid + 0.5), 0), grid)
    j = min(max(int(d * grid + 0.5), 0), grid)
    return i, j


@kernel
def _cell_table(capacity):
    """An empty open-addressing table from grid cells to slots 0, 1, ... for up to
    `capacity` cells: (cell keys, -1 = free; their slots). Small, unlike arrays by cell."""
    size = 64
    while size < 2 * capacity:
        size *= 2
    return np.full(size, -1, np.int64), np.empty(size, np.int64)


@kernel
def _cell_slot(table, cell, n_slots):
    """(slot of `cell`, True if new): a new cell gets slot n_slots."""
    keys, slots = table
    mask = keys.shape[0] - 1
    h = (cell * 0x9E3779B1 >> 16) & mask
    while keys[h] >= 0 and keys[h] != cell:
        h = (h + 1) & mask
    if keys[h] >= 0:
        return slots[h], False
    keys[h] = cell
    slots[h] = n_slots
    return n_slots, True


@kernel
def river_values(bob, post, bob_w, bob_d, river, active, pot, stack, sizes, fractions, rollouts):
    """For CHECK (index 0) and each RAISE sizes[i] (index i + 1) now, the posterior-weighted
    chips Alice's river raise adds over checking the river down, averaged over the sampled
    completions: after a call (or the check) the posterior is post * P(call), the pot
    pot + 2x and the stack stack - x; on each completion Alice, who then sees the board but
    not Bob's cards, picks the pot fraction (or no raise) with the largest weighted gain.
    A holding with river result o gains (1 - o) * pot when Bob folds, y * (2o - 1) when he
    calls y. Weights are not normalised (same units as option_values' sums)."""
    grid = bob[0].shape[1] - 1
    cells = grid + 1
    reps = river.shape[1]
    n = active.shape[0]
    n_opt = sizes.shape[0] + 1
    n_frac = fractions.shape[0]
    out = np.zeros(n_opt)
    weight = np.empty(n)
    # holdings by their river view's grid cell, numbered in order of appearance (slot)
    table = _cell_table(reps * n)
    cell_i = np.empty(reps * n, np.int64)
    cell_j = np.empty(reps * n, np.int64)
    n_cells = 0
    cell = np.empty((reps, n), np.int64)
    for r in range(reps):
        for t in range(n):
            h = active[t]
            if river[2, r, h] < 0:
                cell[r, t] = -1
            else:
                i, j = nearest_cell(grid, river[0, r, h], river[1, r, h])
                c, new = _cell_slot(table, i * cells + j, n_cells)
                if new:
                    cell_i[c], cell_j[c] = i, j
                    n_cells += 1
                cell[r, t] = c
    now_i = np.empty(n, np.int64)
    now_j = np.empty(n, np.int64)
    for t in range(n):
        now_i[t], now_j[t] = nearest_cell(grid, bob_w[active[t]], bob_d[active[t]])
    lose = np.zeros(n_cells)
    edge = np.zeros(n_cells)
    seen = np.zeros(n_cells, np.bool_)
    occupied = np.empty(n, np.int64)
    logs = grid_logs(grid)
    everyone = np.arange(n)
    every_cell = np.arange(n_cells)
    now = np.empty(n)  # P(Bob calls the raise now), per holding
    ys = np.empty(n_frac, np.int64)  # per fraction: the raise on the river and P(Bob calls it) per cell
    chance = np.empty((n_frac, n_cells))
    for o in range(n_opt):
        x = 0 if o == 0 else sizes[o - 1]
        after = pot + 2 * x
        left = stack - x
        if left < 1:
            continue
        if x == 0:
            now[:] = 1.0
        else:
            cell_call_probs(bob, pot, x, rollouts, logs, now_i, now_j, everyone, now)
        for t in range(n):
            weight[t] = post[active[t]] * now[t]
        for f in range(n_frac):
            ys[f] = min(max(1, int(fractions[f] * after + 0.5)), left)
            cell_call_probs(bob, after, ys[f], rollouts, logs, cell_i, cell_j, every_cell, chance[f])
        total = 0.0
        for r in range(reps):
            n_occ = 0
            for t in range(n):
                c = cell[r, t]
                if c < 0 or weight[t] == 0.0:
                    continue
                if not seen[c]:
                    seen[c] = True
                    occupied[n_occ] = c
                    n_occ += 1
                res = river[2, r, active[t]]
                lose[c] += weight[t] * (1.0 - res)
                edge[c] += weight[t] * (2.0 * res - 1.0)
            best = 0.0
            for f in range(n_frac):
                g = 0.0
                for u in range(n_occ):
                    c = occupied[u]
                    p = chance[f, c]
                    g += (1.0 - p) * lose[c] * after + p * ys[f] * edge[c]
                best = max(best, g)
            total += best
            for u in range(n_occ):
                lose[occupied[u]] = 0.0
                edge[occupied[u]] = 0.0
                seen[occupied[u]] = False
        out[o] = total / reps
    return out


@kernel
def option_values(bob, post, bob_w, bob_d, alice_eq, river_extra, active, pot, stack, sizes, future,
                  rollouts):
    """Expected final profit of CHECK (index 0) and of RAISE sizes[i] (index i + 1), averaged
    over the active holdings weighted by `post`. After a check or a call with pot P and
    stack s left, a holding is worth its check-down eq * P, plus the value of raises on the
    streets before the river, future[0] * max(0, eq - future[2]) * min(s, future[1] * P);
    river_extra[option] (from river_values, same weights) adds the river raise.
    Holdings are pooled by Bob's equity cell (his call chance depends on nothing else)."""
    grid = bob[0].shape[1] - 1
    cells = grid + 1
    n_opt = sizes.shape[0] + 1
    n = active.shape[0]
    out = np.zeros(n_opt)
    # per cell, numbered in order of appearance (slot)
    table = _cell_table(n)
    cell_i = np.empty(n, np.int64)
    cell_j = np.empty(n, np.int64)
    n_cells = 0
    mass = np.zeros(n)
    eq = np.zeros(n)
    mid = np.zeros(n)
    occupied = np.empty(n, np.int64)
    n_occ = 0
    total = 0.0
    for h in active:
        p = post[h]
        i, j = nearest_cell(grid, bob_w[h], bob_d[h])
        c, new = _cell_slot(table, i * cells + j, n_cells)
        if new:
            cell_i[c], cell_j[c] = i, j
            n_cells += 1
        if mass[c] == 0.0:
            occupied[n_occ] = c
            n_occ += 1
        mass[c] += p
        eq[c] += p * alice_eq[h]
        mid[c] += p * max(0.0, alice_eq[h] - future[2]) * future[0]
        total += p
    if total <= 0.0:
        return out + (stack - 100)
    logs = grid_logs(grid)
    chance = np.empty(n_cells)  # P(Bob calls), per cell
    for o in range(n_opt):
        x = 0 if o == 0 else sizes[o - 1]
        after = pot + 2 * x
        left = stack - x
        later = min(left, future[1] * after)
        if x > 0:
            cell_call_probs(bob, pot, x, rollouts, logs, cell_i, cell_j, occupied[:n_occ], chance)
        acc = 0.0
        for t in range(n_occ):
            c = occupied[t]
            p = 1.0 if x == 0 else chance[c]
            called = eq[c] * after - mass[c] * x + mid[c] * later
            acc += (1.0 - p) * mass[c] * pot + p * called
        out[o] = (acc + river_extra[o]) / total
    return out + (stack - 100)


@kernel
def raise_sizes(fractions, pot, stack, allin):
    """Distinct raise amounts: the pot fractions rounded and clipped to [1, stack], plus
    all-in when `allin`; ascending."""
    out = np.empty(fractions.shape[0] + 1, np.int64)
    n = 0
    for f in fractions:
        out[n] = min(stack, max(1, int(f * pot + 0.5)))
        n += 1
    if allin:
        out[n] = stack
        n += 1
    return np.unique(out[:n])


@kernel
def decide(bob, post, bob_w, bob_d, alice_eq, river, pot, stack, sizes, future, fractions, candidates,
           max_holdings, prune, state, rollouts):
    """One postflop decision: (raise size or 0 for CHECK, the active holdings).

    Holdings below prune * the largest posterior are dropped; the decision uses a random
    subset of at most max_holdings of the rest. Every option gets its myopic value
    (option_values); CHECK and the `candidates` best raises also get the river lookahead
    (river_values) when `river` has completions (it is empty on the river)."""
    top = post.max()
    active = np.flatnonzero(post > prune * top) if top > 0 else np.flatnonzero(post > 0)
    if active.shape[0] == 0 or sizes.shape[0] == 0:
        return 0, active
    some = subsample(active, max_holdings, state)
    values = option_values(bob, post, bob_w, bob_d, alice_eq, np.zeros(sizes.shape[0] + 1), some, pot, stack,
                           sizes, future, rollouts)
    if river.shape[1] > 0:
        picks = np.sort(np.argsort(-values[1:])[:candidates])
        extra = river_values(bob, post, bob_w, bob_d, river, some, pot, stack, sizes[picks], fractions,
                             rollouts)
        mass = 0.0
        for h in some:
            mass += post[h]
        best, best_value = 0, values[0] + extra[0] / mass
        for i in range(picks.shape[0]):
            v = values[picks[i] + 1] + extra[i + 1] / mass
            if v > best_value:
                best, best_value = picks[i] + 1, v
    else:
        best = int(np.argmax(values))
    return (0 if best == 0 else sizes[best - 1]), active
