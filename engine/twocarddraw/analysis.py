"""How close an estimated server strategy is to the truth, in the units that matter.

Reach weights: the probability that the server meets each situation (hand included) when the
true server plays a player who picks uniformly among its legal actions, so every situation
counts in proportion to how often it can come up. Value lost: what best-responding to the
estimate instead of the truth costs per hand against the truth.
"""

from dataclasses import dataclass

import numpy as np

from engine.twocarddraw import rules as R
from engine.twocarddraw.best_response import best_response, policy_value
from engine.twocarddraw.strategy import Strategy


def situation_reach(strategy: Strategy) -> np.ndarray:
    """(N_ROWS,) reach of every server row against a uniformly random player."""
    w, t = R.DEAL_PROB, R.DRAW_TRANSITION
    reach = np.zeros(R.N_ROWS)
    s1 = strategy.round1
    open_ = w / 2  # the player checks or bets
    r1 = reach[: R.DRAW_BASE].reshape(4, R.N_HANDS)
    r1[0], r1[1] = open_, open_
    r1[2] = open_ * s1[0, :, 2] / 3  # the player re-raises one time in three
    r1[3] = open_ * s1[1, :, 2] / 3
    rho1 = np.stack([
        open_ * s1[0, :, 1], open_ * s1[0, :, 2] / 3, r1[2] * s1[2, :, 1], r1[2] * s1[2, :, 2] / 2,
        open_ * s1[1, :, 1], open_ * s1[1, :, 2] / 3, r1[3] * (s1[3, :, 1] + s1[3, :, 2]),
    ])
    draw_reach = np.repeat(rho1[:, None, :] / 3, 3, axis=1)  # (history, player drew, hand)
    reach[R.DRAW_BASE : R.ROUND2_BASE] = draw_reach.ravel()
    mass = draw_reach[..., None] * strategy.draw  # (history, player drew, hand, server drew)
    rho2 = np.einsum("odhs,shk->odsk", mass, t)  # over the server's post-draw hand
    s2 = strategy.round2
    r2 = reach[R.ROUND2_BASE :].reshape(R.N_HISTORIES, 3, 3, 4, R.N_HANDS)
    r2[..., 0, :] = rho2 / 2
    r2[..., 1, :] = rho2 / 2
    r2[..., 2, :] = rho2 / 2 * s2[..., 0, :, 2] / 3
    r2[..., 3, :] = rho2 / 2 * s2[..., 1, :, 2] / 3
    return reach


@dataclass(frozen=True)
class FitQuality:
    weighted_error: float  # reach-weighted mean total-variation distance per situation
    max_error_reached: float  # worst total-variation distance among rows with reach > 1e-4
    value_lost: float  # best response to truth minus the truth-value of the best response to the fit
    truth_value: float


def fit_quality(fit: Strategy, truth: Strategy) -> FitQuality:
    if fit.bets != truth.bets:
        raise ValueError(f"fit is for {fit.bets}, truth for {truth.bets}")
    weights = situation_reach(truth)
    tv = 0.5 * np.abs(fit.probs - truth.probs).sum(axis=1)
    reached = weights > 1e-4
    best = best_response(truth).value
    lost = best - policy_value(truth, best_response(fit).policy)
    return FitQuality(
        float((weights * tv).sum() / weights.sum()), float(tv[reached].max()) if reached.any() else 0.0,
        float(lost), best,
    )
