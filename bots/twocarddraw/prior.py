"""A bank of generated server strategies per bet pair: what a bot may know before a test.

Top TopCoder entries precomputed per bet pair offline; we do the same and cache the bank's
per-row mean and variance on disk (the strategies come from seeds far from any test's).
"""

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core import cache_file
from engine.core.errors import MissingFile
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R

DEFAULT_BANK_SEED = 1_000_000


@dataclass(frozen=True, eq=False)
class Bank:
    bets: R.BetSizes
    mean: np.ndarray  # (N_ROWS, 3)
    var: np.ndarray  # (N_ROWS, 3) sample variance over the bank
    count: int

    def concentration(self, *, low: float, high: float) -> np.ndarray:
        """Per-row Dirichlet strength matching the bank's spread: var_a = m_a (1 - m_a) / (s + 1)."""
        spread = (self.mean * (1 - self.mean)).sum(axis=1)
        var = self.var.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            strength = np.where(var > 0, spread / np.maximum(var, 1e-12) - 1.0, high)
        return np.clip(strength, low, high)


def bank_steps(count: int) -> list[int]:
    """Step counts spread evenly over the statement's 10,000..200,000 range."""
    span = B.MAX_STEPS - B.MIN_STEPS
    return [B.MIN_STEPS + round(span * (j + 0.5) / count) for j in range(count)]


def cache_dir() -> Path:
    home = os.environ.get("CARDLAB_HOME") or str(Path(__file__).resolve().parents[2])
    return Path(home) / ".cache" / "twocarddraw"


def load_bank(bets: R.BetSizes, *, count: int = 16, seed: int = DEFAULT_BANK_SEED, build: bool = True,
              steps: list[int] | None = None, tag: str = "", readings: tuple[B.Reading, ...] = (B.Reading(),)) -> Bank:
    """`count` strategies with seeds seed.., steps spread over the statement's range (or `steps`,
    then `tag` names the set in the cache file); member j reads the generator as readings[j mod len]
    (the tag must name any set but the default reading)."""
    suffix = f"_{tag}" if tag else ""
    path = cache_dir() / f"bank_{bets.bet1}_{bets.bet2}_n{count}_s{seed}{suffix}.npz"
    member_steps = steps if steps is not None else bank_steps(count)
    if not build and not path.exists():
        raise MissingFile(f"no prior bank at {path}; build it with `cardlab twocarddraw bank`")

    def generate() -> dict[str, np.ndarray]:
        members = [B.generate(bets, steps=n, seed=seed + j, reading=readings[j % len(readings)]).strategy.probs
                   for j, n in enumerate(member_steps)]
        stack = np.stack(members)
        return {"mean": stack.mean(axis=0),
                "var": stack.var(axis=0, ddof=1) if count > 1 else np.zeros_like(stack[0])}

    def read(found: Path) -> Bank:
        with np.load(found) as data:
            return as_bank({"mean": data["mean"], "var": data["var"]})

    def as_bank(arrays: dict[str, np.ndarray]) -> Bank:
        return Bank(bets, arrays["mean"], arrays["var"], count)

    return cache_file.load_or_build(path, load=read, build=generate, convert=as_bank)


BANK_READINGS = {"default": (B.Reading(),), "mixed": B.READINGS}


def bucket_edges(buckets: int) -> np.ndarray:
    """Step-count bucket edges, evenly spaced in log steps over 10,000..200,000."""
    return np.geomspace(B.MIN_STEPS, B.MAX_STEPS, buckets + 1)


def load_step_banks(bets: R.BetSizes, *, buckets: int = 4, count: int = 12,
                    seed: int = DEFAULT_BANK_SEED, beyond: int = 0, readings: str = "default") -> list[Bank]:
    """One bank per step-count bucket: the generator's step count is one number shared by every
    row of a server, and it moves all rows together (few steps leave rows near their random
    start), so a learner can infer it and sharpen its prior on rows it never saw. `beyond` adds
    buckets of the same log width past 200,000 steps (servers nearer equilibrium than the statement
    says; the first `buckets` banks do not change). readings "mixed" cycles each bank's members over
    the generator's readings (B.READINGS: the statement is ambiguous, so the prior spans its readings)."""
    chosen = BANK_READINGS[readings]
    edges = bucket_edges(buckets)
    ratio = edges[1] / edges[0]
    edges = np.concatenate([edges, edges[-1] * ratio ** np.arange(1, beyond + 1)])
    banks = []
    for b in range(buckets + beyond):
        lo, hi = edges[b], edges[b + 1]
        steps = [round(lo * (hi / lo) ** ((j + 0.5) / count)) for j in range(count)]
        banks.append(load_bank(bets, count=count, seed=seed + 100_000 * (b + 1), steps=steps,
                               tag=f"b{b}of{buckets}" + ("" if readings == "default" else f"_{readings}"),
                               readings=chosen))
    return banks


def bank_pseudo_counts(bets: R.BetSizes, *, count: int = 16, seed: int = DEFAULT_BANK_SEED, low: float = 1.0,
                       high: float = 200.0, scale: float = 1.0) -> np.ndarray:
    """Dirichlet pseudo-counts (N_ROWS, 3): the bank's mean times its spread-matched strength."""
    bank = load_bank(bets, count=count, seed=seed)
    return bank.mean * (bank.concentration(low=low, high=high) * scale)[:, None]


class BankUser:
    """Mixin for bots whose config has prior_count/prior_seed: the judge calls prepare_offline
    before the test clock starts, as a real submission would have embedded its tables."""

    def prepare_offline(self, bet1: int, bet2: int) -> None:
        load_bank(R.BetSizes(bet1, bet2), count=self.config.prior_count, seed=self.config.prior_seed)
        B.compile_kernels(R.BetSizes(bet1, bet2))  # the best response these bots play by, compiled off the clock
