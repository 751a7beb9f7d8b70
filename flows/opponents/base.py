"""What every game's opponent fitter returns and how a fitted model becomes a seat.

A game opts in by naming a module in `GameSpec.opponent_model` (e.g. "flows.opponents.splendor").
That module provides two functions:

    fit(con, player, *, matches=None, files=(), seed=1, holdout=0.2) -> FittedModel
        con: a read-only DuckDB connection to the hand log; player: the name to model (a league
        entrant, a bot, or a name in imported histories); matches: hand-log match ids to read
        (None: every match where the player sat); files: outside histories (PHH files, arbiter
        records) when the game reads them. Decisions are split into fit and held-out parts by a
        hash of the seed and what identifies the deal (a game's deal seed and unit, a history's
        content and place), never the match id, so the same games logged again, or a refit, split
        alike, and no global RNG is used.

    seat(params) -> (BotSpec, config)
        a bot (bots layer, no duckdb) that plays the fitted model: `params` is exactly
        `FittedModel.params`, read back from the model file; deterministic per seed.

flows/opponents/__init__.py stores a FittedModel (the `opponent_models` table plus the model file as
an MLflow artifact) and resolves `model:ID` seats through `seat`.
"""

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Calibration:
    """One situation's predicted against observed action frequencies on held-out decisions."""

    situation: str
    decisions: int
    predicted: dict[str, float]
    observed: dict[str, float]


@dataclass(frozen=True)
class FittedModel:
    game: str
    player: str
    method: str  # e.g. "population+deviation", "conditional-logit", "em"
    params: dict[str, Any]  # JSON-serialisable: this is the model file
    decisions: int  # decisions the fit used (held-out ones excluded)
    heldout_decisions: int
    heldout_logloss: float  # mean negative log-likelihood per held-out decision, natural log
    baseline_logloss: float  # the population (or prior) model on the same held-out decisions
    uniform_logloss: float  # uniform over the legal actions on the same held-out decisions
    sources: tuple[str, ...] = ()  # match ids or file names the decisions came from
    calibration: tuple[Calibration, ...] = field(default_factory=tuple)
    data: str = ""  # a digest of the decisions fitted (their deals and content), not of where they were logged
