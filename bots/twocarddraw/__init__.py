"""TwoCardDraw bots: BOTS maps a name to its spec (typed config + factory)."""

from dataclasses import dataclass

from bots.base import BotSpec, Ranged, empty_or_file, one_of, ranged, seed_field, validated
from bots.twocarddraw.dbr import DataBiasedBot
from bots.twocarddraw.learner import LearnerBot
from bots.twocarddraw.mixture import MixtureLearnerBot
from bots.twocarddraw.prior import DEFAULT_BANK_SEED
from bots.twocarddraw.robust import DEFAULT_ITERATIONS, RobustBot
from bots.twocarddraw.simple import OracleBot, PriorBestResponseBot, SampleBot
from engine.core.errors import BadValue


@dataclass(frozen=True)
class NoConfig:
    pass


STRATEGY_FILE = "'' (the judge reveals the server's strategy) or an existing strategy file"


@dataclass(frozen=True)
class OracleConfig(Ranged):
    strategy: str = validated("", empty_or_file, STRATEGY_FILE)  # the true strategy file


@dataclass(frozen=True)
class PriorConfig(Ranged):
    prior_count: int = ranged(16, 1, 256)  # strategies in the bank generated for the test's bet sizes (each takes
    prior_seed: int = seed_field(DEFAULT_BANK_SEED)  # up to 200,000 generator steps to build)


@dataclass(frozen=True)
class LearnerConfig(PriorConfig):
    prior_scale: float = ranged(1.0, 0.0, 1000.0, lo_open=True)  # multiplies the bank-matched Dirichlet strength
    strength_min: float = ranged(1.0, 0.0, 1e6, lo_open=True)  # per row
    strength_max: float = ranged(200.0, 0.0, 1e6, lo_open=True)
    resolve_every: int = ranged(1, 1, 1_000_000)  # hands between best-response re-solves

    def __post_init__(self):
        super().__post_init__()
        if self.strength_max < self.strength_min:
            raise BadValue(f"need strength_min <= strength_max, got {self.strength_min} > {self.strength_max}")


@dataclass(frozen=True)
class MixtureConfig(Ranged):
    prior_seed: int = seed_field(DEFAULT_BANK_SEED)
    buckets: int = ranged(4, 1, 16)  # step-count buckets, log-spaced over 10,000..200,000
    bucket_count: int = ranged(12, 2, 256)  # strategies generated per bucket (offline, cached)
    step_prior: str = one_of("uniform", ("uniform", "log"))  # prior over the step count
    bank_readings: str = one_of("default", ("default", "mixed", "both"))  # generator readings of the banks' members;
    # "both": each step bucket once per family (default, mixed), half the prior each: the evidence picks the family
    both_play: str = one_of("all", ("all", "default"))  # with "both": the posterior the mixture's own play follows,
    # all of it or the default family's; the whole posterior still decides gate_top / dbr_top (and dbr's response)
    both_share: float = ranged(0.5, 0.0, 1.0, lo_open=True, hi_open=True)  # with "both": the mixed family's share of
    # the prior (0.5: an even split)
    both_counts: str = one_of("play", ("play", "default"))  # with "both": the posterior whose mean the online EM's
    # expected counts follow: the one the bot plays on, or always the default family's (dbr's response acting or not)
    beyond: int = ranged(0, 0, 4)  # extra buckets past 200,000 steps (same log width: 200k-423k, ...)
    beyond_weight: float = ranged(0.2, 0.0, 1.0, lo_open=True, hi_open=True)  # their share of the step prior
    prior_scale: float = ranged(2.0, 0.0, 1000.0, lo_open=True)  # multiplies the bank-matched Dirichlet strength
    # (2 beat 1 on 3 tuning servers, 105-107, outside the benchmark's set)
    strength_min: float = ranged(1.0, 0.0, 1e6, lo_open=True)  # per row
    strength_max: float = ranged(200.0, 0.0, 1e6, lo_open=True)
    strength_levels: int = ranged(1, 1, 5)  # prior strengths per bucket, weighed by the evidence like the buckets:
    strength_ratio: float = ranged(4.0, 1.0, 1000.0)  # prior_scale x ratio^(k - (levels - 1) / 2), k < levels
    explore: str = one_of("none", ("none", "thompson"))  # best response to the mean, or to a posterior draw
    thompson_scale: float = ranged(1.0, 0.0, 1e6, lo_open=True)  # concentration multiplier of a posterior draw
    explore_seed: int = seed_field(0)
    resolve_every: int = ranged(1, 1, 1_000_000)  # hands between best-response re-solves
    reweigh_every: int = ranged(25, 1, 1_000_000)  # hands between step-bucket reweighings
    bucket_weigh: str = one_of("counts", ("counts", "marginal", "bank"))  # the components' evidence: Dirichlet-
    # multinomial on the EM's counts (hidden cards guessed under the leading model, which then keeps the lead:
    # heldout2 11), or each hand's probability, hidden cards summed out, under each component's posterior mean
    # ("marginal") or its bank mean alone ("bank"; issue 31)
    refit_every: int = ranged(0, 0, 1_000_000)  # hands between batch EM passes over all hands (0: never)
    hedge_scale: float = ranged(0.0, 0.0, 1.0, hi_open=True)  # 0: off (not adopted); else a 2nd posterior, prior this
    # much weaker, and the best response of the two with the smaller worst regret is played (minimax regret)
    gate_draws: int = ranged(8, 0, 64)  # 0: off; else posterior draws behind the evidence gate: a raise or bet of
    gate_share: float = ranged(0.9, 0.0, 1.0)  # the best response is played where this share of the draws' best
    gate_scale: float = ranged(1.0, 0.0, 1e6, lo_open=True)  # responses make it too, else gate_default; the draws'
    gate_every: int = ranged(25, 1, 1_000_000)  # concentration multiplier; hands between re-draws
    gate_top: float = ranged(0.9, 0.0, 1.0)  # the gate acts only while the sharpest step bucket (and any beyond)
    # holds this much of the posterior: against servers the banks span, raises pay and teach
    gate_default: str = one_of("safe", ("passive", "safe", "drawn"))  # a doubtful raise's replacement: call/check,
    # or the safe (CFR+) strategy's most likely action in that row. These gate defaults beat the gate off on held-out
    # servers, heldout3-5: +0.070 [+0.007, +0.134] per-server ratio (docs/twocarddraw-strength.md, 2026-11-28).
    # "drawn": the safe action, unless the gate's draws value the mean's doubtful bets (or raises) higher on average
    # (worse on tuning-far and sharp generated servers, as gate_bet_share=0.5: docs/twocarddraw-strength.md)
    gate_weigh: str = one_of("bets", ("bets", "both"))  # what "drawn" weighs: the round-2 bets alone, or the raises too
    gate_bet_share: float = ranged(-1.0, -1.0, 1.0)  # the share a round-2 bet needs (-1: gate_share, as raises)

    def __post_init__(self):
        super().__post_init__()
        if self.strength_max < self.strength_min:
            raise BadValue(f"need strength_min <= strength_max, got {self.strength_min} > {self.strength_max}")


