"""OMPEval (zekyll/OMPEval, C++) as a peer of the evaluator and Monte Carlo benchmarks.

Its sources come from the PyPI sdist of `omp-wrapper` (a Python binding that ships OMPEval's
HandEvaluator files): pip downloads it into the peer cache once, the few files the evaluator
needs are extracted, and a small C++ timing loop of ours is compiled against them with
g++ -O3 -march=native. Nothing of it is kept in the repository. Any step that fails (no
network, no g++) returns a reason instead of a library, and the benchmark says so.
"""

import ctypes
import hashlib
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

SDIST = "omp-wrapper==0.7"
_FLAGS = ("-O3", "-march=native", "-ffp-contract=off", "-std=c++11", "-shared", "-fPIC")
_SOURCES = ("HandEvaluator.cpp", "HandEvaluator.h", "Hand.h", "Constants.h", "OffsetTable.hxx", "Util.h")

# The evaluation loop reads cards as OMPEval numbers them (4 * rank + suit). The decision loop
# takes engine card ints and samples exactly as engine/holdem_training/_kernels.py does (a
# Fisher-Yates prefix of the unseen cards in engine order, two picks per SplitMix64 output),
# converting a card to OMPEval's number only to look up its Hand; with the same rule in the
# same doubles (no fused multiply-add: -ffp-contract=off) it must answer exactly as
# bob_calls_many does, which the benchmark checks.
_LOOPS_CPP = r"""
#include "HandEvaluator.h"
#include <cstdint>
using omp::Hand;
static omp::HandEvaluator EV;

extern "C" void omp_eval_loop(const uint8_t *cards, long n, uint16_t *out) {
    for (long i = 0; i < n; i++) {
        const uint8_t *c = cards + 7 * i;
        Hand h = Hand::empty() + Hand(c[0]) + Hand(c[1]) + Hand(c[2]) + Hand(c[3]) + Hand(c[4]) + Hand(c[5])
                 + Hand(c[6]);
        out[i] = EV.evaluate(h);
    }
}

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline unsigned pick(uint8_t *u, unsigned i, uint64_t bits32, unsigned n) {
    unsigned j = i + (unsigned)((bits32 * (n - i)) >> 32);
    uint8_t c = u[j];
    u[j] = u[i];
    u[i] = c;
    return c;
}

static Hand CARD[52];  // engine card int -> OMPEval's Hand of that card

extern "C" long omp_bob_calls(const uint8_t *rows, const uint64_t *keys, long n, int known, int pot, int x,
                              int rollouts, uint8_t *out) {
    for (unsigned c = 0; c < 52; c++) CARD[c] = Hand(c % 13 * 4 + c / 13);
    long calls = 0;
    for (long d = 0; d < n; d++) {
        const uint8_t *row = rows + 9 * d;  // engine ints: Alice 2, Bob 2, board 5
        uint64_t seen = (1ULL << row[2]) | (1ULL << row[3]);
        Hand board = Hand::empty();
        for (int j = 0; j < known; j++) {
            seen |= 1ULL << row[4 + j];
            board += CARD[row[4 + j]];
        }
        uint8_t unseen[52];
        unsigned m = 0;
        for (unsigned c = 0; c < 52; c++)
            if (!(seen >> c & 1)) unseen[m++] = (uint8_t)c;
        Hand mine = CARD[row[2]] + CARD[row[3]];
        unsigned mine_river = known == 5 ? EV.evaluate(board + mine) : 0;
        uint64_t state = keys[d];
        int need = 7 - known;
        long wins = 0, ties = 0;
        for (int r = 0; r < rollouts; r++) {
            state += 0x9E3779B97F4A7C15ULL;
            uint64_t z = mix64(state);
            unsigned o0 = pick(unseen, 0, z >> 32, m), o1 = pick(unseen, 1, z & 0xFFFFFFFFULL, m);
            Hand full = board;
            for (int i = 2; i < need; i += 2) {
                state += 0x9E3779B97F4A7C15ULL;
                z = mix64(state);
                full += CARD[pick(unseen, i, z >> 32, m)];
                if (i + 1 < need) full += CARD[pick(unseen, i + 1, z & 0xFFFFFFFFULL, m)];
            }
            unsigned a = known == 5 ? mine_river : EV.evaluate(full + mine);
            unsigned b = EV.evaluate(full + CARD[o0] + CARD[o1]);
            wins += a > b;
            ties += a == b;
        }
        double w = (double)(rollouts - wins - ties) / rollouts, t = (double)ties / rollouts;
        out[d] = -w * x + t * pot / 2.0 + (1.0 - w - t) * (pot + x) > 0.0;
        calls += out[d];
    }
    return calls;
}
"""


@dataclass(frozen=True)
class Peer:
    """The compiled loops, or why there are none."""

    library: ctypes.CDLL | None
    source: str  # where OMPEval's files came from, or the reason it could not be built


def _sources(cache: Path) -> Path:
    folder = cache / "ompeval_src"
    if all((folder / name).exists() for name in _SOURCES):
        return folder
    sdists = sorted(cache.glob("omp_wrapper-*.tar.gz"))
    if not sdists:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:",
                        SDIST, "-d", str(cache)], check=True, capture_output=True, timeout=600)
        sdists = sorted(cache.glob("omp_wrapper-*.tar.gz"))
    tmp = cache / "ompeval_src.tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    with tarfile.open(sdists[-1]) as sdist:
        for member in sdist.getmembers():
            if member.isfile() and "/src/omp_wrapper/" in member.name and Path(member.name).name in _SOURCES:
                (tmp / Path(member.name).name).write_bytes(sdist.extractfile(member).read())
    missing = [name for name in _SOURCES if not (tmp / name).exists()]
    if missing:
        raise FileNotFoundError(f"{sdists[-1].name} lacks {', '.join(missing)}")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    return folder


def build(cache: Path) -> Peer:
    """OMPEval's evaluator and our loops around it as a shared library (built once per cache)."""
    try:
        src = _sources(cache)
        digest = hashlib.sha256(" ".join(_FLAGS).encode() + _LOOPS_CPP.encode()
                                + (src / "HandEvaluator.cpp").read_bytes()).hexdigest()[:12]
        lib = cache / f"omp_loops_{digest}.so"
        if not lib.exists():
            loops = cache / f"omp_loops_{digest}.cpp"
            loops.write_text(_LOOPS_CPP)
            tmp = lib.with_suffix(".so.tmp")
            subprocess.run(["g++", *_FLAGS, f"-I{src}", "-o", str(tmp), str(loops), str(src / "HandEvaluator.cpp")],
                           check=True, capture_output=True, timeout=600)
            tmp.rename(lib)
    except (OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        return Peer(None, f"OMPEval peer not built: {exc} {detail.decode(errors='replace')[-300:]}".strip())
    library = ctypes.CDLL(str(lib))
    library.omp_eval_loop.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
    library.omp_bob_calls.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
    library.omp_bob_calls.restype = ctypes.c_long
    return Peer(library, f"OMPEval's HandEvaluator from the {SDIST} sdist, g++ -O3 -march=native")


def omp_cards(cards: np.ndarray) -> np.ndarray:
    """Engine card ints (suit * 13 + rank) as OMPEval's (4 * rank + suit), uint8, C order."""
    return np.ascontiguousarray((cards % 13) * 4 + cards // 13, dtype=np.uint8)
