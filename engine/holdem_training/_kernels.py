"""Numba kernels for Hold'em Training: the 7-card evaluator, Bob's call rule, Monte Carlo equity.

Evaluator design (why it is fast on random hands): every card adds one precomputed 64-bit
key, so a hand is 7 loads and 6 adds, with no branches an unlucky deal can mispredict.
The key holds four suit counters in its low 16 bits (biased by 3 so bit 3 of a nibble
means "5+ cards of that suit") and, above them, the rank multiset written in base 5
(sum of 5**rank, unique per multiset). A flush (3% of hands) is scored from its suit's
13-bit rank mask; everything else goes through a perfect hash (hash and displace) of the
base-5 key into a 64K table of strength ordinals. Ordinals: 1..4824 (the classes a best
5 of 7 cards can take), higher is better, equal iff the contest calls the hands a tie.
"""

import hashlib
import os
from pathlib import Path

import numpy as np

from engine.core import cache_file
from engine.core._rng import GOLDEN, derive_key, mix64, shuffle_prefix
from engine.core.jit import kernel

# Hand categories (the ordinal's coarse class), weakest first.
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

SUIT_BIAS = np.uint64(0x3333)
_FLUSH_BITS = np.uint64(0x8888)
_BUCKET_BITS = 13
_SLOT_BITS = 16
_SLOT_MASK = (1 << _SLOT_BITS) - 1
_LOW32 = np.uint64(0xFFFFFFFF)


# --------------------------------------------------------------------------------------
# Table building (runs once per process; the builders are cached numba code)
# --------------------------------------------------------------------------------------
@kernel
def _straight_high(present):
    """Highest straight in a 13-bit rank mask (rank of its top card; the wheel is 3) or -1."""
    for hi in range(12, 3, -1):
        run = 0x1F << (hi - 4)
        if present & run == run:
            return hi
    wheel = 0x100F  # A,2,3,4,5
    if present & wheel == wheel:
        return 3
    return -1


@kernel
def _top_ranks(mask, n, out, at):
    """Write the n highest ranks of mask into out[at:], highest first; returns the new end."""
    for r in range(12, -1, -1):
        if n == 0:
            break
        if mask >> r & 1:
            out[at] = r
            at += 1
            n -= 1
    return at


@kernel
def _scaled(category, ranks, n):
    """category and up to five ranks (tie-break order) as one comparable integer."""
    v = category
    for i in range(5):
        v = v * 16 + (ranks[i] if i < n else 0)
    return v


@kernel
def _pattern_value(counts):
    """Comparable strength of a non-flush 7-card hand from its rank counts (ranks 0..12)."""
    ranks = np.zeros(5, np.int64)
    present = 0
    quads = 0
    trips = 0
    pairs = 0
    for r in range(13):
        c = counts[r]
        if c:
            present |= 1 << r
        if c == 4:
            quads |= 1 << r
        elif c == 3:
            trips |= 1 << r
        elif c == 2:
            pairs |= 1 << r
    if quads:
        n = _top_ranks(quads, 1, ranks, 0)
        n = _top_ranks(present & ~quads, 1, ranks, n)
        return _scaled(QUADS, ranks, n)
    if trips and (pairs or trips & (trips - 1)):
        n = _top_ranks(trips, 1, ranks, 0)
        n = _top_ranks((trips | pairs) & ~(1 << ranks[0]), 1, ranks, n)
        return _scaled(FULL_HOUSE, ranks, n)
    hi = _straight_high(present)
    if hi >= 0:
        ranks[0] = hi
        return _scaled(STRAIGHT, ranks, 1)
    if trips:
        n = _top_ranks(trips, 1, ranks, 0)
        n = _top_ranks(present & ~trips, 2, ranks, n)
        return _scaled(TRIPS, ranks, n)
    if pairs & (pairs - 1):
        n = _top_ranks(pairs, 2, ranks, 0)
        n = _top_ranks(present & ~((1 << ranks[0]) | (1 << ranks[1])), 1, ranks, n)
        return _scaled(TWO_PAIR, ranks, n)
    if pairs:
        n = _top_ranks(pairs, 1, ranks, 0)
        n = _top_ranks(present & ~pairs, 3, ranks, n)
        return _scaled(ONE_PAIR, ranks, n)
    n = _top_ranks(present, 5, ranks, 0)
    return _scaled(HIGH_CARD, ranks, n)


