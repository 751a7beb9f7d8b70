"""The player's safe strategy (issue 31): CFR+ on the two-player game, checked exactly.

The vector pass is checked against the best-response kernel written independently of it
(engine/twocarddraw/_kernels.py), which plays the slow twin here: same values for a pure
player policy, same best-response value. A small bet pair and a few hundred iterations."""

import numpy as np
import pytest

from engine.core import seeds
from engine.twocarddraw import best_response as B
from engine.twocarddraw import equilibrium as E
from engine.twocarddraw import rules as R
from engine.twocarddraw.strategy import Strategy

BETS = R.BetSizes(1, 2)


def random_server(seed: int) -> np.ndarray:
    rng = seeds.generator(seeds.unit_key(seeds.match_key(seed), 0, seeds.Purpose.OPPONENT))
    weights = rng.exponential(size=(R.N_ROWS, 3)) * E.SERVER_MASK
    return weights / weights.sum(axis=1, keepdims=True)


def random_player(seed: int) -> np.ndarray:
    rng = seeds.generator(seeds.unit_key(seeds.match_key(seed), 1, seeds.Purpose.BOT))
    weights = rng.exponential(size=(R.N_PLAYER_ROWS, 3)) * E.PLAYER_MASK
    return weights / weights.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def solved():
    solver = E.Solver(BETS)
    early = solver.run(40).result()
    late = solver.run(360).result()
    return early, late


def test_the_vector_pass_agrees_with_the_best_response_kernel():
    server = random_server(5)
    strategy = Strategy(BETS, server)
    br = B.best_response(strategy)
    assert E.player_best_response(BETS, server) == pytest.approx(br.value, abs=1e-12)
    assert E.value(BETS, E.one_hot(br.policy), server) == pytest.approx(br.value, abs=1e-12)
    other = np.array(br.policy)
    other[R.player_round1_row(0, 3)] = 3 - other[R.player_round1_row(0, 3)]  # swap check and bet with 0-3
    assert E.value(BETS, E.one_hot(other), server) == pytest.approx(B.policy_value(strategy, other), abs=1e-12)


def test_the_server_best_response_is_no_worse_for_it_than_any_strategy():
    player = random_player(7)
    floor = E.server_best_response(BETS, player)
    for seed in range(4):
        assert floor <= E.value(BETS, player, random_server(seed)) + 1e-12
    assert floor < E.value(BETS, player, random_server(0)) - 1e-3


def test_cfr_plus_converges_and_brackets_the_game_value(solved):
    early, late = solved
    for eq in (early, late):
        assert eq.server_br <= E.value(BETS, eq.player, eq.server) <= eq.player_br
    assert late.exploitability < early.exploitability / 4
    assert late.exploitability < 0.01
    rows = (E.PLAYER_MASK == 0) & (late.player > 0)
    assert not rows.any()  # the player never folds for free nor raises at the cap
    assert np.allclose(late.player.sum(axis=1), 1.0) and np.allclose(late.server.sum(axis=1), 1.0)


def test_the_safe_strategy_earns_the_game_value_against_any_constrained_server(solved):
    _, eq = solved
    servers = [random_server(11), B.generate(BETS, steps=3_000, seed=4).strategy.probs,
               E.SERVER_MASK / E.SERVER_MASK.sum(axis=1, keepdims=True)]
    for server in servers:
        assert E.value(BETS, eq.player, server) >= eq.value - eq.exploitability - 1e-9
    # and the server's own equilibrium half holds the player's best response near the value
    assert E.player_best_response(BETS, eq.server) <= eq.value + eq.exploitability + 1e-9
