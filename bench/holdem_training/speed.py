"""Speed measurements for `cardlab bench holdem-training ...` (figures, never timed tests).

The evaluator's peers: OMPEval's HandEvaluator (C++, built here from the omp-wrapper sdist:
bench/holdem_training/omp_peer.py), and phevaluator's compiled C function ``evaluate_7cards``
as shipped in the installed phevaluator wheel (its ``_pheval`` extension exports the C
symbol), called through a function pointer from a tiny C loop compiled here with gcc. All
loops run over the same random hands our numba loop evaluates, into outputs allocated
before the clock starts, so no side pays Python overhead or first-touch page faults.
"""

import ctypes
import hashlib
import os
import resource
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench.holdem_training import omp_peer
from engine.core import hand_eval, seeds
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


def random_hands(count: int, *, seed: int, size: int = 7) -> np.ndarray:
    """count random sets of `size` (<= 9) distinct cards, each in random order, as an (n, size)
    array: the first cards of the judge's own seeded deals (uniform shuffles of the deck)."""
    if not 1 <= size <= _kernels.DEALT:
        raise ValueError(f"size must be in 1..{_kernels.DEALT}, got {size}")
    key = np.uint64(seeds.match_key(seed))
    _, cards, _, _ = _kernels.deal_chunk(key, 0, count, np.uint64(int(seeds.Purpose.DEAL)),
                                         np.uint64(int(seeds.Purpose.OPPONENT)))
    return np.ascontiguousarray(cards[:, :size])


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


def _timed(run) -> tuple[float, float]:
    """(wall seconds, this thread's CPU seconds) of one call."""
    wall, cpu = time.perf_counter(), time.thread_time()
    run()
    return time.perf_counter() - wall, time.thread_time() - cpu


def _faults(run) -> int:
    """Minor page faults this thread takes during one call (memory touched for the first time)."""
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    run()
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before


@dataclass(frozen=True)
class Measure:
    """Rates by wall clock and by this thread's CPU time (on a shared machine the CPU figure
    is the one that says what one core does; both are printed)."""

    label: str
    wall_per_second: float
    cpu_per_second: float
    detail: str


def _measure(label: str, detail: str, run, count: int, repeats: int) -> Measure:
    best_wall, best_cpu = float("inf"), float("inf")
    for _ in range(repeats):
        wall, cpu = _timed(run)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    return Measure(label, count / best_wall, count / max(best_cpu, 1e-9), detail)


# The figures (issue 20, measured on this machine): printed only when the OMPEval peer
# cannot be built in the run, and then labelled as stated, not measured.
STATED_ANCHORS = tuple(f"stated in issue 20, NOT measured in this run: {figure}" for figure in (
    "OMPEval HandEvaluator (g++ -O3 -march=native, hand built from 7 cards in the loop) 212 M evals/s",
    "an OMPEval-parts loop for Bob's decisions (100 rollouts each) 786,000 decisions/s"))


@dataclass(frozen=True)
class EvaluatorRun:
    count: int
    measures: tuple[Measure, ...]
    anchors: tuple[str, ...]  # stated figures, when a peer could not be measured in this run


def evaluator_measures(*, count: int = 4_000_000, seed: int = 1, repeats: int = 3, omp: bool = True) -> EvaluatorRun:
    """Ours, OMPEval (if it builds here) and phevaluator (if installed), measured alternately over
    the same hands; every output is allocated (and touched) before the timing."""
    hands = random_hands(count, seed=seed).astype(np.uint8)
    out = np.zeros(count, np.uint16)
    hand_eval.evaluate_into(hands[:10], out[:10])  # compile or load from cache outside the timing
    runs = [("numba hand_value7", "engine.core.hand_eval.evaluate_into: hand_value7 inlined in a numba loop over "
             "an (n, 7) uint8 array into a preallocated uint16 array", lambda: hand_eval.evaluate_into(hands, out))]
    anchors: tuple[str, ...] = ()
    if omp:
        peer = omp_peer.build(_cache_dir())
        if peer.library is None:
            anchors = (peer.source, *STATED_ANCHORS[:1])
        else:
            runs.append(_omp_runner(peer, hands))
    peer = _peer_runner(hands)
    if peer is not None:
        runs.append(peer)
    measures = _alternating(runs, count, repeats)
    faults = [_faults(run) for _, _, run in runs]
    return EvaluatorRun(count, tuple(Measure(m.label, m.wall_per_second, m.cpu_per_second,
                                             f"{m.detail}; {f:,} page faults per call")
                                     for m, f in zip(measures, faults, strict=True)), anchors)


