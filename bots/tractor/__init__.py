"""Tractor bots: `random` (legal plays at random) and `rule` (a simple rule-based player)."""

from bots.base import BotSpec
from bots.tractor.basic import RandomBot, RandomConfig, RuleBot, RuleConfig

BOTS: dict[str, BotSpec] = {
    "random": BotSpec("random", RandomConfig, RandomBot, "legal plays at random; leads every structure"),
    "rule": BotSpec("rule", RuleConfig, RuleBot, "cheap wins, safe discards, points to the partner"),
}
