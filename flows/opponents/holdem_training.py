"""Hold'em Training's opponent model: Bob is fixed and known, so the fit only has to recover his call rule.

Every raise Alice made that Bob answered (ht_action_rows, with his cards and the board from ht_hand_rows)
is a decision: CALL or FOLD. Bob's equity from his own view (his cards and the board he has seen) is
measured here over many completions, and the two numbers of bots/holdem_training/bob_model.py (a threshold
shift `delta` and the noise of his estimate as `rollouts`) are fitted by maximum likelihood. The true rule
is delta = 0 and rollouts = 100; the fit reports both with standard errors (from the observed information)
and, on held-out hands, its log-loss beside a constant call rate (the baseline), uniform (log 2) and the
true rule itself.
"""

import hashlib

import numpy as np
from scipy.optimize import minimize

from bots.base import BotSpec
from bots.holdem_training.bob_model import BOB_MODEL, MEASURED, BobModelConfig, call_probability, measured_equity
from engine.core.errors import BadValue, NotFound, UnknownName
from engine.holdem_training.rules import BOARD_SIZE_BY_ROUND, BOB_ROLLOUTS
from flows.opponents.base import Calibration, FittedModel

GAME = "holdem-training"
PLAYER = "bob"
METHOD = "noisy-threshold"
STREETS = ("preflop", "flop", "turn", "river")
EPS = 1e-9  # probabilities are kept inside [EPS, 1 - EPS]


def _key(*parts) -> int:
    return int.from_bytes(hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest(), "little")


def read_raises(con, matches=None) -> dict[str, np.ndarray]:
    """Every raise Bob answered, with what he saw: columns as arrays, in (match, hand, round) order."""
    query = ("SELECT a.match_id, a.hand, a.round, a.amount, a.pot_before, a.response = 'CALL' AS called, "
             "h.bob_c0, h.bob_c1, h.board_c0, h.board_c1, h.board_c2, h.board_c3, h.board_c4 "
             "FROM ht_action_rows a JOIN ht_hand_rows h USING (match_id, chunk, hand) JOIN matches m USING (match_id) "
             "WHERE m.game = ? AND a.action = 'RAISE' AND a.response IN ('CALL', 'FOLD')")
    params = [GAME]
    if matches is not None:
        matches = list(matches) or [""]
        query += f" AND a.match_id IN ({', '.join('?' * len(matches))})"
        params += matches
    rows = con.execute(query + " ORDER BY a.match_id, a.hand, a.round", params).fetchnumpy()
    return {k: np.asarray(v) for k, v in rows.items()}


