"""PHP's Mt19937 (PHP 7.1 and later) and the arbiter's use of it, so a seed deals the arbiter's match.

Written from the generator's published definition (Matsumoto and Nishimura's MT19937 with
Knuth's seeding) and PHP's documented behaviour: ``srand``/``mt_srand`` seed the state once,
``rand(lo, hi)``/``mt_rand(lo, hi)`` reduce a 32-bit output to the range without bias by
rejecting outputs above the largest multiple of the range size (a power-of-two size is masked
instead), and ``shuffle`` is a Fisher-Yates pass from the last element down, swapping element
i with a draw from 0..i.

The arbiter seeds once per match and deals every game from the continuing stream: each level's
deck (ids in order) shuffled, levels 1, 2, 3, then nobles drawn by ``rand(1, 10)`` until the
board holds enough distinct ones, in draw order.
"""

from engine.splendor import rules
from engine.splendor.state import Deal

_N, _M = 624, 397
_MASK32 = 0xFFFFFFFF
_UPPER, _LOWER = 0x80000000, 0x7FFFFFFF
_MATRIX_A = 0x9908B0DF


class PhpMt19937:
    """One generator state, as ``mt_srand(seed)`` leaves it."""

    def __init__(self, seed: int):
        state = [seed & _MASK32]
        for i in range(1, _N):
            prev = state[-1]
            state.append((1812433253 * (prev ^ (prev >> 30)) + i) & _MASK32)
        self._state = state
        self._index = _N  # the first draw regenerates the block

    def _twist(self) -> None:
        s = self._state
        for i in range(_N):
            y = (s[i] & _UPPER) | (s[(i + 1) % _N] & _LOWER)
            s[i] = s[(i + _M) % _N] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        self._index = 0

    def next_u32(self) -> int:
        """The next tempered 32-bit output (``mt_rand()`` without arguments is this >> 1)."""
        if self._index >= _N:
            self._twist()
        y = self._state[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def range(self, lo: int, hi: int) -> int:
        """``mt_rand(lo, hi)`` (and ``rand(lo, hi)``): uniform in lo..hi, both included."""
        if hi < lo:
            raise ValueError(f"empty range {lo}..{hi}")
        span = hi - lo
        if span > _MASK32:
            raise ValueError("ranges wider than 2**32 are not needed here")
        result = self.next_u32()
        if span == _MASK32:
            return lo + result
        size = span + 1
        if size & (size - 1) == 0:
            return lo + (result & (size - 1))
        limit = _MASK32 - (_MASK32 % size) - 1
        while result > limit:
            result = self.next_u32()
        return lo + result % size

    def shuffle(self, items: list) -> None:
        """``shuffle()`` in place: from the end, swap each position with a draw at or before it."""
        for i in range(len(items) - 1, 0, -1):
            j = self.range(0, i)
            items[i], items[j] = items[j], items[i]


def arbiter_deal(rng: PhpMt19937, players: int) -> Deal:
    """The next game's deal as the arbiter's board setup draws it from ``rng``."""
    decks = []
    for lo, hi in rules.LEVEL_RANGES:
        ids = list(range(lo, hi + 1))
        rng.shuffle(ids)
        decks.append(tuple(ids))
    nobles: list[int] = []
    while len(nobles) < rules.NOBLES_IN_PLAY[players]:
        x = rng.range(1, rules.NUM_NOBLES)
        if x not in nobles:
            nobles.append(x)
    return Deal(tuple(decks), tuple(nobles))


def arbiter_deals(seed: int, players: int, games: int) -> list[Deal]:
    """Every game's deal of an arbiter match run with ``--seed seed`` (seed != 0)."""
    rng = PhpMt19937(seed)
    return [arbiter_deal(rng, players) for _ in range(games)]
