"""A learner whose prior is a mixture over the generator's step count, with optional posterior
sampling.

The server's step count (10,000..200,000) is one hidden number shared by all 3,881 free rows:
few steps leave rows near their random start, many steps sharpen the rows the best response
exploits. So the prior is a mixture of Dirichlet priors, one per step bucket (banks generated
offline per bet pair and bucket), and the hands seen so far weigh the buckets by their marginal
likelihood (Dirichlet-multinomial on the expected counts). Rows never observed then move with
the rows that were: this is the structure shared across rows.

Counts are expected counts from online EM (the server's hidden hands under the current
beliefs), kept apart from the prior so each bucket can be weighed. Play: a best response to the
posterior mean (Bayes-optimal for one hand, each situation being met at most once per hand),
or to one posterior draw per re-solve (explore="thompson": it values information; thompson_scale
multiplies the draw's concentration, so 1 is the posterior and large values approach the mean).
"""

import math

import numpy as np

from bots.twocarddraw.learner import LearningBot, expected_counts, hand_likelihoods
from bots.twocarddraw.prior import bucket_edges, load_step_banks
from bots.twocarddraw.tracker import Observation
from engine.core import seeds
from engine.core.jit import kernel
from engine.twocarddraw import best_response as B
from engine.twocarddraw import rules as R

