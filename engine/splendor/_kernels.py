"""Numba Splendor: the whole game in one int64 array, move generation, apply, random playouts.

Same rules and action codes as engine/splendor/state.py (the tests play the same seeded
games in both and compare every state). Layout of a state array ``s``:

  N ROUND SEAT OVER | BOARD[6] | FACE[12] (level*4+slot, 0 = empty) | PTR[3] (next pile index)
  DECK[90] (each level's full order: 40, 30, 20 ids; the pile is DECK[level][PTR:])
  NOB[5] (board nobles in draw order, 0 = taken) | per player (stride 21): CH[6] BON[5] PTS
  NCARDS RES[3] SEC[3] NRES NNOB
"""

import numpy as np

from engine.core._rng import below, shuffle_prefix
from engine.core.jit import kernel
from engine.splendor.rules import CARD_BONUS, CARD_COST, CARD_POINTS, NOBLE_REQ

N, ROUND, SEAT, OVER = 0, 1, 2, 3
BOARD = 4
FACE = 10
PTR = 22
DECK = 25
NOB = 115
PL = 120
PSTRIDE = 21
CH, BON, PTS, NCARDS, RES, SEC, NRES, NNOB = 0, 6, 11, 12, 13, 16, 19, 20
SIZE = PL + 4 * PSTRIDE

LEVEL_OFF = np.array([DECK, DECK + 40, DECK + 70], dtype=np.int64)
LEVEL_LEN = np.array([40, 30, 20], dtype=np.int64)
LEVEL_LO = np.array([1, 41, 71], dtype=np.int64)
GEM_SUPPLY = np.array([0, 4, 4, 5, 7], dtype=np.int64)
NOBLES_IN_PLAY = np.array([0, 2, 3, 4, 5], dtype=np.int64)
WIN_POINTS = 15
MAX_ROUNDS = 100
HAND_LIMIT = 10

# Take-different subsets in the order of state.TAKE_SETS (size 0, 1, 2, 3; lexicographic).
_SETS = [()] + [(a,) for a in range(5)] + [(a, b) for a in range(5) for b in range(a + 1, 5)]
_SETS += [(a, b, c) for a in range(5) for b in range(a + 1, 5) for c in range(b + 1, 5)]
TAKE_SET = np.array([list(t) + [-1] * (3 - len(t)) for t in _SETS], dtype=np.int64)
TAKE_SIZE = np.array([len(t) for t in _SETS], dtype=np.int64)
TAKE_MASK = np.array([sum(1 << c for c in t) for t in _SETS], dtype=np.int64)
C_TWO, C_RES_UP, C_RES_BLIND, C_BUY_UP, C_BUY_RES, NUM_CODES = 26, 31, 43, 46, 58, 61


@kernel
def deal(s, rng, players, scratch):
    """Fresh game into ``s``: the same stream calls as state.deal_from_key."""
    s[:] = 0
    s[N] = players
    s[ROUND] = 1
    for c in range(5):
        s[BOARD + c] = GEM_SUPPLY[players]
    s[BOARD + 5] = 5
    for lv in range(3):
        off, n = LEVEL_OFF[lv], LEVEL_LEN[lv]
        for i in range(n):
            s[off + i] = LEVEL_LO[lv] + i
        shuffle_prefix(rng, s[off:off + n], n, n)
        for k in range(4):
            s[FACE + lv * 4 + k] = s[off + k]
        s[PTR + lv] = 4
    for i in range(10):
        scratch[i] = i + 1
    count = NOBLES_IN_PLAY[players]
    shuffle_prefix(rng, scratch, 10, count)
    for i in range(count):
        s[NOB + i] = scratch[i]


@kernel(inline="always")
def player_base(s, seat):
    return PL + seat * PSTRIDE


@kernel
def shortfall(s, p, card):
    """Gold the player at base ``p`` needs for the card."""
    short = 0
    for c in range(5):
        need = CARD_COST[card, c] - s[p + BON + c] - s[p + CH + c]
        if need > 0:
            short += need
    return short


@kernel
def legal_codes(s, out):
    """Writes the legal action codes ascending into ``out``; returns how many."""
    p = player_base(s, s[SEAT])
    n = 0
    empty = 0  # bit c set when the board has no chip of colour c
    for c in range(5):
        if s[BOARD + c] == 0:
            empty |= 1 << c
    for code in range(C_TWO):
        if TAKE_MASK[code] & empty == 0:
            out[n] = code
            n += 1
    for c in range(5):
        if s[BOARD + c] >= 4:
            out[n] = C_TWO + c
            n += 1
    if s[p + NRES] < 3:
        for i in range(12):
            if s[FACE + i] != 0:
                out[n] = C_RES_UP + i
                n += 1
        for lv in range(3):
            if s[PTR + lv] < LEVEL_LEN[lv]:
                out[n] = C_RES_BLIND + lv
                n += 1
    gold = s[p + CH + 5]
    for i in range(12):
        card = s[FACE + i]
        if card != 0 and shortfall(s, p, card) <= gold:
            out[n] = C_BUY_UP + i
            n += 1
    for r in range(s[p + NRES]):
        if shortfall(s, p, s[p + RES + r]) <= gold:
            out[n] = C_BUY_RES + r
            n += 1
    return n


@kernel
def draw(s, lv):
    """The top card of a level's pile (0 if empty), removed from the pile."""
    ptr = s[PTR + lv]
    if ptr >= LEVEL_LEN[lv]:
        return 0
    s[PTR + lv] = ptr + 1
    return s[LEVEL_OFF[lv] + ptr]


