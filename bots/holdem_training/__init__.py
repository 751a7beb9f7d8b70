"""Hold'em Training bots: checker and rate_equity baselines, and the exploit bot."""

from bots.base import BotSpec
from bots.holdem_training.exploit import ExploitBot, ExploitConfig
from bots.holdem_training.simple import CheckerBot, CheckerConfig, RateEquityBot, RateEquityConfig

BOTS: dict[str, BotSpec] = {
    "checker": BotSpec("checker", CheckerConfig, CheckerBot, "always checks (+10/+5/0 per hand)"),
    "rate_equity": BotSpec("rate_equity", RateEquityConfig, RateEquityBot,
                           "raises a stack fraction when the judge's RATE win rate passes a threshold"),
    "exploit": BotSpec("exploit", ExploitConfig, ExploitBot,
                       "best response to Bob's noisy call rule with a posterior over his holdings"),
}
