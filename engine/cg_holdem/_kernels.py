"""Numba kernels for CodinGame Hold'em: Monte Carlo equity and preflop class equities (bots),
the referee's decks (Java SHA1PRNG) and showdown settlement (the judge).

The two games rank hands identically (standard categories, kickers by rank, wheel lowest,
suits never break ties), so the shared evaluator engine/core/hand_eval.py serves both.
Randomness comes from a SplitMix64 stream the caller owns (engine/core/_rng.py).
"""

import numpy as np

from engine.core._rng import GOLDEN, below, mix64, shuffle_prefix
from engine.core.hand_eval import CARD_BIT, CARD_KEY, SUIT_BIAS, hand_value7, value_from_parts
from engine.core.jit import kernel


@kernel
def equity_vs_random(cards, opponents, samples, stream):
    """My share of the pot against ``opponents`` uniformly random hands: wins count 1, a
    k-way tie 1/k. cards: my 2 hole cards then the 0-5 dealt board cards (one int array, so
    a decision costs one conversion); stream: SplitMix64.
    Each sample is the prefix of a Fisher-Yates shuffle of the unseen cards (``below`` per
    pick): first the missing board cards, then two cards per opponent. Hands are valued
    from additive parts, so the board's share is summed once per sample for every player."""
    used = np.zeros(52, np.bool_)
    board_key = SUIT_BIAS
    board_bits = np.uint64(0)
    for i in range(len(cards)):
        used[cards[i]] = True
        if i >= 2:
            board_key += CARD_KEY[cards[i]]
            board_bits |= CARD_BIT[cards[i]]
    rest = np.empty(52, np.int64)
    n_rest = 0
    for c in range(52):
        if not used[c]:
            rest[n_rest] = c
            n_rest += 1
    need = 7 - len(cards)
    draw = min(need + 2 * opponents, n_rest - 1)
    my_key = CARD_KEY[cards[0]] + CARD_KEY[cards[1]]
    my_bits = CARD_BIT[cards[0]] | CARD_BIT[cards[1]]
    state = stream[0]  # kept in a register; the same draws as shuffle_prefix(stream, ...)
    share = 0.0
    for _ in range(samples):
        for i in range(draw):
            state += GOLDEN
            j = i + np.int64((mix64(state) >> np.uint64(32)) * np.uint64(n_rest - i) >> np.uint64(32))
            t = rest[i]
            rest[i] = rest[j]
            rest[j] = t
        key = board_key
        bits = board_bits
        for i in range(need):
            key += CARD_KEY[rest[i]]
            bits |= CARD_BIT[rest[i]]
        mine = value_from_parts(key + my_key, bits | my_bits)
        best = True
        ties = 1
        for k in range(opponents):
            a = rest[need + 2 * k]
            b = rest[need + 2 * k + 1]
            v = value_from_parts(key + CARD_KEY[a] + CARD_KEY[b], bits | CARD_BIT[a] | CARD_BIT[b])
            if v > mine:
                best = False
                break
            if v == mine:
                ties += 1
        if best:
            share += 1.0 / ties
    stream[0] = state
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


# -- the referee's decks: Java SHA1PRNG (docs/rules/cg_holdem.md#deck) ---------------------
# A generator is an int64 array of PRNG_SIZE: the 20-byte state, then the current 20-byte
# output block, then how many bytes of that block are used (20 = none left). The Python
# class in sha1prng.py is the reference (hashlib-based) and seeds it.
PRNG_SIZE = 41
_BLOCK = 20
_USED = 40
_MASK32 = 0xFFFFFFFF


@kernel(inline="always")
def _rotl32(x, k):
    return ((x << k) | (x >> (32 - k))) & _MASK32


@kernel
def _sha1_of_20(message, at, out, out_at, w):
    """SHA-1 of the 20 bytes message[at:at+20] (one padded block) into out[out_at:out_at+20].
    w: 80-word scratch."""
    for i in range(5):
        j = at + 4 * i
        w[i] = (message[j] << 24) | (message[j + 1] << 16) | (message[j + 2] << 8) | message[j + 3]
    w[5] = 0x80000000  # padding: a 1 bit, zeros, then the length in bits (160)
    for i in range(6, 15):
        w[i] = 0
    w[15] = 160
    for i in range(16, 80):
        w[i] = _rotl32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1)
    h = (0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0)
    a, b, c, d, e = h
    for i in range(20):  # four kinds of rounds, 20 each: no branch inside a loop
        t = (_rotl32(a, 5) + ((b & c) | (~b & d)) + 0x5A827999 + e + w[i]) & _MASK32
        e, d, c, b, a = d, c, _rotl32(b, 30), a, t
    for i in range(20, 40):
        t = (_rotl32(a, 5) + (b ^ c ^ d) + 0x6ED9EBA1 + e + w[i]) & _MASK32
        e, d, c, b, a = d, c, _rotl32(b, 30), a, t
    for i in range(40, 60):
        t = (_rotl32(a, 5) + ((b & c) | (b & d) | (c & d)) + 0x8F1BBCDC + e + w[i]) & _MASK32
        e, d, c, b, a = d, c, _rotl32(b, 30), a, t
    for i in range(60, 80):
        t = (_rotl32(a, 5) + (b ^ c ^ d) + 0xCA62C1D6 + e + w[i]) & _MASK32
        e, d, c, b, a = d, c, _rotl32(b, 30), a, t
    words = ((h[0] + a) & _MASK32, (h[1] + b) & _MASK32, (h[2] + c) & _MASK32,
             (h[3] + d) & _MASK32, (h[4] + e) & _MASK32)
    for i in range(5):
        for k in range(4):
            out[out_at + 4 * i + k] = (words[i] >> (24 - 8 * k)) & 0xFF


