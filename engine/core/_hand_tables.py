"""Building the 7-card evaluator's lookup tables (engine/core/hand_eval.py explains the layout).

Runs once per clone: the result is kept in a file next to the numba cache, named by a hash of
this module's source, so an edit here rebuilds it (building costs about a second of CPU, which
every judge, contestant and CLI process would otherwise pay at import).
"""

import hashlib
import os
from pathlib import Path

import numpy as np

from engine.core import cache_file
from engine.core.jit import kernel

# Hand categories (the ordinal's coarse class), weakest first.
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

BUCKET_SHIFT = 51  # bucket = key >> 51: the top 13 bits pick one of 8192 displacements
SLOT_SHIFT = 35  # slot = (key >> 35) + displacement, modulo the 64K-entry table
_SLOT_BITS = 16
_SLOT_MASK = (1 << _SLOT_BITS) - 1
_LOW16 = ~0xFFFF & (2**64 - 1)


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
    """All rank multisets of 7 cards (no rank more than 4 times): counts and values."""
    counts_of = np.zeros((49205, 13), np.uint64)
    values = np.zeros(49205, np.int64)
    counts = np.zeros(13, np.int64)
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
                                for r in range(13):
                                    counts_of[n, r] = counts[r]
                                values[n] = _pattern_value(counts)
                                n += 1
    return counts_of, values


@kernel
def _hash_keys(counts_of, rank_key):
    """Each multiset's summed rank keys (wrapping modulo 2**64, as the kernels add them)."""
    keys = np.zeros(counts_of.shape[0], np.uint64)
    for i in range(counts_of.shape[0]):
        for r in range(13):
            keys[i] += counts_of[i, r] * rank_key[r]
    return keys


@kernel
def _build_perfect_hash(keys):
    """Hash-and-displace: a displacement per bucket so all keys land in distinct slots.
    Returns (displacements, slot of each key) or an empty array if these keys fail."""
    n_buckets = 1 << (64 - BUCKET_SHIFT)
    n_slots = 1 << _SLOT_BITS
    bucket_of = np.empty(len(keys), np.int64)
    slot_of = np.empty(len(keys), np.int64)
    sizes = np.zeros(n_buckets, np.int64)
    for i in range(len(keys)):
        bucket_of[i] = np.int64(keys[i] >> np.uint64(BUCKET_SHIFT))
        slot_of[i] = np.int64((keys[i] >> np.uint64(SLOT_SHIFT)) & np.uint64(_SLOT_MASK))
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


def _rank_keys(multiplier: int) -> np.ndarray:
    """Per-rank keys 5**r * multiplier (mod 2**64) with the low 16 bits cleared for the suit
    counters. Summing them is the multiplicative hash of the base-5 rank multiset, already
    multiplied, so the kernels need no multiply; only the top 29 bits are ever read."""
    return np.array([(5**r * multiplier) & _LOW16 for r in range(13)], np.uint64)


def build_tables() -> tuple:
    """(card_key, card_bit, noflush, flush, displacement, category_start), built from scratch."""
    counts_of, pattern_values = _rank_patterns()
    flush_values = np.array([_flush_value(m) if bin(m).count("1") >= 5 else -1 for m in range(8192)])
    distinct = np.unique(np.concatenate([pattern_values, flush_values[flush_values >= 0]]))
    ordinal = {int(v): i + 1 for i, v in enumerate(distinct)}  # 1 = weakest
    multiplier = 0x9E3779B97F4A7C15
    while True:
        rank_key = _rank_keys(multiplier)
        disp, slots = _build_perfect_hash(_hash_keys(counts_of, rank_key))
        if len(disp):
            break
        multiplier = (multiplier * 6364136223846793005 + 1442695040888963407) % 2**64 | 1
    noflush = np.zeros(1 << _SLOT_BITS, np.uint16)
    noflush[slots] = [ordinal[int(v)] for v in pattern_values]
    flush = np.zeros(8192, np.uint16)
    for m in np.flatnonzero(flush_values >= 0):
        flush[m] = ordinal[int(flush_values[m])]
    card_key = np.array([int(rank_key[c % 13]) | (1 << (4 * (c // 13))) for c in range(52)], np.uint64)
    card_bit = np.array([1 << (16 * (c // 13) + c % 13) for c in range(52)], np.uint64)
    # Lowest ordinal of each category, to recover a category from an ordinal.
    category_start = np.zeros(10, np.int64)
    for cat in range(9):
        category_start[cat] = ordinal[int(distinct[(distinct >> 20) >= cat][0])]
    category_start[9] = len(distinct) + 1
    return card_key, card_bit, noflush, flush, disp, category_start


TABLE_NAMES = ("card_key", "card_bit", "noflush", "flush", "displacement", "category_start")


def cached_tables() -> tuple:
    """build_tables() through a file next to the numba cache (see the module docstring)."""
    tag = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:16]
    folder = Path(os.environ.get("NUMBA_CACHE_DIR") or Path(__file__).resolve().parents[2] / ".cache" / "numba")

    def read(path: Path) -> tuple:
        with np.load(path) as data:
            return tuple(data[name] for name in TABLE_NAMES)

    def build() -> dict:
        return dict(zip(TABLE_NAMES, build_tables(), strict=True))

    return cache_file.load_or_build(folder / f"hand_eval_{tag}.npz", load=read, build=build,
                                    convert=lambda arrays: tuple(arrays[name] for name in TABLE_NAMES))
