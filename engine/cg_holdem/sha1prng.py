"""Java's ``SecureRandom.getInstance("SHA1PRNG")`` seeded by ``setSeed(long)``, rebuilt on hashlib.

The CodinGame referee draws every random number of a game from this generator (the first
big blind, then 51 shuffle draws and one cut per hand), so reproducing it bit for bit is
what lets a seed replay an arena game. Algorithm facts: spec cg_holdem.md section 4.3.
"""

import hashlib

_DIGEST_SIZE = 20
_INT31 = 1 << 31


class Sha1Prng:
    """Byte stream: block = SHA1(state), then state += block + 1 (Java signed-byte carries)."""

    def __init__(self, seed: int):
        if seed == 0:
            # Java ignores setSeed(0) and self-seeds, so such a game can never be replayed.
            raise ValueError("seed 0 is not reproducible (Java's setSeed ignores 0); use a non-zero seed")
        if not -(1 << 63) <= seed < (1 << 63):
            raise ValueError(f"seed {seed} is not a 64-bit Java long")
        self._state = bytearray(hashlib.sha1((seed % (1 << 64)).to_bytes(8, "little")).digest())
        self._block = b""
        self._used = 0

    def _step(self) -> bytes:
        block = hashlib.sha1(self._state).digest()
        state = self._state
        carry = 1
        changed = False
        for i in range(_DIGEST_SIZE):
            s = state[i] - 256 if state[i] > 127 else state[i]
            o = block[i] - 256 if block[i] > 127 else block[i]
            v = s + o + carry
            t = v & 0xFF
            changed |= state[i] != t
            state[i] = t
            carry = v >> 8  # arithmetic shift, like Java's int >> 8
        if not changed:
            state[0] = (state[0] + 1) & 0xFF
        return block

    def next_bytes(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n:
            if self._used == len(self._block):
                self._block = self._step()
                self._used = 0
            take = min(n - len(out), len(self._block) - self._used)
            out += self._block[self._used:self._used + take]
            self._used += take
        return bytes(out)

    def next31(self) -> int:
        return int.from_bytes(self.next_bytes(4), "big") >> 1

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


def java_shuffle(items: list, rng: Sha1Prng) -> None:
    """Collections.shuffle(list, rnd): swap i-1 with nextInt(i) for i = size down to 2."""
    for i in range(len(items), 1, -1):
        j = rng.next_int(i)
        items[i - 1], items[j] = items[j], items[i - 1]
