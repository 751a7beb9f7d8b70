"""The numba engine against the reference engine: same seeded random games, same states."""

import numpy as np
import pytest

from engine.core.seeds import stream
from engine.splendor import _kernels as K
from engine.splendor import fast
from engine.splendor import state as st
from engine.splendor.rules import SplendorConfig


def play_both(deal_key: int, move_key: int, players: int) -> int:
    game = st.GameState.new(st.deal_from_key(deal_key, players), SplendorConfig(players=players))
    py_rng = stream(move_key)
    s = np.zeros(K.SIZE, dtype=np.int64)
    K.deal(s, stream(deal_key), players, np.zeros(10, dtype=np.int64))
    assert np.array_equal(fast.comparable(s), fast.comparable(fast.encode(game)))
    nb_rng = stream(move_key)
    codes, paid = np.zeros(K.NUM_CODES, dtype=np.int64), np.zeros(6, dtype=np.int64)
    turns = 0
    while not game.over:
        assert sorted(st.legal_codes(game)) == list(codes[:K.legal_codes(s, codes)])
        event = st.apply(game, st.random_move(game, py_rng))
        noble = K.random_turn(s, nb_rng, codes, paid)
        assert noble == event.noble
        assert np.array_equal(fast.comparable(s), fast.comparable(fast.encode(game))), f"turn {turns}"
        turns += 1
    return turns


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_kernel_games_match_the_reference_turn_by_turn(players):
    for g in range(3):
        play_both(1000 + g, 5000 + g * players, players)


def test_batch_of_random_games_matches_reference_scores():
    scores, turns = fast.random_games(seed=9, first=4, count=6, players=2)
    deals, moves = fast.game_keys(9, 4, 6)
    for g in range(6):
        game = st.GameState.new(st.deal_from_key(int(deals[g]), 2), SplendorConfig(players=2))
        rng = stream(int(moves[g]))
        count = 0
        while not game.over:
            st.apply(game, st.random_move(game, rng))
            count += 1
        assert turns[g] == count and list(scores[g]) == game.scores()
