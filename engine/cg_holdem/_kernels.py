"""Numba kernels for CodinGame Hold'em bots: Monte Carlo equity and preflop class equities.

The two games rank hands identically (standard categories, kickers by rank, wheel lowest,
suits never break ties), so the Hold'em Training evaluator ``hand_value7`` is reused here.
Randomness comes from a SplitMix64 stream the caller owns (engine/core/_rng.py).
"""

import numpy as np

from engine.core._rng import below, shuffle_prefix
from engine.core.jit import kernel
from engine.holdem_training._kernels import hand_value7


@kernel
def equity_vs_random(hole, board, opponents, samples, state):
    """My share of the pot against ``opponents`` uniformly random hands: wins count 1, a
    k-way tie 1/k. hole: 2 cards, board: 0-5 dealt cards (int arrays)."""
    used = np.zeros(52, np.bool_)
    used[hole[0]] = True
    used[hole[1]] = True
    for c in board:
        used[c] = True
    rest = np.empty(52, np.int64)
    n_rest = 0
    for c in range(52):
        if not used[c]:
            rest[n_rest] = c
            n_rest += 1
    need = 5 - len(board)
    draw = need + 2 * opponents
    full = np.empty(5, np.int64)
    for i in range(len(board)):
        full[i] = board[i]
    share = 0.0
    for _ in range(samples):
        shuffle_prefix(state, rest, n_rest, draw)  # rest[:draw] is a random draw
        for i in range(need):
            full[5 - need + i] = rest[i]
        mine = hand_value7(hole[0], hole[1], full[0], full[1], full[2], full[3], full[4])
        best = True
        ties = 1
        for k in range(opponents):
            a = rest[need + 2 * k]
            b = rest[need + 2 * k + 1]
            v = hand_value7(a, b, full[0], full[1], full[2], full[3], full[4])
            if v > mine:
                best = False
                break
            if v == mine:
                ties += 1
        if best:
            share += 1.0 / ties
    return share / samples


@kernel
def class_combo(cls, pick):
    """The pick-th card pair (0-based) of preflop class cls = a * 13 + b: a == b a pair
    (6 combos), a > b suited (4), a < b offsuit (12). Ranks 0..12 = 2..A."""
    a = cls // 13
    b = cls % 13
    if a == b:
        s1 = 0
        s2 = 1
        k = 0
        for x in range(4):
            for y in range(x + 1, 4):
                if k == pick:
                    s1 = x
                    s2 = y
                k += 1
        return s1 * 13 + a, s2 * 13 + a
    if a > b:
        return pick * 13 + a, pick * 13 + b
    s1 = pick // 3
    s2 = pick % 3
    if s2 >= s1:
        s2 += 1
    return s1 * 13 + b, s2 * 13 + a


@kernel
def combo_count(cls):
    a = cls // 13
    b = cls % 13
    return 6 if a == b else (4 if a > b else 12)


@kernel
def class_equity_matrix(samples, state):
    """eq[i, j] = all-in equity of class i against class j (ties half), by sampling
    non-overlapping combos of each class and a random board."""
    eq = np.zeros((169, 169))
    used = np.zeros(52, np.bool_)
    rest = np.empty(52, np.int64)
    for i in range(169):
        for j in range(i, 169):
            total = 0.0
            done = 0
            while done < samples:
                a0, a1 = class_combo(i, below(state, combo_count(i)))
                b0, b1 = class_combo(j, below(state, combo_count(j)))
                if b0 == a0 or b0 == a1 or b1 == a0 or b1 == a1:
                    continue
                used[:] = False
                used[a0] = True
                used[a1] = True
                used[b0] = True
                used[b1] = True
                n = 0
                for c in range(52):
                    if not used[c]:
                        rest[n] = c
                        n += 1
                shuffle_prefix(state, rest, n, 5)
                va = hand_value7(a0, a1, rest[0], rest[1], rest[2], rest[3], rest[4])
                vb = hand_value7(b0, b1, rest[0], rest[1], rest[2], rest[3], rest[4])
                total += 1.0 if va > vb else (0.5 if va == vb else 0.0)
                done += 1
            eq[i, j] = total / samples
            eq[j, i] = 1.0 - eq[i, j]
    return eq