@kernel
def _refill(prng, w):
    """Next output block = SHA1(state); then state += block + 1 over Java's signed bytes."""
    _sha1_of_20(prng, 0, prng, _BLOCK, w)
    carry = 1
    changed = False
    for i in range(_BLOCK):
        old = prng[i] - 256 if prng[i] >= 128 else prng[i]
        add = prng[_BLOCK + i] - 256 if prng[_BLOCK + i] >= 128 else prng[_BLOCK + i]
        v = old + add + carry
        new = v & 0xFF
        changed = changed or new != prng[i]
        prng[i] = new
        carry = v >> 8  # arithmetic shift, as Java's int
    if not changed:
        prng[0] = (prng[0] + 1) & 0xFF
    prng[_USED] = 0


@kernel
def _next31(prng, w):
    """Java next(31): four stream bytes, big-endian, shifted right by one."""
    v = 0
    for _ in range(4):
        if prng[_USED] == _BLOCK:
            _refill(prng, w)
        v = (v << 8) | prng[_BLOCK + prng[_USED]]
        prng[_USED] += 1
    return v >> 1


@kernel
def _next_int(prng, bound, w):
    """java.util.Random.nextInt(bound) on this stream."""
    r = _next31(prng, w)
    m = bound - 1
    if bound & m == 0:
        return (bound * r) >> 31
    u = r
    r = u % bound
    while u - r + m >= 1 << 31:  # where Java's int overflows: reject and draw again
        u = _next31(prng, w)
        r = u % bound
    return r


@kernel
def next_deck(prng, canonical, deck):
    """The next hand's deck in dealing order: Collections.shuffle of the canonical deck,
    then a cut (rotate left by nextInt(52)). Writes deck[0:52], returns the cut."""
    w = np.empty(80, np.int64)
    shuffled = canonical.copy()
    for i in range(52, 1, -1):
        j = _next_int(prng, i, w)
        t = shuffled[i - 1]
        shuffled[i - 1] = shuffled[j]
        shuffled[j] = t
    cut = _next_int(prng, 52, w)
    for i in range(52):
        deck[i] = shuffled[(cut + i) % 52]
    return cut


# -- showdown settlement (docs/rules/cg_holdem.md#settlement) ---------------------------
@kernel
def showdown_winnings(totals, folded, hole, board, dealer):
    """Chips each seat receives at a showdown, settle.pay_layers' rule with the hands
    valued here: totals = chips put in, folded = 1/0, hole = 2 cards per seat (flat),
    board = the 5 cards. Each layer (the smallest remaining stake of a contender, taken
    from every seat) goes to its best hands, odd chips to the first winner after the dealer;
    what folded seats have left once no contender is left goes back to them."""
    n = len(totals)
    values = np.zeros(n, np.int64)
    for s in range(n):
        if not folded[s]:
            values[s] = hand_value7(hole[2 * s], hole[2 * s + 1], board[0], board[1], board[2], board[3], board[4])
    remaining = totals.copy()
    won = np.zeros(n, np.int64)
    while True:
        m = -1
        for s in range(n):
            if not folded[s] and remaining[s] > 0 and (m < 0 or remaining[s] < m):
                m = remaining[s]
        if m < 0:
            break
        best = -1
        for s in range(n):
            if not folded[s] and remaining[s] > 0 and values[s] > best:
                best = values[s]
        winners = 0
        for s in range(n):
            if not folded[s] and remaining[s] > 0 and values[s] == best:
                winners += 1
        layer = 0
        for s in range(n):
            take = min(remaining[s], m)
            layer += take
        share = layer // winners
        odd = layer - share * winners
        first = -1
        for k in range(1, n + 1):
            s = (dealer + k) % n
            if not folded[s] and remaining[s] > 0 and values[s] == best:
                won[s] += share
                if first < 0:
                    first = s
        won[first] += odd
        for s in range(n):
            remaining[s] -= min(remaining[s], m)
    for s in range(n):
        won[s] += remaining[s]
    return won