# Rows the evidence gate may turn passive: raises facing a bet in round 1 and every round-2 bet or raise. Not
# the draws (codes are cards drawn), nor round 1's opening bets: every hand reaches them, and gating them cost
# most of the value on a past-range tuning server (tuning-far 0: opening bets worth +0.78 of the best response).
GATED_ROWS = np.ones(R.N_PLAYER_ROWS, dtype=bool)
GATED_ROWS[:R.N_HANDS] = False
GATED_ROWS[R.PLAYER_DRAW_BASE:R.PLAYER_ROUND2_BASE] = False
# Of those, the round-2 rows with no bet to face (bet or check): gate_default="drawn" weighs them apart from raises,
# since the bets the gate blocked were most of what the default missed on sharp servers.
BET_ROWS = np.zeros(R.N_PLAYER_ROWS, dtype=bool)
BET_ROWS[R.PLAYER_ROUND2_BASE:] = (np.arange(R.N_ROUND2_ROWS) // R.N_HANDS) % (R.MAX_BETS + 1) == 0
# (doubtful bets, doubtful raises) kept as the mean's best response plays them, safest first: ties keep it
TRUSTS = ((False, False), (True, False), (False, True), (True, True))
# bank_readings that hold several families of banks, in the prior's order (bots/twocarddraw/prior.py BANK_READINGS)
BANK_FAMILIES = {"both": ("default", "mixed")}


@kernel
def bucket_log_likelihood(alpha, alpha_sum, counts, counts_sum, out):
    """out[b] = log Dirichlet-multinomial likelihood of counts under bucket b's pseudo-counts
    (rows never observed contribute nothing)."""
    for b in range(alpha.shape[0]):
        total = 0.0
        for row in range(counts.shape[0]):
            n = counts_sum[row]
            if n <= 0.0:
                continue
            s = alpha_sum[b, row]
            total += math.lgamma(s) - math.lgamma(s + n)
            for a in range(3):
                if counts[row, a] > 0.0:
                    total += math.lgamma(alpha[b, row, a] + counts[row, a]) - math.lgamma(alpha[b, row, a])
        out[b] = total


def compile_kernels(bets: R.BetSizes) -> None:
    """Compile (or load from numba's cache) the kernels play calls, off the test clock, as a submission is compiled
    before its test starts: on a cold cache their compilation otherwise went to the bot's 20 s (17.5 s against 8.1 s
    warm for `dbr` on one 10,000-hand test). The arrays only fix the types; the results are dropped."""
    B.compile_kernels(bets)
    bucket_log_likelihood(np.ones((1, 1, 3)), np.ones((1, 1)), np.zeros((1, 3)), np.zeros(1), np.zeros(1))


def hand_log_likelihood(alpha, alpha_sum, counts, counts_sum, obs: Observation) -> np.ndarray:
    """Per component, the log probability of what the hand showed under its posterior mean (prior plus counts), the
    server's hidden cards summed out (the walk hand_posterior takes, batched over the components)."""

    def prob(rows, action):
        return (alpha[:, rows, action] + counts[rows, action]) / (alpha_sum[:, rows] + counts_sum[rows])

    like, like2 = hand_likelihoods(prob, obs, batch=(len(alpha),))
    if like2 is None:
        return np.log(like.sum(axis=1))
    return np.log(np.einsum("ki,ij,kj->k", like, R.DRAW_TRANSITION[obs.server_drew], like2))


class MixtureLearnerBot(LearningBot):
    def prepare_offline(self, bet1: int, bet2: int) -> None:
        self._banks(R.BetSizes(bet1, bet2))
        if self.config.gate_draws and self.config.gate_default != "passive":
            self._safe_actions(R.BetSizes(bet1, bet2))
        compile_kernels(R.BetSizes(bet1, bet2))

    def _safe_actions(self, bets: R.BetSizes | None = None) -> np.ndarray:
        """The safe (CFR+) strategy's most likely action per row: the gate's cautious default when
        gate_default="safe" (it may fold where call/check would pay a sharper server's raise)."""
        from bots.twocarddraw.robust import load_equilibrium  # robust builds on this module: import when used

        return np.argmax(load_equilibrium(bets or self.bets).player, axis=1).astype(np.int64)

    def _banks(self, bets: R.BetSizes):
        """The step buckets' banks, family after family (bank_readings="both": the default readings', then the
        mixed ones')."""
        c = self.config
        return [bank for readings in BANK_FAMILIES.get(c.bank_readings, (c.bank_readings,))
                for bank in load_step_banks(bets, buckets=c.buckets, count=c.bucket_count, seed=c.prior_seed,
                                            beyond=c.beyond, readings=readings)]

    def on_init(self) -> None:
        c = self.config
        banks = self._banks(self.bets)
        # each bucket at every strength level: the evidence also weighs how far to trust the bank's mean
        levels = c.strength_ratio ** (np.arange(c.strength_levels) - (c.strength_levels - 1) / 2)
        self.alpha = np.stack([b.mean * (b.concentration(low=c.strength_min, high=c.strength_max) * c.prior_scale
                                         * level)[:, None] for b in banks for level in levels])
        self.alpha_sum = self.alpha.sum(axis=2)
        edges = bucket_edges(c.buckets)
        widths = np.diff(edges) if c.step_prior == "uniform" else np.ones(c.buckets)
        prior = np.concatenate([widths / widths.sum() * (1.0 - c.beyond_weight) if c.beyond else widths / widths.sum(),
                                np.full(c.beyond, c.beyond_weight / max(c.beyond, 1))])
        families = len(banks) // len(prior)  # "both": the step prior once per family, the mixed one both_share of it
        share = np.array([1.0 - c.both_share, c.both_share]) if families == 2 else np.full(families, 1.0 / families)
        self.log_prior = np.log(np.tile(np.repeat(prior, len(levels)) / len(levels), families)
                                * np.repeat(share, len(prior) * len(levels)))
        self.weights = np.exp(self.log_prior)
        self.counts = np.zeros((R.N_ROWS, 3))
        self.counts_sum = np.zeros(R.N_ROWS)
        self.loglik = np.zeros(len(self.alpha))
        self.no_counts = (np.zeros_like(self.counts), np.zeros_like(self.counts_sum))  # bucket_weigh="bank"
        self.ones = np.ones(R.N_ROWS)
        self.observations: list[Observation] = []
        self.evaluator = B.Evaluator(self.bets)
        self.policy = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
        self.alternative = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)  # the hedge's other best response
        self.rng = seeds.generator(seeds.unit_key(self.draw_key(c.explore_seed), self.bets.bet1 * 16 + self.bets.bet2,
                                                  seeds.Purpose.BOT))
        self.raise_share = None  # the evidence gate's share of posterior draws raising per row (gate_draws > 0)
        # components of the statement's sharpest step bucket and beyond, in every family: a server the banks may
        # not reach
        bucket = np.arange(len(self.alpha)) // len(levels)
        self.family = bucket // len(prior)
        self.top_bucket = bucket % len(prior) >= c.buckets - 1
        self.own_weights, self.default_weights = self._own(self.log_prior)
        self.gate_fallback = None  # the safe strategy's actions, loaded the first time the safe default gates a row
        self.gate_servers: list[np.ndarray] = []  # gate_default="drawn": the gate's last posterior draws
        self.gate_trust = np.zeros(2, dtype=bool)  # and whether its doubtful bets / raises play the mean's action
        self._update_means()
        self.resolve()

    def _posterior_means(self, scale: float = 1.0, weights: np.ndarray | None = None) -> np.ndarray:
        """The posterior mean (under the play's weights unless given); `scale` < 1 weakens every component's prior
        (the hedge's second opinion)."""
        weights = self.play_weights() if weights is None else weights
        live = np.flatnonzero(weights > 1e-12)  # the evidence soon rules out most components: skip them
        post = (scale * self.alpha[live] + self.counts) / (scale * self.alpha_sum[live] + self.counts_sum)[:, :, None]
        return np.tensordot(weights[live], post, axes=1)

    def play_weights(self) -> np.ndarray:
        """The component weights the bot's model of the server (its play, its EM counts) follows."""
        return self.own_weights

    def count_weights(self) -> np.ndarray:
        """The component weights the online EM's expected counts follow: the play's, or (both_counts="default") the
        default family's always. dbr's response models the server by the whole posterior while the sharpest bucket
        holds dbr_top of it; counts taken under the model played would change source when the response starts or
        stops, feeding back on the weights that decide it (heldout7 15 left that bucket after 1,000 hands)."""
        return self.play_weights() if self.config.both_counts == "play" else self.default_weights

    def _own(self, log_w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """bank_readings="both": the posterior the mixture's own play follows (both_play="default": given the
        default readings' family; the whole posterior still decides the sharpest-bucket tests), and the default
        family's posterior (the whole one when there is no other family)."""
        if self.family.max() == 0:
            return self.weights, self.weights
        default = np.exp(np.where(self.family == 0, log_w - log_w[self.family == 0].max(), -np.inf))
        default /= default.sum()
        return (self.weights if self.config.both_play == "all" else default), default

    def _update_means(self) -> None:
        """The posterior means the play and the EM's counts follow (one array when their weights are the same)."""
        self.means = self._posterior_means()
        weights = self.count_weights()
        self.count_means = self.means if weights is self.play_weights() else self._posterior_means(weights=weights)

    def _refit(self) -> None:
        """One batch EM pass: the early hands' hidden server cards were guessed under the prior;
        guess them again under today's beliefs."""
        self._reweigh()
        self._update_means()
        self.counts[:] = 0.0
        self.counts_sum[:] = 0.0
        for obs in self.observations:
            expected_counts(self.count_means, self.ones, obs, self.counts, self.counts_sum)

    def _reweigh(self) -> None:
        if self.config.bucket_weigh == "counts":  # the others accumulate loglik hand by hand (on_hand_over)
            bucket_log_likelihood(self.alpha, self.alpha_sum, self.counts, self.counts_sum, self.loglik)
        log_w = self.log_prior + self.loglik
        w = np.exp(log_w - log_w.max())
        self.weights = w / w.sum()
        self.own_weights, self.default_weights = self._own(log_w)

    def refresh(self) -> None:
        """Bring the bucket weights and posterior means up to every hand seen (no re-solve)."""
        self._reweigh()
        self._update_means()

    def _draw_server(self, scale: float) -> np.ndarray:
        """One server drawn from the posterior: a component by its weight, then its Dirichlet with the
        concentration times `scale` (< 1 widens the draw)."""
        weights = self.play_weights()
        b = self.rng.choice(len(weights), p=weights)
        draw = self.rng.gamma(scale * (self.alpha[b] + self.counts))
        return draw / np.maximum(draw.sum(axis=1, keepdims=True), 1e-300)

    def resolve(self) -> None:
        probs = self._draw_server(self.config.thompson_scale) if self.config.explore == "thompson" else self.means
        value = self.evaluator.solve(np.ascontiguousarray(probs), policy=self.policy)
        if self.config.hedge_scale > 0 and self.hands_seen > 0:
            self._hedge(probs, value)
        if self.config.gate_draws:
            self._gate()

    def _update_gate(self) -> None:
        """Re-draw the evidence gate: in each gated row, the share of posterior draws whose best
        response raises (or bets) there (1 elsewhere)."""
        c = self.config
        drawn = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
        raises = np.zeros(R.N_PLAYER_ROWS)
        self.gate_servers = []
        for _ in range(c.gate_draws):
            server = np.ascontiguousarray(self._draw_server(c.gate_scale))
            self.evaluator.solve(server, policy=drawn)
            raises += drawn == R.RAISE
            if c.gate_default == "drawn":
                self.gate_servers.append(server)
        self.raise_share = raises / c.gate_draws
        self.raise_share[~GATED_ROWS] = 1.0
        if c.gate_default == "drawn":
            self._weigh_doubts()

    def _weigh_doubts(self) -> None:
        """gate_default="drawn": for the doubtful bets and (gate_weigh="both"), apart, the doubtful raises, play
        the posterior mean's action or the safe one, whichever combination is worth more averaged over the gate's
        draws. Decided when the draws are renewed (every `gate_every` hands), on the policy of that moment."""
        c = self.config
        if self.gate_fallback is None:
            self.gate_fallback = self._safe_actions()
        doubtful = self._doubtful()
        groups = (doubtful & BET_ROWS, doubtful & ~BET_ROWS)
        best = -np.inf
        for trust in TRUSTS[:2] if c.gate_weigh == "bets" else TRUSTS:
            policy = self.policy.copy()
            for group, kept in zip(groups, trust, strict=True):
                if not kept:
                    policy[group] = self.gate_fallback[group]
            value = np.mean([self.evaluator.follow(server, policy) for server in self.gate_servers])
            if value > best + 1e-12:
                best, self.gate_trust[:] = value, trust

    def _doubtful(self) -> np.ndarray:
        """Rows where the mean's best response raises (or bets) with too few draws' best responses agreeing:
        gate_share of them, or for round-2 bets gate_bet_share when set (>= 0)."""
        c = self.config
        share = c.gate_share if c.gate_bet_share < 0 else np.where(BET_ROWS, c.gate_bet_share, c.gate_share)
        return (self.policy == R.RAISE) & (self.raise_share < share)

    def _gate(self) -> None:
        """Evidence-gated exploitation: a raise (or bet) the posterior mean's best response makes is
        played only where at least `gate_share` of the posterior draws' best responses make it too,
        otherwise the passive action (call or check), or with gate_default="safe" the safe strategy's.
        Near-ties in the posterior are where a server sharper than every bank member punishes the prior's
        raises (docs/twocarddraw-strength.md), so the
        gate acts only while the sharpest step bucket holds at least `gate_top` of the posterior."""
        c = self.config
        if self.weights[self.top_bucket].sum() < c.gate_top:
            return  # the banks span this server: exploiting (and learning from) raises pays
        if self.raise_share is None or self.hands_seen % c.gate_every == 0:
            self._update_gate()
        if c.gate_default != "passive" and self.gate_fallback is None:
            self.gate_fallback = self._safe_actions()
        doubtful = self._doubtful()
        if c.gate_default == "drawn":  # the draws vouched for these doubts when last renewed
            doubtful &= ~np.where(BET_ROWS, self.gate_trust[0], self.gate_trust[1])
        self.policy[doubtful] = R.CALL if self.gate_fallback is None else self.gate_fallback[doubtful]

    def _hedge(self, probs: np.ndarray, value: float) -> None:
        """Minimax regret between two readings of the same evidence: the prior as strong as the banks say,
        and `hedge_scale` times as strong (data override it sooner). Each posterior's best response is
        scored by what it gives up if the other posterior is right; the one giving up less is played, so
        a best response that only the strong prior believes in (a bluff a sharper server calls) is not."""
        weak = np.ascontiguousarray(self._posterior_means(self.config.hedge_scale))
        weak_value = self.evaluator.solve(weak, policy=self.alternative)
        regret_strong = weak_value - self.evaluator.follow(weak, self.policy)
        regret_weak = value - self.evaluator.follow(np.ascontiguousarray(probs), self.alternative)
        if regret_weak < regret_strong:
            self.policy[:] = self.alternative

    def on_hand_over(self, observation: Observation) -> None:
        if self.config.bucket_weigh != "counts":  # predictive: the counts before this hand ("bank": none)
            counts = (self.counts, self.counts_sum) if self.config.bucket_weigh == "marginal" else self.no_counts
            self.loglik += hand_log_likelihood(self.alpha, self.alpha_sum, *counts, observation)
        expected_counts(self.count_means, self.ones, observation, self.counts, self.counts_sum)
        self.hands_seen += 1
        c = self.config
        if c.refit_every:
            self.observations.append(observation)
            if self.hands_seen % c.refit_every == 0:
                self._refit()
        if self.hands_seen % c.reweigh_every == 0:
            self._reweigh()
        if self.hands_seen % c.resolve_every == 0:
            self._update_means()
            self.resolve()
