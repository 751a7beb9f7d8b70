"""Random 2-player games per second on one core: the numba engine against the Python reference engine."""

import time
from dataclasses import dataclass

import numpy as np

from engine.core.seeds import stream
from engine.splendor import fast
from engine.splendor import state as st
from engine.splendor.rules import SplendorConfig

TARGET_GAMES_PER_SECOND = 20_000  # the target for the numba engine


@dataclass(frozen=True)
class Speed:
    games: int
    numba_cpu: float
    numba_wall: float
    turns_per_game: float
    total_turns: int
    peer_games: int
    peer_cpu: float
    peer_wall: float

    @property
    def games_per_cpu_second(self) -> float:
        return self.games / self.numba_cpu

    @property
    def peer_games_per_cpu_second(self) -> float:
        return self.peer_games / self.peer_cpu


def speed(*, games: int, peer_games: int, seed: int) -> Speed:
    fast.random_games(seed, 0, 10)  # compile / load the cache outside the timing
    deals, moves = fast.game_keys(seed, 0, games)
    scores = np.zeros((games, 2), dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    wall, cpu = time.perf_counter(), time.process_time()
    fast.K.random_games(deals, moves, 2, scores, turns)
    numba_wall, numba_cpu = time.perf_counter() - wall, time.process_time() - cpu
    wall, cpu = time.perf_counter(), time.process_time()
    for g in range(peer_games):
        game = st.GameState.new(st.deal_from_key(int(deals[g]), 2), SplendorConfig())
        rng = stream(int(moves[g]))
        while not game.over:
            st.apply(game, st.random_move(game, rng))
    return Speed(games=games, numba_cpu=numba_cpu, numba_wall=numba_wall, turns_per_game=float(turns.mean()),
                 total_turns=int(turns.sum()), peer_games=peer_games, peer_cpu=time.process_time() - cpu,
                 peer_wall=time.perf_counter() - wall)
