"""Speed measurements for `cardlab bench holdem-training ...` (figures, never timed tests).

The evaluator's peer is phevaluator's compiled C function ``evaluate_7cards`` as shipped in
the installed phevaluator wheel (its ``_pheval`` extension exports the C symbol). A tiny C
loop, compiled here with gcc into a cache directory, calls it through a function pointer
over the same random hands our numba loop evaluates, so neither side pays Python overhead.
"""

import ctypes
import hashlib
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core import seeds
from engine.holdem_training import _kernels

_PEER_LOOP_C = r"""
typedef int (*eval7_fn)(int, int, int, int, int, int, int);
void eval_loop(eval7_fn f, const int *cards, long n, int *out) {
    for (long i = 0; i < n; i++) {
        const int *c = cards + 7 * i;
        out[i] = f(c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
    }
}
"""


@dataclass(frozen=True)
class Rate:
    label: str
    per_second: float
    detail: str


def random_hands(count: int, *, seed: int, size: int = 7) -> np.ndarray:
    """count random sets of `size` distinct cards, in random order, as an (n, size) array."""
    rng = seeds.generator(seeds.match_key(seed))
    keys = rng.random((count, 52))
    return np.argpartition(keys, size, axis=1)[:, :size].astype(np.int64)


def _cache_dir() -> Path:
    base = os.environ.get("NUMBA_CACHE_DIR") or tempfile.gettempdir()
    path = Path(base).parent / "holdem_training_peer" if os.environ.get("NUMBA_CACHE_DIR") else Path(base)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _peer_loop_library() -> ctypes.CDLL:
    digest = hashlib.sha256(_PEER_LOOP_C.encode()).hexdigest()[:12]
    lib = _cache_dir() / f"peer_loop_{digest}.so"
    if not lib.exists():
        src = lib.with_suffix(".c")
        src.write_text(_PEER_LOOP_C)
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return ctypes.CDLL(str(lib))


def _best_rate(run, count: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def evaluator_rates(*, count: int = 4_000_000, seed: int = 1, repeats: int = 3) -> tuple[Rate, Rate | None]:
    """(ours, peer) evaluations per second over the same random hands, one thread each."""
    hands = random_hands(count, seed=seed)
    _kernels.evaluate_many(hands[:10])  # compile or load from cache outside the timing
    ours = Rate("numba hand_value7", _best_rate(lambda: _kernels.evaluate_many(hands), count, repeats),
                "engine.holdem_training._kernels.hand_value7 in a numba loop")
    try:
        import phevaluator
        from phevaluator import _pheval
    except ImportError:
        return ours, None
    evaluate = ctypes.cast(ctypes.CDLL(_pheval.__file__).evaluate_7cards, ctypes.c_void_p).value
    loop = _peer_loop_library().eval_loop
    loop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
    peer_cards = np.ascontiguousarray((hands % 13) * 4 + hands // 13, dtype=np.int32)  # rank*4+suit
    out = np.empty(count, np.int32)

    def run_peer():
        loop(evaluate, peer_cards.ctypes.data, count, out.ctypes.data)

    peer = Rate("phevaluator C evaluate_7cards", _best_rate(run_peer, count, repeats),
                f"phevaluator {getattr(phevaluator, '__version__', '?')} wheel's compiled C evaluate_7cards "
                f"({Path(_pheval.__file__).name}), called from a gcc -O2 C loop")
    return ours, peer
