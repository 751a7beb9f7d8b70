"""Java's ``SecureRandom.getInstance("SHA1PRNG")`` seeded by ``setSeed(long)``, rebuilt on hashlib.

The CodinGame referee draws every random number of a game from this generator (the first
big blind, then 51 shuffle draws and one cut per hand), so reproducing it bit for bit is
what lets a seed replay an arena game. Algorithm facts: spec cg_holdem.md section 4.3.
"""

import functools
import hashlib
import struct

_DIGEST_SIZE = 20
_INT31 = 1 << 31


_BYTE_HIGH_BITS = int.from_bytes(b"\x01" * _DIGEST_SIZE, "little")  # bit 0 of every byte
_MOD = 1 << (8 * _DIGEST_SIZE)


def _signed_value(x: int) -> int:
    """The little-endian bytes of x read as Java signed bytes: sum of s_i * 256**i."""
    return x - (((x >> 7) & _BYTE_HIGH_BITS) << 8)


@functools.cache
def _plan(bounds: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """(bound, rejection limit) per bound; the limit of a power of two is 2**31 (none)."""
    for b in bounds:
        if b <= 0:
            raise ValueError("bound must be positive")
    return tuple((b, _INT31 if b & (b - 1) == 0 else (_INT31 // b) * b) for b in bounds)


class Sha1Prng:
    """Byte stream: block = SHA1(state), then state += block + 1 with Java's signed-byte
    carries. Adding signed digits with floor carries leaves the low 160 bits of the exact
    sum, so the update is one big-integer addition."""

    def __init__(self, seed: int):
        if seed == 0:
            # Java ignores setSeed(0) and self-seeds, so such a game can never be replayed.
            raise ValueError("seed 0 is not reproducible (Java's setSeed ignores 0); use a non-zero seed")
        if not -(1 << 63) <= seed < (1 << 63):
            raise ValueError(f"seed {seed} is not a 64-bit Java long")
        self._state = hashlib.sha1((seed % (1 << 64)).to_bytes(8, "little")).digest()
        self._buffer = b""
        self._at = 0

    def _step(self) -> bytes:
        block = hashlib.sha1(self._state).digest()
        old = int.from_bytes(self._state, "little")
        new = (_signed_value(old) + _signed_value(int.from_bytes(block, "little")) + 1) % _MOD
        if new == old:
            new = (new & ~0xFF) | ((new + 1) & 0xFF)  # state[0]++ (no carry)
        self._state = new.to_bytes(_DIGEST_SIZE, "little")
        return block

    def next_bytes(self, n: int) -> bytes:
        while len(self._buffer) - self._at < n:
            self._buffer = self._buffer[self._at:] + self._step()
            self._at = 0
        out = self._buffer[self._at:self._at + n]
        self._at += n
        return out

    def next31(self) -> int:
        at = self._at
        if len(self._buffer) - at < 4:
            self._buffer = self._buffer[at:] + self._step()
            at = 0
        self._at = at + 4
        return int.from_bytes(self._buffer[at:at + 4], "big") >> 1

    def _raw31(self, count: int) -> list[int]:
        """The next ``count`` next(31) values (4 bytes each, big-endian, shifted right by one)."""
        need = 4 * count
        while len(self._buffer) - self._at < need:
            self._buffer = self._buffer[self._at:] + self._step()
            self._at = 0
        values = struct.unpack_from(f">{count}I", self._buffer, self._at)
        self._at += need
        return [v >> 1 for v in values]

    def next_ints(self, bounds) -> list[int]:
        """nextInt(b) for each bound in order, with the same draws as one call per bound."""
        plan = _plan(tuple(bounds))
        raw = self._raw31(len(plan))
        # Fast path: nextInt(b) rejects u exactly when u >= (2**31 // b) * b (never for powers
        # of two), which almost never happens; then every bound used exactly one draw.
        if all(u < limit for u, (_, limit) in zip(raw, plan, strict=True)):
            return [(b * u) >> 31 if limit == _INT31 else u % b for u, (b, limit) in zip(raw, plan, strict=True)]
        out = []
        k = 0
        for bound, limit in plan:
            while True:
                if k == len(raw):  # a rejection used up a value: draw one more
                    raw += self._raw31(1)
                u = raw[k]
                k += 1
                if u < limit:
                    out.append((bound * u) >> 31 if limit == _INT31 else u % bound)
                    break
        return out

    def next_int(self, bound: int) -> int:
        """java.util.Random.nextInt(bound): power-of-two shortcut, else rejection on overflow."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        r = self.next31()
        m = bound - 1
        if bound & m == 0:
            return (bound * r) >> 31
        u = r
        r = u % bound
        while u - r + m >= _INT31:  # Java's int overflow makes this negative
            u = self.next31()
            r = u % bound
        return r


SHUFFLE_BOUNDS = {n: tuple(range(n, 1, -1)) for n in (52,)}


def java_shuffle(items: list, rng: Sha1Prng) -> None:
    """Collections.shuffle(list, rnd): swap i-1 with nextInt(i) for i = size down to 2."""
    bounds = SHUFFLE_BOUNDS.get(len(items)) or tuple(range(len(items), 1, -1))
    for i, j in zip(bounds, rng.next_ints(bounds), strict=True):
        items[i - 1], items[j] = items[j], items[i - 1]
