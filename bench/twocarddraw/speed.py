"""Best-response time and generator steps per second: the numba kernels against the vectorised numpy peer."""

import math
import time
from dataclasses import dataclass

from bench.twocarddraw import numpy_peer
from engine.twocarddraw.best_response import GENERATOR_EPS, Evaluator, generate
from engine.twocarddraw.rules import BetSizes


@dataclass(frozen=True)
class Speed:
    kernel_seconds: float  # thread CPU per best-response evaluation, numba
    peer_seconds: float  # the same with the numpy peer (one generator step costs one evaluation there)
    generator_steps_per_second: float
    steps: int


def speed(*, evals: int, steps: int) -> Speed:
    bets = BetSizes(2, 4)
    probs = generate(bets, steps=1_000, seed=1).strategy.probs
    evaluator = Evaluator(bets)
    evaluator.solve(probs)
    kernel_s = _per_call(lambda: evaluator.solve(probs, eps=GENERATOR_EPS), evals)
    peer_s = _per_call(lambda: numpy_peer.best_response_value(probs, bets, GENERATOR_EPS), max(evals // 10, 50))
    started = time.thread_time()
    generate(bets, steps=steps, seed=2)
    return Speed(kernel_seconds=kernel_s, peer_seconds=peer_s,
                 generator_steps_per_second=steps / (time.thread_time() - started), steps=steps)


def _per_call(fn, n: int) -> float:
    """Best of 3 of the mean thread CPU time per call (CPU time, since the machine is shared)."""
    best = math.inf
    for _ in range(3):
        started = time.thread_time()
        for _ in range(n):
            fn()
        best = min(best, (time.thread_time() - started) / n)
    return best
