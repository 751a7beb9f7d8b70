"""The search bot: ISMCTS over determinised deals with numba playouts (see _kernels.py)."""

import time
from dataclasses import dataclass

import numpy as np

from bots.splendor import _kernels as MK
from bots.splendor.simple import SeededBot
from bots.splendor.view import determinise
from engine.splendor import fast
from engine.splendor import state as st
from engine.splendor.protocol import Observation

BATCH = 64  # iterations per kernel call between clock checks


@dataclass(frozen=True)
class MctsConfig:
    time_ms: int = 1000  # per move; ignored when iterations > 0
    iterations: int = 0  # a fixed count instead of a clock (reproducible runs)
    determinisations: int = 16  # sampled deals: at most this many outcomes per chance event
    exploration: float = 0.7
    playout_turns: int = 24  # turns of playout before the cut-off evaluation
    greedy_buy: float = 0.6  # playout: chance to buy the best affordable card when one exists
    cutoff_scale: float = 3.0  # logistic scale of the cut-off evaluation, in points
    nodes: int = 400_000  # tree capacity
    seed: int = 0

    def __post_init__(self):
        if self.determinisations < 1 or self.nodes < 16:
            raise ValueError("determinisations must be >= 1 and nodes >= 16")
        if self.time_ms <= 0 and self.iterations <= 0:
            raise ValueError("set time_ms > 0 or iterations > 0")


@dataclass(frozen=True)
class SearchResult:
    codes: np.ndarray
    visits: np.ndarray
    values: np.ndarray
    iterations: int


def search(obs: Observation, cfg: MctsConfig, rng: np.ndarray, *, budget_s: float | None = None) -> SearchResult:
    """Iterations until the budget runs out (or cfg.iterations); the clock starts after the
    first batch, so loading the cached kernels in a fresh agent process does not eat it."""
    dets = np.stack([fast.encode(determinise(obs, rng)) for _ in range(cfg.determinisations)])
    tree = np.full((cfg.nodes, 6), -1, dtype=np.int64)
    tree[0, 4:] = 0
    value = np.zeros(cfg.nodes, dtype=np.float64)
    params = np.array([cfg.exploration, cfg.playout_turns, cfg.greedy_buy, cfg.cutoff_scale])
    n_nodes, done = 1, 0
    target = cfg.iterations if cfg.iterations > 0 else None
    deadline = None
    while True:
        batch = BATCH if target is None else min(BATCH, target - done)
        if batch <= 0:
            break
        n_nodes = MK.mcts(dets, done, batch, rng, tree, value, params, n_nodes)
        done += batch
        if deadline is None:
            deadline = time.perf_counter() + (budget_s or 0.0)
        if target is None and time.perf_counter() >= deadline:
            break
        if n_nodes >= cfg.nodes:
            break
    codes = np.zeros(MK.SEARCH_MOVE_CAP, dtype=np.int64)
    visits = np.zeros(MK.SEARCH_MOVE_CAP, dtype=np.int64)
    values = np.zeros(MK.SEARCH_MOVE_CAP, dtype=np.float64)
    n = MK.root_children(tree, value, codes, visits, values)
    return SearchResult(codes[:n], visits[:n], values[:n], done)


class MctsBot(SeededBot):
    def __init__(self, config: MctsConfig):
        super().__init__()
        self.config = config
        self.seed = config.seed

    def act(self, obs: Observation) -> str:
        result = search(obs, self.config, self.rng_for(obs), budget_s=self.config.time_ms / 1000.0)
        game = determinise(obs)
        if len(result.codes) == 0:
            return st.PASS.text()
        best = int(np.argmax(result.visits))
        move = st.move_for_code(game, int(result.codes[best]))
        self.kibitz = [f"iterations {result.iterations} visits {int(result.visits[best])} "
                       f"win {result.values[best]:.3f}"]
        return move.text()
