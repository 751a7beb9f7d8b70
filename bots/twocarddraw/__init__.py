"""TwoCardDraw bots: BOTS maps a name to its spec (typed config + factory)."""

from dataclasses import dataclass

from bots.base import BotSpec
from bots.twocarddraw.learner import LearnerBot
from bots.twocarddraw.prior import DEFAULT_BANK_SEED
from bots.twocarddraw.simple import OracleBot, PriorBestResponseBot, SampleBot


@dataclass(frozen=True)
class NoConfig:
    pass


@dataclass(frozen=True)
class OracleConfig:
    strategy: str = ""  # the true strategy file; when empty the judge reveals the server's strategy


@dataclass(frozen=True)
class PriorConfig:
    prior_count: int = 16  # strategies in the bank generated for the test's bet sizes
    prior_seed: int = DEFAULT_BANK_SEED

    def __post_init__(self):
        if self.prior_count < 1:
            raise ValueError("prior_count must be >= 1")


@dataclass(frozen=True)
class LearnerConfig(PriorConfig):
    prior_scale: float = 1.0  # multiplies the bank-matched Dirichlet strength per row
    strength_min: float = 1.0
    strength_max: float = 200.0
    resolve_every: int = 1  # hands between best-response re-solves

    def __post_init__(self):
        super().__post_init__()
        if self.prior_scale <= 0 or self.strength_min <= 0 or self.strength_max < self.strength_min:
            raise ValueError("need prior_scale > 0 and 0 < strength_min <= strength_max")
        if self.resolve_every < 1:
            raise ValueError("resolve_every must be >= 1")


BOTS: dict[str, BotSpec] = {
    "sample": BotSpec("sample", NoConfig, lambda c: SampleBot(), "the statement's sample: bet/raise only with 4-4"),
    "oracle": BotSpec("oracle", OracleConfig, OracleBot, "best response to the true strategy file (ceiling)"),
    "prior_br": BotSpec(
        "prior_br", PriorConfig, PriorBestResponseBot, "best response to the mean of generated strategies"
    ),
    "learner": BotSpec(
        "learner", LearnerConfig, LearnerBot, "online-EM Dirichlet model of the server, re-solved best response"
    ),
}
