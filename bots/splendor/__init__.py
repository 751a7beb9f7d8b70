"""Splendor bots. Each sees only the contest's stdin (an Observation) and answers with stdout text."""

from bots.base import BotSpec
from bots.splendor.mcts import MctsBot, MctsConfig
from bots.splendor.simple import GreedyBot, GreedyConfig, RandomBot, RandomConfig

BOTS: dict[str, BotSpec] = {
    "random": BotSpec("random", RandomConfig, RandomBot, "uniform over legal actions, random returns"),
    "greedy": BotSpec("greedy", GreedyConfig, GreedyBot, "one-ply search over a linear evaluation"),
    "mcts": BotSpec("mcts", MctsConfig, MctsBot, "ISMCTS over sampled deals with numba playouts"),
}