def _omp_runner(peer: omp_peer.Peer, hands: np.ndarray):
    cards = omp_peer.omp_cards(hands)
    out = np.zeros(len(hands), np.uint16)
    loop = peer.library.omp_eval_loop
    return ("OMPEval HandEvaluator", f"{peer.source}: Hand::empty() + 7 cards, then evaluate, per row of the same "
            "hands as an (n, 7) uint8 array of its card ids, into a preallocated uint16 array",
            lambda: loop(cards.ctypes.data, len(cards), out.ctypes.data))


def _peer_runner(hands: np.ndarray):
    try:
        from importlib.metadata import version

        from phevaluator import _pheval
    except ImportError:
        return None
    evaluate = ctypes.cast(ctypes.CDLL(_pheval.__file__).evaluate_7cards, ctypes.c_void_p).value
    loop = _peer_loop_library().eval_loop
    loop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_void_p]
    peer_cards = np.ascontiguousarray((hands % 13) * 4 + hands // 13, dtype=np.int32)  # rank*4+suit
    out = np.zeros(len(hands), np.int32)
    detail = (f"phevaluator {version('phevaluator')}: the wheel's compiled C evaluate_7cards "
              f"({Path(_pheval.__file__).name}), called through a function pointer from a gcc -O2 C loop "
              "over the same hands as an (n, 7) int32 array of its card ids (its API's type)")
    return ("phevaluator C evaluate_7cards", detail,
            lambda: loop(evaluate, peer_cards.ctypes.data, len(hands), out.ctypes.data))


def _alternating(runs, count: int, repeats: int) -> list[Measure]:
    """Best wall and CPU rate of each (label, detail, run), taking turns so all see the same load."""
    best = {label: [float("inf"), float("inf")] for label, _, _ in runs}
    for _ in range(repeats):
        for label, _, run in runs:
            wall, cpu = _timed(run)
            best[label] = [min(best[label][0], wall), min(best[label][1], cpu)]
    return [Measure(label, count / best[label][0], count / max(best[label][1], 1e-9), detail)
            for label, detail, _ in runs]


@dataclass(frozen=True)
class EquityRun:
    measures: tuple[Measure, ...]
    anchors: tuple[str, ...]  # stated figures, when a peer could not be measured in this run


def equity_measures(*, decisions: int = 200_000, seed: int = 1, repeats: int = 3,
                    peer_decisions: int | None = None, omp: bool = True) -> EquityRun:
    """Bob's call decisions (100 rollouts each), a quarter at each street: the numba kernel in
    a batch loop, OMPEval's evaluator in a C++ loop sampling exactly the same way (if it builds
    here; its answers must equal ours), the numba kernel through one Python call per decision
    (as the judge calls it), and a plain-Python peer that samples alike and evaluates with eval7."""
    per_street = decisions // 4
    if peer_decisions is None:  # the plain-Python peer is ~1000x slower: a sample is enough
        peer_decisions = max(4, min(200, decisions // 1000))
    key = np.uint64(seeds.match_key(seed))
    _, cards, _, stream_keys = _kernels.deal_chunk(key, 0, per_street, np.uint64(int(seeds.Purpose.DEAL)),
                                                   np.uint64(int(seeds.Purpose.OPPONENT)))
    _kernels.bob_calls_many(stream_keys[:2], cards[:2], 3, 10, 5, 100)
    ours = {}

    def batch():
        for known in (0, 3, 4, 5):
            ours[known] = _kernels.bob_calls_many(stream_keys, cards, known, 10, 5, 100)

    runs = [("numba bob_calls, batch loop", "100 rollouts per decision; streets 0/3/4/5 known cards", batch)]
    anchors: tuple[str, ...] = ()
    theirs = {known: np.zeros(per_street, np.uint8) for known in (0, 3, 4, 5)}
    if omp:
        peer = omp_peer.build(_cache_dir())
        if peer.library is None:
            anchors = (peer.source, *STATED_ANCHORS[1:])
        else:
            rows = np.ascontiguousarray(cards, dtype=np.uint8)
            keys = np.ascontiguousarray(stream_keys, dtype=np.uint64)
            decide = peer.library.omp_bob_calls

            def omp_batch():
                for known in (0, 3, 4, 5):
                    decide(rows.ctypes.data, keys.ctypes.data, per_street, known, 10, 5, 100,
                           theirs[known].ctypes.data)

            runs.append(("OMPEval-parts C++ loop", f"{peer.source}; same sampling and rule in C++", omp_batch))
    out = _alternating(runs, 4 * per_street, repeats)
    if len(runs) > 1:
        same = all(np.array_equal(ours[k], theirs[k].astype(bool)) for k in ours)
        out[1] = Measure(out[1].label, out[1].wall_per_second, out[1].cpu_per_second,
                         f"{out[1].detail}; answers equal to ours on every decision: {'yes' if same else 'NO'}")
    stream = np.zeros(1, np.uint64)
    rows_one = list(cards[: per_street // 10])

    def one_by_one():
        for known in (0, 3, 4, 5):
            for row in rows_one:
                _kernels.bob_calls(stream, row, known, 10, 5, 100)

    out.append(_measure("numba bob_calls, one Python call each", "as the judge calls it, dispatch included",
                        one_by_one, 4 * len(rows_one), repeats))
    peer = _eval7_decisions(cards[: max(1, peer_decisions // 4)])
    if peer is not None:
        out.append(_measure("Python + eval7 peer", "same rule, Python sampling, eval7.evaluate per hand",
                            peer, 4 * max(1, peer_decisions // 4), 1))
    return EquityRun(tuple(out), anchors)


def _eval7_decisions(cards: np.ndarray):
    try:
        import eval7
    except ImportError:
        return None
    from engine.core.cards import card_name

    deck = [eval7.Card(card_name(c)) for c in range(52)]
    rng = seeds.generator(seeds.match_key(0))

    def run():
        for row in cards.tolist():
            for known in (0, 3, 4, 5):
                bob, board = row[2:4], row[4:4 + known]
                unseen = [c for c in range(52) if c not in bob and c not in board]
                score = 0
                for _ in range(100):
                    draw = rng.choice(unseen, 7 - known, replace=False).tolist()
                    full = board + draw[2:]
                    b = eval7.evaluate([deck[c] for c in bob + full])
                    a = eval7.evaluate([deck[c] for c in draw[:2] + full])
                    score += 2 * (10 + 5) if b > a else 10 if a == b else -2 * 5
                _ = score > 0

    return run


class RaiseOne:
    """The judge benchmark's bot: RAISE 1 every round, so Bob's Monte Carlo runs every round."""

    def start_match(self, hands: int, rate_budget: int) -> None:
        from engine.holdem_training.rules import RAISE, Action

        self._action = Action(RAISE, 1)

    def act(self, view, rate):
        return self._action

    def observe(self, view, action, response) -> None:
        pass

    def end_hand(self, hand: int, delta: int) -> None:
        pass


def judge_measure(*, hands: int = 10_000, seed: int = 1, repeats: int = 3) -> tuple[Measure, object]:
    """In-process hands per second over a whole match with the raise-1 bot (one thread)."""
    from engine.holdem_training import judge

    judge.play_match(RaiseOne(), seed=seed, hands=20)  # compile or load kernels outside the timing
    results = []

    def run():
        results.append(judge.play_match(RaiseOne(), seed=seed, hands=hands))

    measure = _measure("in-process judge, RAISE 1 bot", f"{hands:,}-hand match; Bob's 100 rollouts each round",
                       run, hands, repeats)
    return measure, results[-1]