def measure(raises: dict[str, np.ndarray], seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Bob's equity and its per-completion variance at every raise, from his own view."""
    n = len(raises["hand"])
    q, v = np.zeros(n), np.zeros(n)
    board = np.stack([raises[f"board_c{i}"] for i in range(5)], axis=1) if n else np.zeros((0, 5))
    for i in range(n):
        known = BOARD_SIZE_BY_ROUND[int(raises["round"][i]) - 1]
        key = _key(seed, raises["match_id"][i], raises["hand"][i], raises["round"][i])
        q[i], v[i] = measured_equity(key, (raises["bob_c0"][i], raises["bob_c1"][i]), board[i], known)
    return q, v


def _probabilities(theta, q, v, pot, amount):
    return np.clip(call_probability(q, v, pot, amount, theta[0], np.exp(theta[1])), EPS, 1 - EPS)


def _logloss(p, called) -> float:
    return float(-np.where(called, np.log(p), np.log(1 - p)).mean()) if len(p) else float("nan")


def fit_rule(q, v, pot, amount, called) -> tuple[np.ndarray, np.ndarray]:
    """(delta, log rollouts) by maximum likelihood, and their standard errors from the observed information."""
    def nll(theta):
        return len(q) * _logloss(_probabilities(theta, q, v, pot, amount), called)

    start = np.array([0.0, np.log(50.0)])  # not the truth: the fit has to find it
    theta = minimize(nll, start, method="Nelder-Mead", options={"xatol": 1e-6, "fatol": 1e-9, "maxiter": 2000}).x
    h = np.array([1e-3, 1e-2])  # finite-difference steps for the Hessian
    hess = np.zeros((2, 2))
    for i in range(2):
        for j in range(2):
            ei, ej = np.eye(2)[i] * h[i], np.eye(2)[j] * h[j]
            hess[i, j] = (nll(theta + ei + ej) - nll(theta + ei - ej) - nll(theta - ei + ej)
                          + nll(theta - ei - ej)) / (4 * h[i] * h[j])
    try:
        se = np.sqrt(np.clip(np.diag(np.linalg.inv(hess)), 0, None))
    except np.linalg.LinAlgError:
        se = np.full(2, np.inf)
    return theta, se


def _size_bucket(pot, amount) -> np.ndarray:
    """The mart's raise-size buckets (stg_ht_actions.size_bucket)."""
    ratio = amount / pot
    edges = np.array([0.25, 0.5, 1.0, 2.0])
    labels = np.array(["<= 1/4 pot", "<= 1/2 pot", "<= 1 pot", "<= 2 pots", "> 2 pots"])
    return labels[np.searchsorted(edges, ratio, side="left")]


def calibration(p, called, rounds, buckets) -> tuple[Calibration, ...]:
    """Predicted against observed call rates on held-out raises: overall, by street, by raise size."""
    groups = [("all", np.ones(len(p), dtype=bool))]
    groups += [(street, rounds == r) for r, street in enumerate(STREETS, start=1)]
    groups += [(f"raise {b}", buckets == b) for b in sorted(set(buckets.tolist()))]
    out = []
    for label, rows in groups:
        if rows.any():
            call, seen = float(p[rows].mean()), float(called[rows].mean())
            out.append(Calibration(label, int(rows.sum()), {"CALL": round(call, 4), "FOLD": round(1 - call, 4)},
                                   {"CALL": round(seen, 4), "FOLD": round(1 - seen, 4)}))
    return tuple(out)


def fit(con, player: str = PLAYER, *, matches=None, files=(), seed: int = 1, holdout: float = 0.2) -> FittedModel:
    """Bob's call rule from the hand log (see the module's docstring and flows/opponents/base.py)."""
    if player.lower() != PLAYER:
        raise UnknownName(f"player {player!r}: Hold'em Training has one opponent; accepted: {PLAYER}")
    if files:
        raise BadValue("Hold'em Training fits from the hand log only; accepted: no files")
    raises = read_raises(con, matches)
    if not len(raises["hand"]):
        raise NotFound("no raise answered by Bob in the chosen Hold'em Training matches; play a match with a bot "
                       "that raises (e.g. `cardlab match holdem-training --bot exploit`)")
    return fit_raises(raises, seed=seed, holdout=holdout)


def fit_raises(raises: dict[str, np.ndarray], *, seed: int = 1, holdout: float = 0.2) -> FittedModel:
    """The fit on raises as read_raises gives them (match_id, hand, round, amount, pot_before, called,
    bob_c0, bob_c1, board_c0..board_c4)."""
    if not 0.0 <= holdout < 1.0:
        raise BadValue(f"holdout {holdout}: accepted: a share in [0, 1)")
    q, v = measure(raises, seed)
    pot, amount = raises["pot_before"].astype(float), raises["amount"].astype(float)
    called = raises["called"].astype(bool)
    held = np.array([_key(seed, m, h) / 2**64 < holdout for m, h in zip(raises["match_id"], raises["hand"],
                                                                      strict=True)], dtype=bool)
    train = ~held
    theta, se = fit_rule(q[train], v[train], pot[train], amount[train], called[train])
    p = _probabilities(theta, q[held], v[held], pot[held], amount[held])
    rule = _probabilities(np.array([0.0, np.log(BOB_ROLLOUTS)]), q[held], v[held], pot[held], amount[held])
    base = np.clip(np.full(int(held.sum()), called[train].mean() if train.any() else 0.5), EPS, 1 - EPS)
    params = {"delta": float(theta[0]), "rollouts": float(np.exp(theta[1])), "delta_se": float(se[0]),
              "log_rollouts_se": float(se[1]), "measured_rollouts": MEASURED,
              "rule_logloss": _logloss(rule, called[held]),
              "rule": "call iff equity over `rollouts` completions > amount / (pot + 2 amount) + delta"}
    return FittedModel(
        game=GAME, player=PLAYER, method=METHOD, params=params, decisions=int(train.sum()),
        heldout_decisions=int(held.sum()), heldout_logloss=_logloss(p, called[held]),
        baseline_logloss=_logloss(base, called[held]),
        uniform_logloss=float(np.log(2.0)) if held.any() else float("nan"),
        sources=tuple(sorted(set(raises["match_id"].tolist()))),
        calibration=calibration(p, called[held], raises["round"][held], _size_bucket(pot[held], amount[held])),
    )


def seat(params: dict) -> tuple[BotSpec, BobModelConfig]:
    """Bob as fitted: calls with the fitted probability per situation, from its own seeded stream."""
    return BOB_MODEL, BobModelConfig(delta=float(params["delta"]), rollouts=float(params["rollouts"]))
