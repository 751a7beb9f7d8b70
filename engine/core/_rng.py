"""SplitMix64 streams for numba kernels.

No global RNG: a stream is a one-element uint64 array owned by the caller. Streams are
derived from (match key, unit index, purpose), so any hand can be replayed alone and every
config in a sweep sees the same deals (common random numbers).
"""

import numpy as np

from engine.core.jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@kernel
def mix64(z):
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@kernel
def derive_key(key, index, purpose):
    """A new independent key from a parent key, an index and a purpose tag."""
    z = mix64(np.uint64(key) ^ mix64(np.uint64(index) * GOLDEN + np.uint64(purpose)))
    return mix64(z + GOLDEN)


@kernel
def next_u64(state):
    state[0] += GOLDEN
    return mix64(state[0])


@kernel
def below(state, n):
    """Uniform integer in [0, n) by multiply-shift; bias below 2**-32 for n < 2**32."""
    return np.int64((next_u64(state) >> np.uint64(32)) * np.uint64(n) >> np.uint64(32))


@kernel
def uniform(state):
    """Uniform float in [0, 1) with 53 random bits."""
    return (next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@kernel
def shuffle_prefix(state, arr, n, k):
    """Fisher-Yates on arr[:n], stopping once arr[:k] is a uniform random k-subset in order."""
    for i in range(min(k, n - 1)):
        j = i + below(state, n - i)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
