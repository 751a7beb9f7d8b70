"""Standard-library 7-card evaluator and Monte Carlo equity, for the exported submission.

This is the standard-library build of the one evaluator, engine/core/hand_eval.py: CodinGame
runs plain Python, so the single-file bot cannot use numba or numpy and carries this instead.
In-process bots use the numba kernels (engine/core/hand_eval.py via engine/cg_holdem/_kernels.py);
tests/cg_holdem/test_equity.py checks that this evaluator orders hands exactly like the core's
``hand_value7`` (and eval7). Values: category * 16**5 + five tie-break ranks (higher is better).
"""

import time

_CATEGORY = 16**5


def _straight_high(mask: int) -> int:
    """Top rank of the highest straight in a 13-bit rank mask (the wheel is 3), or -1."""
    for hi in range(12, 3, -1):
        run = 0x1F << (hi - 4)
        if mask & run == run:
            return hi
    return 3 if mask & 0x100F == 0x100F else -1


STRAIGHT_HIGH = tuple(_straight_high(m) for m in range(8192))


def _pack(category: int, ranks) -> int:
    v = 0
    for i in range(5):
        v = v * 16 + (ranks[i] if i < len(ranks) else 0)
    return category * _CATEGORY + v


def _top(mask: int, n: int) -> list[int]:
    out = []
    r = 12
    while n and r >= 0:
        if mask >> r & 1:
            out.append(r)
            n -= 1
        r -= 1
    return out


def value7(cards) -> int:
    """Strength of the best five of these (7) cards; card = suit * 13 + rank."""
    counts = [0] * 13
    suits = [0, 0, 0, 0]
    present = 0
    for c in cards:
        r = c % 13
        counts[r] += 1
        suits[c // 13] |= 1 << r
        present |= 1 << r
    for m in suits:
        if m.bit_count() >= 5:
            hi = STRAIGHT_HIGH[m]
            return _pack(8, [hi]) if hi >= 0 else _pack(5, _top(m, 5))
    quads = trips = pairs = 0
    for r in range(13):
        if counts[r] == 4:
            quads |= 1 << r
        elif counts[r] == 3:
            trips |= 1 << r
        elif counts[r] == 2:
            pairs |= 1 << r
    if quads:
        q = _top(quads, 1)
        return _pack(7, q + _top(present & ~quads, 1))
    if trips and (pairs or trips & (trips - 1)):
        t = _top(trips, 1)
        return _pack(6, t + _top((trips | pairs) & ~(1 << t[0]), 1))
    hi = STRAIGHT_HIGH[present]
    if hi >= 0:
        return _pack(4, [hi])
    if trips:
        return _pack(3, _top(trips, 1) + _top(present & ~trips, 2))
    if pairs & (pairs - 1):
        p = _top(pairs, 2)
        return _pack(2, p + _top(present & ~((1 << p[0]) | (1 << p[1])), 1))
    if pairs:
        return _pack(1, _top(pairs, 1) + _top(present & ~pairs, 3))
    return _pack(0, _top(present, 5))


def equity_vs_random_py(hole, board, opponents: int, samples: int, rng, deadline: float = 0.0) -> float:
    """Share of the pot against random hands (ties split); stops early past ``deadline``
    (a time.perf_counter() value, 0 = none) once 30 samples are in."""
    known = set(hole) | set(board)
    rest = [c for c in range(52) if c not in known]
    need = 5 - len(board)
    draw = need + 2 * opponents
    share = 0.0
    done = 0
    for done in range(1, samples + 1):  # noqa: B007 - done is read after the loop
        pick = rng.sample(rest, draw)
        full = list(board) + pick[:need]
        mine = value7(list(hole) + full)
        ties = 1
        for k in range(opponents):
            v = value7([pick[need + 2 * k], pick[need + 2 * k + 1]] + full)
            if v > mine:
                ties = 0
                break
            if v == mine:
                ties += 1
        if ties:
            share += 1.0 / ties
        if deadline and done >= 30 and done % 10 == 0 and time.perf_counter() > deadline:
            break
    return share / max(done, 1)