@kernel
def _flush_value(mask):
    """Comparable strength of the best hand inside one suit's rank mask (5+ bits)."""
    ranks = np.zeros(5, np.int64)
    hi = _straight_high(mask)
    if hi >= 0:
        ranks[0] = hi
        return _scaled(STRAIGHT_FLUSH, ranks, 1)
    n = _top_ranks(mask, 5, ranks, 0)
    return _scaled(FLUSH, ranks, n)


@kernel
def _rank_patterns():
    """All rank multisets of 7 cards (no rank more than 4 times): base-5 keys and values."""
    keys = np.zeros(49205, np.uint64)
    values = np.zeros(49205, np.int64)
    counts = np.zeros(13, np.int64)
    pow5 = np.ones(13, np.uint64)
    for r in range(1, 13):
        pow5[r] = pow5[r - 1] * np.uint64(5)
    n = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        for f in range(e, 13):
                            for g in range(f, 13):
                                counts[:] = 0
                                for r in (a, b, c, d, e, f, g):
                                    counts[r] += 1
                                if counts.max() > 4:
                                    continue
                                key = np.uint64(0)
                                for r in range(13):
                                    key += np.uint64(counts[r]) * pow5[r]
                                keys[n] = key
                                values[n] = _pattern_value(counts)
                                n += 1
    return keys, values


@kernel
def _hash_parts(key, multiplier):
    h = key * multiplier
    bucket = np.int64(h >> np.uint64(64 - _BUCKET_BITS))
    slot = np.int64((h >> np.uint64(64 - _BUCKET_BITS - _SLOT_BITS)) & np.uint64(_SLOT_MASK))
    return bucket, slot


@kernel
def _build_perfect_hash(keys, multiplier):
    """Hash-and-displace: a displacement per bucket so all keys land in distinct slots.
    Returns (displacements, slot of each key) or an empty array if this multiplier fails."""
    n_buckets = 1 << _BUCKET_BITS
    n_slots = 1 << _SLOT_BITS
    bucket_of = np.empty(len(keys), np.int64)
    slot_of = np.empty(len(keys), np.int64)
    sizes = np.zeros(n_buckets, np.int64)
    for i in range(len(keys)):
        bucket_of[i], slot_of[i] = _hash_parts(keys[i], multiplier)
        sizes[bucket_of[i]] += 1
    order = np.argsort(bucket_of, kind="mergesort")
    starts = np.zeros(n_buckets + 1, np.int64)
    for b in range(n_buckets):
        starts[b + 1] = starts[b] + sizes[b]
    taken = np.zeros(n_slots, np.bool_)
    disp = np.zeros(n_buckets, np.uint16)
    final = np.empty(len(keys), np.int64)
    for b in np.argsort(-sizes, kind="mergesort"):
        members = order[starts[b]:starts[b + 1]]
        if len(members) == 0:
            break
        placed = False
        for d in range(n_slots):
            ok = True
            for i in range(len(members)):
                s = (slot_of[members[i]] + d) & _SLOT_MASK
                if taken[s]:
                    ok = False
                    break
                for j in range(i):  # two members on one slot can never be separated
                    if (slot_of[members[j]] + d) & _SLOT_MASK == s:
                        return np.empty(0, np.uint16), final
            if ok:
                for i in range(len(members)):
                    s = (slot_of[members[i]] + d) & _SLOT_MASK
                    taken[s] = True
                    final[members[i]] = s
                disp[b] = d
                placed = True
                break
        if not placed:
            return np.empty(0, np.uint16), final
    return disp, final


