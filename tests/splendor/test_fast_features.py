"""The fast move features and greedy's evaluation (bots/splendor/clone.py, simple.py, the state's shortfall)
equal their slow twin (bench/splendor/features_reference.py: the code before the speed-up) exactly, on every
position of whole games played by greedy of several settings and random, with 2, 3 and 4 players."""

import struct

import pytest

from bench.splendor import features_reference as ref
from bots.splendor import clone, simple
from engine.splendor import state as st
from engine.splendor.rules import NUM_CARDS, SplendorConfig

GAMES = {2: (1, 3), 3: (2, 2), 4: (3, 2)}  # players: (seed, games); each count has a random seat, 4p game 1 a pile out
CONFIGS = (*[c for c in ref.PLAYERS if c is not None],
           simple.GreedyConfig(points=1.5, bonus=-3.0, chip=0.1, gold=-2.0, reserved=-4.0, target=0.3, noble=7.0))


def bits(x: float) -> bytes:
    return struct.pack("<d", x)  # tells 0.0 from -0.0


def noble_due(game: st.GameState) -> st.GameState:
    """The position with a noble already due to the mover (two nobles met by one purchase: one visits now,
    the other at the mover's next turn, whatever it does)."""
    game = game.copy()
    game.current.bonus = [max(b, 4) for b in game.current.bonus]
    assert st.visiting_noble(game)
    return game


@pytest.fixture(scope="module")
def positions():
    games = [g for players, (seed, count) in GAMES.items() for g in ref.positions(seed, count, players)]
    return games + [noble_due(g) for g in games[::40]]


def test_the_positions_hold_every_move_kind(positions):
    kinds = {clone.kind_of_code(c) for g in positions for c in st.legal_codes(g)}
    assert kinds == set(range(len(clone.KINDS)))
    assert any(c >= st.CODE_BUY_RESERVED for g in positions for c in st.legal_codes(g))
    assert any(sum(p.chips) == 10 for g in positions for p in g.players)  # moves with returns
    assert {g.n for g in positions} == set(GAMES)
    assert any(not g.piles[(c - st.CODE_RESERVE_UP) // 4] for g in positions for c in st.legal_codes(g)
               if st.CODE_RESERVE_UP <= c < st.CODE_RESERVE_BLIND)  # a reserve leaving its slot empty
    assert any(st.visiting_noble(g) for g in positions)  # a noble already due: every move is played ahead


def test_move_features_equal_the_slow_twin_bit_for_bit(positions):
    for game in positions:
        codes = st.legal_codes(game)
        assert clone.move_features(game, codes).tobytes() == ref.move_features(game, codes).tobytes()


def test_shortfall_and_affordability_are_unchanged(positions):
    for game in positions[::5]:
        for p in game.players:
            for card in range(1, NUM_CARDS + 1):
                assert p.shortfall(card) == ref.shortfall(p, card)
                assert p.can_afford(card) == ref.can_afford(p, card)
                assert simple.missing_for(p, card) == ref.missing_for(p, card)


def test_evaluate_is_unchanged_for_every_seat_and_setting(positions):
    for game in positions:
        for seat in range(game.n):
            for cfg in CONFIGS:
                assert bits(simple.evaluate(game, seat, cfg)) == bits(ref.evaluate(game, seat, cfg))


def test_greedy_returns_and_moves_are_unchanged(positions):
    """Every legal move's returns, and greedy's choice on every position of the games: default settings on
    each, the other settings on every other one."""
    for k, game in enumerate(positions):
        for code in st.legal_codes(game):
            move = st.move_for_code(game, code)
            assert simple.greedy_returns(game, move) == ref.greedy_returns(game, move)
        for cfg in CONFIGS if k % 2 == 0 else CONFIGS[:1]:
            assert simple.greedy_move(game, cfg) == ref.greedy_move(game, cfg)


def play(key: int, cfgs, greedy_move) -> tuple[list[st.Move], list[int]]:
    game = st.GameState.new(st.deal_from_key(key, len(cfgs)), SplendorConfig(players=len(cfgs)))
    moves = []
    while not game.over:
        moves.append(greedy_move(game, cfgs[game.seat]))
        st.apply(game, moves[-1])
    return moves, game.scores()


@pytest.mark.parametrize("key", [11, 12])
def test_whole_games_of_greedy_are_unchanged(key):
    for cfgs in (CONFIGS[:2], CONFIGS[1:4]):
        fast, slow = play(key, cfgs, simple.greedy_move), play(key, cfgs, ref.greedy_move)
        assert len(fast[0]) > 10 and fast == slow