@kernel
def take_reserved(s, p, card, secret):
    r = s[p + NRES]
    s[p + RES + r] = card
    s[p + SEC + r] = secret
    s[p + NRES] = r + 1
    if s[BOARD + 5] > 0:
        s[BOARD + 5] -= 1
        s[p + CH + 5] += 1


@kernel
def buy(s, p, card, paid):
    """Pays bonus first, then that colour's chips, then gold; fills ``paid[6]``."""
    paid[5] = 0
    for c in range(5):
        need = CARD_COST[card, c] - s[p + BON + c]
        if need < 0:
            need = 0
        pay = min(need, s[p + CH + c])
        paid[c] = pay
        paid[5] += need - pay
    for c in range(6):
        s[p + CH + c] -= paid[c]
        s[BOARD + c] += paid[c]
    s[p + BON + CARD_BONUS[card]] += 1
    s[p + PTS] += CARD_POINTS[card]
    s[p + NCARDS] += 1


@kernel
def apply_action(s, code, paid):
    """The action part of a turn (no returns, no noble); ``paid`` gets a buy's payment."""
    p = player_base(s, s[SEAT])
    if code < C_TWO:
        for j in range(TAKE_SIZE[code]):
            c = TAKE_SET[code, j]
            s[p + CH + c] += 1
            s[BOARD + c] -= 1
    elif code < C_RES_UP:
        c = code - C_TWO
        s[p + CH + c] += 2
        s[BOARD + c] -= 2
    elif code < C_RES_BLIND:
        i = code - C_RES_UP
        card = s[FACE + i]
        s[FACE + i] = draw(s, i // 4)
        take_reserved(s, p, card, 0)
    elif code < C_BUY_UP:
        take_reserved(s, p, draw(s, code - C_RES_BLIND), 1)
    elif code < C_BUY_RES:
        i = code - C_BUY_UP
        card = s[FACE + i]
        s[FACE + i] = draw(s, i // 4)
        buy(s, p, card, paid)
    else:
        r = code - C_BUY_RES
        card = s[p + RES + r]
        for k in range(r, s[p + NRES] - 1):
            s[p + RES + k] = s[p + RES + k + 1]
            s[p + SEC + k] = s[p + SEC + k + 1]
        s[p + NRES] -= 1
        s[p + RES + s[p + NRES]] = 0
        s[p + SEC + s[p + NRES]] = 0
        buy(s, p, card, paid)


@kernel
def chip_count(s, p):
    total = 0
    for c in range(6):
        total += s[p + CH + c]
    return total


@kernel
def return_chip(s, colour):
    p = player_base(s, s[SEAT])
    s[p + CH + colour] -= 1
    s[BOARD + colour] += 1


@kernel
def random_returns(s, rng):
    """Back to ten chips, each return uniform over the gem colours held (as state.random_move)."""
    p = player_base(s, s[SEAT])
    while chip_count(s, p) > HAND_LIMIT:
        held = 0
        for c in range(5):
            if s[p + CH + c] > 0:
                held += 1
        k = below(rng, held)
        for c in range(5):
            if s[p + CH + c] > 0:
                if k == 0:
                    return_chip(s, c)
                    break
                k -= 1


@kernel
def finish_turn(s):
    """Noble check (first qualifying in board order, one at most), then the next seat/round."""
    noble = 0
    p = player_base(s, s[SEAT])
    for k in range(5):
        nb = s[NOB + k]
        if nb == 0:
            continue
        ok = True
        for c in range(5):
            if NOBLE_REQ[nb, c] > s[p + BON + c]:
                ok = False
                break
        if ok:
            s[NOB + k] = 0
            s[p + PTS] += 3
            s[p + NNOB] += 1
            noble = nb
            break
    pass_turn(s)
    return noble


@kernel
def pass_turn(s):
    s[SEAT] += 1
    if s[SEAT] == s[N]:
        s[SEAT] = 0
        s[ROUND] += 1
        done = s[ROUND] > MAX_ROUNDS
        for seat in range(s[N]):
            if s[player_base(s, seat) + PTS] >= WIN_POINTS:
                done = True
        if done:
            s[OVER] = 1


@kernel
def random_turn(s, rng, codes, paid):
    n = legal_codes(s, codes)
    apply_action(s, codes[below(rng, n)], paid)
    random_returns(s, rng)
    return finish_turn(s)


@kernel
def random_playout(s, rng, codes, paid):
    """Random legal moves to the end; returns the number of turns played."""
    turns = 0
    while s[OVER] == 0:
        random_turn(s, rng, codes, paid)
        turns += 1
    return turns


@kernel
def random_games(deal_keys, move_keys, players, scores, turns):
    """Plays one random game per key pair; ``scores[g, seat]`` and ``turns[g]`` get the results."""
    s = np.zeros(SIZE, dtype=np.int64)
    codes = np.zeros(NUM_CODES, dtype=np.int64)
    paid = np.zeros(6, dtype=np.int64)
    scratch = np.zeros(10, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    for g in range(len(deal_keys)):
        rng[0] = deal_keys[g]
        deal(s, rng, players, scratch)
        rng[0] = move_keys[g]
        turns[g] = random_playout(s, rng, codes, paid)
        for seat in range(players):
            scores[g, seat] = s[player_base(s, seat) + PTS]