def _build_tables():
    keys, pattern_values = _rank_patterns()
    flush_values = np.array([_flush_value(m) if bin(m).count("1") >= 5 else -1 for m in range(8192)])
    distinct = np.unique(np.concatenate([pattern_values, flush_values[flush_values >= 0]]))
    ordinal = {int(v): i + 1 for i, v in enumerate(distinct)}  # 1 = weakest
    multiplier = np.uint64(0x9E3779B97F4A7C15)
    while True:
        disp, slots = _build_perfect_hash(keys, multiplier)
        if len(disp):
            break
        multiplier = np.uint64((int(multiplier) * 6364136223846793005 + 1442695040888963407) % 2**64 | 1)
    noflush = np.zeros(1 << _SLOT_BITS, np.uint16)
    noflush[slots] = [ordinal[int(v)] for v in pattern_values]
    flush = np.zeros(8192, np.uint16)
    for m in np.flatnonzero(flush_values >= 0):
        flush[m] = ordinal[int(flush_values[m])]
    card_key = np.array([(5**(c % 13) << 16) | (1 << (4 * (c // 13))) for c in range(52)], np.uint64)
    card_bit = np.array([1 << (16 * (c // 13) + c % 13) for c in range(52)], np.uint64)
    # Lowest ordinal of each category, to recover a category from an ordinal.
    category_start = np.zeros(10, np.int64)
    for cat in range(9):
        category_start[cat] = ordinal[int(distinct[(distinct >> 20) >= cat][0])]
    category_start[9] = len(distinct) + 1
    return card_key, card_bit, noflush, flush, disp, multiplier, category_start


_TABLE_NAMES = ("card_key", "card_bit", "noflush", "flush", "displacement", "multiplier", "category_start")


def _cached_tables():
    """_build_tables() through a file next to the numba cache, named by a hash of this module's
    source so an edit rebuilds it: building costs about a second of CPU in every process that
    imports the evaluator (every judge, contestant and CLI run)."""
    tag = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:16]
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or Path(__file__).resolve().parents[2] / ".cache" / "numba")

    def read(path: Path) -> tuple:
        with np.load(path) as data:
            return as_tuple({name: data[name] for name in _TABLE_NAMES})

    def as_tuple(arrays: dict) -> tuple:
        parts = [arrays[name] for name in _TABLE_NAMES]
        parts[5] = np.uint64(np.asarray(parts[5])[()])
        return tuple(parts)

    def build() -> dict:
        return dict(zip(_TABLE_NAMES, _build_tables(), strict=True))

    return cache_file.load_or_build(folder / f"holdem_training_evaluator_{tag}.npz", load=read, build=build,
                                    convert=as_tuple)


CARD_KEY, CARD_BIT, NOFLUSH_ORDINAL, FLUSH_ORDINAL, DISPLACEMENT, HASH_MULTIPLIER, CATEGORY_START = _cached_tables()
HAND_CLASSES = int(CATEGORY_START[9] - 1)  # 4824: the distinct strengths 7 cards can make


# --------------------------------------------------------------------------------------
# The evaluator
# --------------------------------------------------------------------------------------
@kernel
def value_from_parts(key, bits):
    """Strength from a hand's summed CARD_KEY (plus SUIT_BIAS) and OR of CARD_BIT.
    Both parts are additive, so rollouts reuse the board's share across both players."""
    flush_bits = key & _FLUSH_BITS
    if flush_bits:
        suit = np.uint64(0)
        while not (flush_bits >> (np.uint64(4) * suit + np.uint64(3))) & np.uint64(1):
            suit += np.uint64(1)
        return np.int64(FLUSH_ORDINAL[(bits >> (np.uint64(16) * suit)) & np.uint64(0x1FFF)])
    h = (key >> np.uint64(16)) * HASH_MULTIPLIER
    bucket = h >> np.uint64(64 - _BUCKET_BITS)
    slot = (h >> np.uint64(64 - _BUCKET_BITS - _SLOT_BITS)) + np.uint64(DISPLACEMENT[bucket])
    return np.int64(NOFLUSH_ORDINAL[slot & np.uint64(_SLOT_MASK)])


@kernel
def hand_value7(c0, c1, c2, c3, c4, c5, c6):
    """Strength of the best 5 of 7 cards (engine ints): 1..4824, higher is better."""
    key = (CARD_KEY[c0] + CARD_KEY[c1] + CARD_KEY[c2] + CARD_KEY[c3]
           + CARD_KEY[c4] + CARD_KEY[c5] + CARD_KEY[c6] + SUIT_BIAS)
    if not key & _FLUSH_BITS:  # the common case, without touching the rank bits
        h = (key >> np.uint64(16)) * HASH_MULTIPLIER
        bucket = h >> np.uint64(64 - _BUCKET_BITS)
        slot = (h >> np.uint64(64 - _BUCKET_BITS - _SLOT_BITS)) + np.uint64(DISPLACEMENT[bucket])
        return np.int64(NOFLUSH_ORDINAL[slot & np.uint64(_SLOT_MASK)])
    bits = (CARD_BIT[c0] | CARD_BIT[c1] | CARD_BIT[c2] | CARD_BIT[c3]
            | CARD_BIT[c4] | CARD_BIT[c5] | CARD_BIT[c6])
    return value_from_parts(key, bits)


@kernel
def hand_category(value):
    """The category (HIGH_CARD..STRAIGHT_FLUSH) of a hand_value7 ordinal."""
    cat = 0
    while cat < 8 and value >= CATEGORY_START[cat + 1]:
        cat += 1
    return cat


@kernel
def evaluate_many(hands):
    """hand_value7 over the rows of an (n, 7) int array."""
    n = hands.shape[0]
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = hand_value7(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3],
                             hands[i, 4], hands[i, 5], hands[i, 6])
    return out


# --------------------------------------------------------------------------------------
# Dealing and Monte Carlo (the judge's and Bob's sampling; bots may reuse them)
# --------------------------------------------------------------------------------------
DEALT = 9  # per hand: Alice's 2, Bob's 2, then the 5 board cards in deal order


@kernel
def deal_chunk(match_key, first, count, deal_purpose, opponent_purpose):
    """Deal keys, cards, showdown outcome (+1 Alice wins, 0 tie, -1 Bob wins) and RATE/Bob
    stream keys of hands first..first+count-1 (0-based); hand i depends only on (match_key, i)."""
    deal_keys = np.empty(count, np.uint64)
    cards = np.empty((count, DEALT), np.int64)
    outcome = np.empty(count, np.int64)
    stream_keys = np.empty(count, np.uint64)
    deck = np.empty(52, np.int64)
    state = np.empty(1, np.uint64)
    for i in range(count):
        index = np.uint64(first + i)
        deal_keys[i] = derive_key(match_key, index, deal_purpose)
        state[0] = deal_keys[i]
        for c in range(52):
            deck[c] = c
        shuffle_prefix(state, deck, 52, DEALT)
        cards[i, :] = deck[:DEALT]
        alice = hand_value7(deck[0], deck[1], deck[4], deck[5], deck[6], deck[7], deck[8])
        bob = hand_value7(deck[2], deck[3], deck[4], deck[5], deck[6], deck[7], deck[8])
        outcome[i] = (alice > bob) - (alice < bob)
        stream_keys[i] = derive_key(match_key, index, opponent_purpose)
    return deal_keys, cards, outcome, stream_keys


@kernel(inline="always")
def _swap_in(unseen, i, bits32, n):
    """Fisher-Yates step i: move a uniform pick of unseen[i:n] to position i and return it.
    The pick uses 32 random bits by multiply-shift (bias under n / 2**32)."""
    j = i + np.int64((bits32 * np.uint64(n - i)) >> np.uint64(32))
    c = unseen[j]
    unseen[j] = unseen[i]
    unseen[i] = c
    return c


@kernel(inline="always")
def _noflush_value(key):
    """Strength of a hand whose suit counters show no flush, from its summed key alone."""
    h = (key >> np.uint64(16)) * HASH_MULTIPLIER
    bucket = h >> np.uint64(64 - _BUCKET_BITS)
    slot = (h >> np.uint64(64 - _BUCKET_BITS - _SLOT_BITS)) + np.uint64(DISPLACEMENT[bucket])
    return np.int64(NOFLUSH_ORDINAL[slot & np.uint64(_SLOT_MASK)])


@kernel(inline="always")
def _rollout_value(key, a, b, board_bits, unseen, need):
    """Strength of hole a, b with the known board (board_bits) and the drawn unseen[2:need];
    `key` already sums all seven. Rank bits are gathered only for the rare flush."""
    if not key & _FLUSH_BITS:
        return _noflush_value(key)
    bits = board_bits | CARD_BIT[a] | CARD_BIT[b]
    for j in range(2, need):
        bits |= CARD_BIT[unseen[j]]
    return value_from_parts(key, bits)


@kernel
def sample_outcomes(stream, hole0, hole1, board, known, rollouts):
    """(wins, ties) of the hand hole0/hole1 over `rollouts` random completions: the other
    player's two cards, then the board cards after the first `known`, drawn in that order
    as the prefix of a fresh uniform shuffle of every card not seen (hole and known board)."""
    seen = (np.uint64(1) << np.uint64(hole0)) | (np.uint64(1) << np.uint64(hole1))
    board_key = SUIT_BIAS
    board_bits = np.uint64(0)
    for j in range(known):
        seen |= np.uint64(1) << np.uint64(board[j])
        board_key += CARD_KEY[board[j]]
        board_bits |= CARD_BIT[board[j]]
    unseen = np.empty(52, np.int64)
    n = 0
    for c in range(52):
        if not (seen >> np.uint64(c)) & np.uint64(1):
            unseen[n] = c
            n += 1
    need = 2 + 5 - known
    my_key = CARD_KEY[hole0] + CARD_KEY[hole1]
    mine = value_from_parts(board_key + my_key, board_bits | CARD_BIT[hole0] | CARD_BIT[hole1])  # if known == 5
    state = stream[0]  # the stream lives in a register here: next_u64 inlined
    wins = 0
    ties = 0
    for _ in range(rollouts):
        # Fisher-Yates stopped once the prefix is drawn; each 64-bit output makes two picks.
        state += GOLDEN
        r = mix64(state)
        opp0 = _swap_in(unseen, 0, r >> np.uint64(32), n)
        opp1 = _swap_in(unseen, 1, r & _LOW32, n)
        key = board_key
        for i in range(2, need, 2):
            state += GOLDEN
            r = mix64(state)
            key += CARD_KEY[_swap_in(unseen, i, r >> np.uint64(32), n)]
            if i + 1 < need:
                key += CARD_KEY[_swap_in(unseen, i + 1, r & _LOW32, n)]
        if known < 5:
            mine = _rollout_value(key + my_key, hole0, hole1, board_bits, unseen, need)
        theirs = _rollout_value(key + CARD_KEY[opp0] + CARD_KEY[opp1], opp0, opp1, board_bits, unseen, need)
        wins += mine > theirs
        ties += mine == theirs
    stream[0] = state
    return wins, ties


@kernel
def bob_calls(stream, cards, known, pot, raise_amount, rollouts):
    """Bob's answer to a raise: True = CALL. From his view (his hole cards cards[2:4] and the
    first `known` board cards) he rolls out the unseen cards, assumes Alice checks from here
    on, and calls iff the mean profit of calling beats folding. In exact integers: relative
    to folding, a call wins pot + x, ties pot / 2 (the pot is always even) or loses x."""
    bob_wins, ties = sample_outcomes(stream, cards[2], cards[3], cards[4:], known, rollouts)
    return call_decision(bob_wins, ties, rollouts, pot, raise_amount)


@kernel
def call_decision(bob_wins, ties, rollouts, pot, raise_amount):
    """Bob's rule on his rollout counts, in the reference interactor's doubles: with w, d the
    rates of Alice winning and tying, call iff -w*x + d*P/2 + (1-w-d)*(P+x) > 0, evaluated in
    that order. In exact arithmetic it is 2*bob_wins*(P+x) + ties*P - 2*alice_wins*x > 0; the
    two differ only at exact break-even, where rounding leaves the doubles slightly positive
    in 6,695 of 15,972 cases (tests/holdem_training/test_reference_bob.py)."""
    w = (rollouts - bob_wins - ties) / rollouts
    d = ties / rollouts
    return -w * raise_amount + d * pot / 2 + (1.0 - w - d) * (pot + raise_amount) > 0.0


@kernel
def rate_counts(stream, cards, known, rollouts):
    """The RATE query: Alice's (wins, ties) over random completions of Bob's hole and the board."""
    return sample_outcomes(stream, cards[0], cards[1], cards[4:], known, rollouts)


@kernel
def bob_calls_many(stream_keys, cards, known, pot, raise_amount, rollouts):
    """bob_calls for every row of `cards` at one street, each hand from its own stream key
    (batch use: benchmarks, and bots that tabulate Bob's answers)."""
    n = cards.shape[0]
    out = np.empty(n, np.bool_)
    stream = np.empty(1, np.uint64)
    for i in range(n):
        stream[0] = stream_keys[i]
        out[i] = bob_calls(stream, cards[i], known, pot, raise_amount, rollouts)
    return out
