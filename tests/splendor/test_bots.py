"""Bots answer legal moves from the stdin view alone; the search's move generator vs a twin."""

import numpy as np

from bots.splendor import BOTS
from bots.splendor import _kernels as MK
from bots.splendor.view import determinise, unseen_by_level
from engine.core.seeds import stream
from engine.splendor import _kernels as E
from engine.splendor import fast
from engine.splendor import state as st
from engine.splendor.protocol import render_input
from engine.splendor.rules import SplendorConfig


def positions(count: int, players: int = 2):
    """States along random games, every few turns."""
    out = []
    for g in range(count):
        game = st.GameState.new(st.deal_from_key(50 + g, players), SplendorConfig(players=players))
        rng = stream(g)
        turn = 0
        while not game.over:
            if turn % 7 == 3:
                out.append(game.copy())
            st.apply(game, st.random_move(game, rng))
            turn += 1
    return out


def search_codes_twin(game: st.GameState) -> list[int]:
    me = game.current
    room = 10 - sum(me.chips)
    size = min(3, sum(1 for c in range(5) if game.board[c]), room)
    codes = []
    for code in st.legal_codes(game):
        move = st.move_for_code(game, code)
        if code < st.CODE_TAKE_TWO:
            keep = size > 0 and len(move.colours) == size
        elif code < st.CODE_RESERVE_UP:
            keep = room >= 2
        elif code < st.CODE_RESERVE_BLIND:
            keep = room >= 1 or game.board[5] == 0
        elif code < st.CODE_BUY_UP:
            keep = False
        else:
            keep = True
        if keep:
            codes.append(code)
    return codes or [0]


def test_search_moves_match_the_python_twin_and_never_need_returns():
    out = np.zeros(MK.SEARCH_MOVE_CAP, dtype=np.int64)
    for game in positions(4, players=3):
        n = MK.search_codes(fast.encode(game), out)
        assert list(out[:n]) == search_codes_twin(game)
        for code in out[:n]:
            move = st.move_for_code(game, int(code))
            assert st.validate_move(game, move) == move  # legal with no returns


def test_determinise_keeps_what_the_seat_sees():
    for game in positions(2, players=2):
        obs = st.observe(game, 1 - game.seat)
        guess = determinise(obs, stream(3))
        assert render_input(st.observe(guess, obs.me)) == render_input(obs)
        assert sum(len(u) for u in unseen_by_level(obs)) == sum(obs.piles) + sum(
            1 for seat in obs.seats for c in seat.reserved if c < 0)


def test_fixed_iteration_search_is_reproducible_per_position():
    cfg = BOTS["mcts"].config_from(["iterations=300", "nodes=20000"])
    game = positions(1)[2]
    obs = st.observe(game, game.seat)
    answers = {BOTS["mcts"].make(cfg).act(obs) for _ in range(2)}
    assert len(answers) == 1


def playout_code_twin(game: st.GameState, rng, greedy_buy: float) -> int:
    from engine.core import _rng

    codes = search_codes_twin(game)
    if codes[-1] >= st.CODE_BUY_UP and _rng.uniform(rng) < greedy_buy:
        buys = [c for c in codes if c >= st.CODE_BUY_UP]
        points = [st.CARDS[st.move_for_code(game, c).card].points for c in buys]
        return buys[points.index(max(points))]
    return codes[_rng.below(rng, len(codes))]


def rewards_twin(game: st.GameState, over: bool, scale: float) -> list[float]:
    if over:
        won = st.winners(game)
        return [1.0 / len(won) if seat in won else 0.0 for seat in range(game.n)]
    value = [p.score + 0.4 * len(p.cards) for p in game.players]
    return [1.0 / (1.0 + np.exp(-(v - max(value[:i] + value[i + 1:])) / scale)) for i, v in enumerate(value)]


def test_playout_policy_and_rewards_match_their_twins():
    codes = np.zeros(MK.SEARCH_MOVE_CAP, dtype=np.int64)
    rewards = np.zeros(4)
    for game in positions(3, players=3):
        for p in (0.0, 0.7, 1.0):
            assert MK.playout_code(fast.encode(game), stream(11), codes, p) == playout_code_twin(game, stream(11), p)
        for over in (False, True):
            s = fast.encode(game)
            s[E.OVER] = int(over)
            MK.rewards_of(s, rewards, 3.0)
            assert np.allclose(rewards[:game.n], rewards_twin(game, over, 3.0))
