"""The search bot: ISMCTS over determinised deals with numba playouts (see _kernels.py)."""

import time
from dataclasses import dataclass

import numpy as np

from bots.base import Ranged, ranged, seed_field
from bots.splendor import _kernels as MK
from bots.splendor.simple import SeededBot
from bots.splendor.view import determinise
from engine.core.errors import BadValue
from engine.splendor import fast
from engine.splendor import state as st
from engine.splendor.protocol import Observation

BATCH = 64  # iterations per kernel call between clock checks
MAX_NODES = 4_000_000  # 56 bytes a node: the tree stays under 250 MB


@dataclass(frozen=True)
class MctsConfig(Ranged):
    time_ms: int = ranged(1000, 0, 60_000)  # per move (the contest allows 11 s); ignored when iterations > 0
    iterations: int = ranged(0, 0, 100_000_000)  # a fixed count instead of a clock (reproducible runs)
    determinisations: int = ranged(16, 1, 1024)  # sampled deals: at most this many outcomes per chance event
    exploration: float = ranged(0.7, 0.0, 100.0)
    playout_turns: int = ranged(24, 0, 1000)  # turns of playout before the cut-off evaluation
    greedy_buy: float = ranged(0.6, 0.0, 1.0)  # playout: chance to buy the best affordable card when one exists
    cutoff_scale: float = ranged(3.0, 0.0, 100.0, lo_open=True)  # logistic scale of the cut-off evaluation, in points
    nodes: int = ranged(400_000, 16, MAX_NODES)  # tree capacity
    seed: int = seed_field(0)

    def __post_init__(self):
        super().__post_init__()
        if self.time_ms <= 0 and self.iterations <= 0:
            raise BadValue("set time_ms > 0 or iterations > 0")


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