@dataclass(frozen=True)
class RobustConfig(MixtureConfig):
    safe_hands: float = ranged(50.0, 0.0, 1e9)  # exploit weight n / (n + safe_hands) after n hands (0: always);
    # 50 beat 300 on tuning-far 0-3 (docs/twocarddraw-strength.md)
    eq_iterations: int = ranged(DEFAULT_ITERATIONS, 10, 100_000)  # CFR+ iterations of the cached safe strategy
    mix_seed: int = seed_field(0)  # the per-hand choice and the safe strategy's draws


@dataclass(frozen=True)
class DbrConfig(MixtureConfig):
    # Defaults chosen among 11 settings on the tuning servers only, then confirmed on heldout6, drawn for it: +0.056
    # [+0.006, +0.105] per-server ratio over the mixture, worse on none (docs/twocarddraw-strength.md, 2026-11-28)
    dbr_wmax: float = ranged(1.0, 0.0, 1.0)  # the model's largest weight at a server row
    dbr_k: float = ranged(2.0, 0.0, 1e9)  # weight dbr_wmax * n / (n + dbr_k) after n decisions counted at the row
    dbr_wmin: float = ranged(0.5, 0.0, 1.0)  # the weight with no decisions counted (then towards dbr_wmax)
    dbr_every: int = ranged(250, 1, 1_000_000)  # hands between re-solves
    dbr_iterations: int = ranged(300, 1, 100_000)  # CFR+ iterations per re-solve (warm-started; the first has 3x)
    dbr_top: float = ranged(0.9, 0.0, 1.0)  # 0: always respond; else only while the sharpest step bucket (and any
    # beyond) holds this much of the posterior, the mixture's own play otherwise
    dbr_span: int = ranged(1, 1, 16)  # the sharpest step buckets whose summed share dbr_top tests (1: the sharpest
    # alone); 2 adds the next one, where in-range order=random+accept=ties servers read (issue 31)
    dbr_open: str = one_of("counts", ("counts", "bank"))  # "bank": dbr_top is also tested on the components weighed
    # by each hand's likelihood under their bank means (bucket_weigh="bank"'s weights), the play and the response's
    # model left on the counts' posterior: against the lock that keeps the response shut (issue 31)
    dbr_lean: float = ranged(0.2, 0.0, 1.0)  # 0: off; else the response also plays, decided at each re-solve, while
    # it gives up this share of the mixture's modelled edge over the safe strategy (the edge resting on rows the data
    # do not pin down: in-range servers read as a milder step bucket, issue 31). 0.2: chosen on the tuning servers,
    # all three targets met on heldout14 (declared for it), +0.024 [+0.012, +0.035] per-server ratio over 0 on the
    # 224 held-out servers (docs/twocarddraw-strength.md)
    mix_seed: int = seed_field(0)  # the per-hand draws of a pure table from the response

    def __post_init__(self):
        super().__post_init__()
        if self.dbr_wmin > self.dbr_wmax:
            raise BadValue(f"need dbr_wmin <= dbr_wmax, got {self.dbr_wmin} > {self.dbr_wmax}")


BOTS: dict[str, BotSpec] = {
    "sample": BotSpec("sample", NoConfig, lambda c: SampleBot(), "the statement's sample: bet/raise only with 4-4"),
    "oracle": BotSpec("oracle", OracleConfig, OracleBot, "best response to the true strategy file (ceiling)"),
    "prior_br": BotSpec(
        "prior_br", PriorConfig, PriorBestResponseBot, "best response to the mean of generated strategies"
    ),
    "learner": BotSpec(
        "learner", LearnerConfig, LearnerBot, "online-EM Dirichlet model of the server, re-solved best response"
    ),
    "mixture": BotSpec(
        "mixture", MixtureConfig, MixtureLearnerBot,
        "online EM with a prior mixed over the generator's step count; optional posterior sampling",
    ),
    "robust": BotSpec(
        "robust", RobustConfig, RobustBot,
        "the mixture's best response, or the game's safe strategy (CFR+), exploiting more with the hands seen",
    ),
    "dbr": BotSpec(
        "dbr", DbrConfig, DataBiasedBot,
        "a data-biased response (CFR+): the mixture's posterior trusted per server row as far as the data go",
    ),
}
