"""bet_ev_most_live (issue 32): bet_ev acts only while at most this many stacks are live; 4 (the default) as before."""

import pytest

from bots.cg_holdem import BOTS
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn

SPEC = BOTS["ranged"]
BOARD = (0, 14, 30)  # a flop (engine ints)
HOLES = [h for h in COMBOS[::29] if not set(BOARD) & set(h)][:8]


def checked_to(hole, players: int, **config) -> str:
    """The bot's answer heads-up in the hand, checked to on the flop, 100 chips each in the pot, the opponent
    (seat 1, all hands in its range) seen folding to all of 1,000 bets; ``players`` seats, those past 2 folded
    preflop with chips behind (live stacks)."""
    setup = Setup(5, 10, 10, 2, 2400, 1, players, 0)
    b = SPEC.make(RangedConfig(**config))
    b.start(setup)
    b.new_game(11)
    for _ in range(1000):
        b.seen[1].count("fold_bet", True)
    b.ranges[1] = [1.0] * len(COMBOS)
    stacks, chips = (2300, 2300, *[2400] * (players - 2)), (100, 100, *[0] * (players - 2))
    turn = Turn(3, 1, stacks, chips, BOARD, hole, (), (), ("CHECK", "BET_10", "ALL-IN", "FOLD"))
    return b.decide(View(setup, turn, set(range(2, players))))


def answers(players: int, **config) -> list[str]:
    return [checked_to(h, players, **config) for h in HOLES]


def test_default_acts_at_any_count():
    assert RangedConfig().bet_ev_most_live == 4


@pytest.mark.parametrize("players", [3, 4])
def test_limited_to_two_it_answers_as_the_default_with_more_live(players):
    on, limited, default = answers(players, bet_ev=0.85), answers(players, bet_ev=0.85, bet_ev_most_live=2), \
        answers(players)
    assert on != default  # the view is one where bet_ev changes the answer
    assert limited == default
    assert on == answers(players, bet_ev=0.85, bet_ev_most_live=players)  # the limit met: it acts


def test_heads_up_in_the_game_it_acts_either_way():
    on = answers(2, bet_ev=0.85)
    assert on != answers(2)
    assert on == answers(2, bet_ev=0.85, bet_ev_most_live=2)
