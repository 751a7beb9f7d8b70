"""Small scripted players for the referee tests."""

from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.rules import GameConfig


class Scripted:
    """Answers ``rule(turn)``; records every turn it was shown."""

    def __init__(self, rule):
        self.rule = rule
        self.turns = []

    def start(self, setup):
        self.setup = setup

    def act(self, turn):
        self.turns.append(turn)
        return self.rule(turn)


def run(players, seed, rule, *, stacks=(), on_turn=None):
    bots = [Scripted(rule) for _ in range(players)]
    config = GameConfig(players=players, stacks=stacks)
    result = play_game([BotSeat(b) for b in bots], seed=seed, config=config, on_turn=on_turn)
    return result, bots


def min_raise(turn):
    return next(p for p in turn.possible if p.startswith("BET_"))
