"""The learning bot: Dirichlet beliefs per server row, updated by online EM, best response to
the posterior mean.

Each finished hand adds expected counts: the server's hidden pre-draw and post-draw hands
get their posterior given the whole observed history (its moves, its draw count, its cards
if shown), under the current beliefs. The prior is the bank's mean with per-row strength
matched to the bank's spread. One hand visits each situation at most once, so a best
response to the posterior means is the Bayes-optimal play if we ignore exploration.
"""

import numpy as np

from bots.twocarddraw.prior import BankUser, bank_pseudo_counts
from bots.twocarddraw.tracker import Observation, PolicyBot
from engine.twocarddraw import rules as R
from engine.twocarddraw.best_response import Evaluator

HANDS = np.arange(R.N_HANDS)


class LearningBot(BankUser, PolicyBot):
    """A bot that learns from every finished hand (the judge replays it from hand 0 when resuming)."""

    learns_across_hands = True

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.hands_seen = 0


class LearnerBot(LearningBot):
    def on_init(self) -> None:
        c = self.config
        self.alpha = bank_pseudo_counts(self.bets, count=c.prior_count, seed=c.prior_seed, low=c.strength_min,
                                        high=c.strength_max, scale=c.prior_scale)
        self.alpha_sum = self.alpha.sum(axis=1)
        self.evaluator = Evaluator(self.bets)
        self.policy = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
        self.resolve()

    def resolve(self) -> None:
        self.evaluator.solve(self.alpha / self.alpha_sum[:, None], policy=self.policy)

    def on_hand_over(self, observation: Observation) -> None:
        add_expected_counts(self.alpha, self.alpha_sum, observation)
        self.hands_seen += 1
        if self.hands_seen % self.config.resolve_every == 0:
            self.resolve()


def hand_likelihoods(prob, obs: Observation, batch: tuple[int, ...] = ()):
    """The hand's server moves walked once: per server hand, the likelihood of what the hand showed before the draw
    (deal, round-1 moves, the draw) and after it (round-2 moves, the shown hand); after is None when round 1 ended in
    a fold. prob(rows, action): the server's probability of `action` at `rows` (one row per server hand), with any
    leading `batch` axes (the mixture's components)."""
    like = np.empty((*batch, R.N_HANDS))  # not np.tile: a microsecond a hand on the learners' hot path
    like[...] = R.DEAL_PROB
    for bets, action in obs.moves1:
        like *= prob(R.round1_row(bets, HANDS), action)
    if obs.history < 0:
        return like, None
    like *= prob(R.draw_row(obs.history, obs.player_drew, HANDS), obs.server_drew)
    like2 = np.ones_like(like)
    for bets, action in obs.moves2:
        like2 *= prob(R.round2_row(obs.history, obs.player_drew, obs.server_drew, bets, HANDS), action)
    if obs.shown >= 0:
        shown = like2[..., obs.shown].copy()
        like2[:] = 0.0
        like2[..., obs.shown] = shown
    return like, like2


def hand_posterior(alpha: np.ndarray, alpha_sum: np.ndarray, obs: Observation):
    """Posterior over the server's pre-draw hand and (if the draw happened) its post-draw hand."""
    like, like2 = hand_likelihoods(lambda rows, action: alpha[rows, action] / alpha_sum[rows], obs)
    if like2 is None:
        return like / like.sum(), None
    joint = like[:, None] * R.DRAW_TRANSITION[obs.server_drew] * like2[None, :]
    joint /= joint.sum()
    return joint.sum(axis=1), joint.sum(axis=0)


def add_expected_counts(alpha: np.ndarray, alpha_sum: np.ndarray, obs: Observation) -> None:
    """One online-EM step: the hand's expected row/action counts under the current beliefs."""
    expected_counts(alpha, alpha_sum, obs, alpha, alpha_sum)


def expected_counts(alpha, alpha_sum, obs: Observation, counts: np.ndarray, counts_sum: np.ndarray) -> None:
    """Add the hand's expected counts, under beliefs alpha / alpha_sum, into counts (may be alpha)."""
    pre, post = hand_posterior(alpha, alpha_sum, obs)
    for bets, action in obs.moves1:
        _add(counts, counts_sum, R.round1_row(bets, HANDS), action, pre)
    if post is None:
        return
    _add(counts, counts_sum, R.draw_row(obs.history, obs.player_drew, HANDS), obs.server_drew, pre)
    for bets, action in obs.moves2:
        rows = R.round2_row(obs.history, obs.player_drew, obs.server_drew, bets, HANDS)
        _add(counts, counts_sum, rows, action, post)


def fit_em(observations: list[Observation], prior: np.ndarray, *, iterations: int = 5) -> np.ndarray:
    """Batch EM: server row probabilities maximising the posterior under a Dirichlet prior
    given as pseudo-counts (N_ROWS, 3). Rows never reached keep the prior's mean."""
    probs = prior / prior.sum(axis=1, keepdims=True)
    ones = np.ones(R.N_ROWS)
    for _ in range(iterations):
        counts = prior.copy()
        counts_sum = counts.sum(axis=1)
        for obs in observations:
            expected_counts(probs, ones, obs, counts, counts_sum)
        probs = counts / counts_sum[:, None]
    return probs


def _add(alpha, alpha_sum, rows, action, mass) -> None:
    alpha[rows, action] += mass  # rows are distinct (one per server hand)
    alpha_sum[rows] += mass
