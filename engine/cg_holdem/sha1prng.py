"""Java's ``SecureRandom.getInstance("SHA1PRNG")`` seeded by ``setSeed(long)``, rebuilt on hashlib.

The CodinGame referee draws every random number of a game from this generator (the first
big blind, then 51 shuffle draws and one cut per hand), so reproducing it bit for bit is
what lets a seed replay an arena game. Draw order: docs/rules/cg_holdem.md#deck.
"""

import functools
import hashlib
import itertools
import operator
import struct
from typing import NamedTuple

from engine.core.errors import BadValue

_DIGEST_SIZE = 20
_INT31 = 1 << 31


_BYTE_HIGH_BITS = int.from_bytes(b"\x01" * _DIGEST_SIZE, "little")  # after >> 7: each byte's sign bit
_MOD = 1 << (8 * _DIGEST_SIZE)


class _Plan(NamedTuple):
    bounds: tuple[int, ...]
    limits: tuple[int, ...]  # nextInt(b) rejects u >= (2**31 // b) * b; 2**31 (never) for powers of two
    powers_of_two: tuple[int, ...]  # positions answered by (b * u) >> 31 instead of u % b


@functools.cache
def _plan(bounds: tuple[int, ...]) -> _Plan:
    if min(bounds, default=1) <= 0:
        raise ValueError("bound must be positive")
    limits = tuple(_INT31 if b & (b - 1) == 0 else (_INT31 // b) * b for b in bounds)
    return _Plan(bounds, limits, tuple(i for i, b in enumerate(bounds) if b & (b - 1) == 0))


class Sha1Prng:
    """Byte stream: block = SHA1(state), then state += block + 1 with Java's signed-byte
    carries. Adding signed digits with floor carries leaves the low 160 bits of the exact
    sum, so the update is one big-integer addition."""

    def __init__(self, seed: int):
        if seed == 0:
            # Java ignores setSeed(0) and self-seeds, so such a game can never be replayed.
            raise BadValue("seed 0 is not reproducible (Java's setSeed ignores 0); use a non-zero seed")
        if not -(1 << 63) <= seed < (1 << 63):
            raise BadValue(f"seed {seed} is not a 64-bit Java long")
        self._state = hashlib.sha1((seed % (1 << 64)).to_bytes(8, "little")).digest()
        self._buffer = b""
        self._at = 0

    def _step(self) -> bytes:
        block = hashlib.sha1(self._state).digest()
        old = int.from_bytes(self._state, "little")
        add = int.from_bytes(block, "little")
        new = (old - (((old >> 7) & _BYTE_HIGH_BITS) << 8) + add - (((add >> 7) & _BYTE_HIGH_BITS) << 8) + 1) % _MOD
        if new == old:
            new = (new & ~0xFF) | ((new + 1) & 0xFF)  # state[0]++ (no carry)
        self._state = new.to_bytes(_DIGEST_SIZE, "little")
        return block

    def snapshot(self) -> tuple[bytes, bytes]:
        """(state, the unread bytes of the current block): all a copy of the stream needs."""
        return self._state, self._buffer[self._at:]

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
        short = need - (len(self._buffer) - self._at)
        if short > 0:
            blocks = [self._step() for _ in range(-(-short // _DIGEST_SIZE))]
            self._buffer = self._buffer[self._at:] + b"".join(blocks)
            self._at = 0
        values = struct.unpack_from(f">{count}I", self._buffer, self._at)
        self._at += need
        return list(map(operator.rshift, values, itertools.repeat(1, count)))

    def next_ints(self, bounds) -> list[int]:
        """nextInt(b) for each bound in order, with the same draws as one call per bound."""
        plan = _plan(tuple(bounds))
        raw = self._raw31(len(plan.bounds))
        if not any(map(operator.ge, raw, plan.limits)):  # almost always: one draw per bound
            out = list(map(operator.mod, raw, plan.bounds))
            for i in plan.powers_of_two:
                out[i] = (plan.bounds[i] * raw[i]) >> 31
            return out
        out = []
        k = 0
        for bound, limit in zip(plan.bounds, plan.limits, strict=True):
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
