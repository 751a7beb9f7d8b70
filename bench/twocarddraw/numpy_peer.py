"""A vectorised numpy best response: the peer the benchmarks time the numba kernels against,
and a second, differently written implementation for the tests."""

import numpy as np

from engine.twocarddraw import rules as R

HIST_BETS = np.array([bets for bets, _ in R.HISTORIES])


def _showdown(x: np.ndarray, scale) -> np.ndarray:
    """scale * (mass below i - mass above i) along the last axis."""
    below = np.cumsum(x, axis=-1) - x
    return np.asarray(scale)[..., None] * (2 * below + x - x.sum(axis=-1, keepdims=True))


def _mix(options: list[np.ndarray], eps: float) -> np.ndarray:
    q = np.stack(np.broadcast_arrays(*options))
    return (1 - (len(options) - 1) * eps) * q.max(axis=0) + eps * (q.sum(axis=0) - q.max(axis=0))


def _betting_round(nodes, reach, pot, b, leaves, eps):
    """Player's value over the 13 sequences of one round. nodes[k] = server rows (..., 15, 3)
    at k bets; leaves(k, first, server_reach) = value of the round ending in a call."""
    s0, s1, s2, s3 = nodes
    tot = lambda x: x.sum(axis=-1, keepdims=True)  # noqa: E731
    x = reach * s0[..., 2]
    y = x * s2[..., 2]
    face3 = _mix([-(pot + 2 * b)[..., None] * tot(y), leaves(3, 1, y)], eps)
    raise1 = (pot + b)[..., None] * tot(x * s2[..., 0]) + leaves(2, 1, x * s2[..., 1]) + face3
    face1 = _mix([-pot[..., None] * tot(x), leaves(1, 1, x), raise1], eps)
    check = pot[..., None] * tot(reach * s0[..., 0]) + leaves(0, 0, reach * s0[..., 1]) + face1
    x = reach * s1[..., 2]
    raise2 = (pot + 2 * b)[..., None] * tot(x * s3[..., 0]) + leaves(3, 0, x * (s3[..., 1] + s3[..., 2]))
    face2 = _mix([-(pot + b)[..., None] * tot(x), leaves(2, 0, x), raise2], eps)
    bet = pot[..., None] * tot(reach * s1[..., 0]) + leaves(1, 0, reach * s1[..., 1]) + face2
    return _mix([check, bet], eps)


def best_response_value(probs: np.ndarray, bets: R.BetSizes, eps: float = 0.0) -> float:
    s1 = probs[: R.DRAW_BASE].reshape(4, R.N_HANDS, 3)
    sd = probs[R.DRAW_BASE : R.ROUND2_BASE].reshape(7, 3, R.N_HANDS, 3)
    s2 = probs[R.ROUND2_BASE :].reshape(63, 4, R.N_HANDS, 3)
    w, t = R.DEAL_PROB, R.DRAW_TRANSITION
    a0, a1, a2, a3 = s1
    rho1 = np.stack([
        w * a0[:, 1], w * a0[:, 2], w * a0[:, 2] * a2[:, 1], w * a0[:, 2] * a2[:, 2],
        w * a1[:, 1], w * a1[:, 2], w * a1[:, 2] * (a3[:, 1] + a3[:, 2]),
    ])
    mass = rho1[:, None, :, None] * sd  # (history, player drew, server hand, server draw)
    rho2 = np.matmul(mass.transpose(0, 1, 3, 2)[:, :, :, None, :], t[None, None]).reshape(63, R.N_HANDS)
    pot2 = np.repeat(1.0 + HIST_BETS * bets.bet1, 9)
    b2 = np.full(63, float(bets.bet2))
    v2 = _betting_round(
        [s2[:, k] for k in range(4)], rho2, pot2, b2, lambda k, _first, x: _showdown(x, pot2 + k * b2), eps
    )
    u = np.matmul(t[None], v2.reshape(7, 3, 3, R.N_HANDS).sum(axis=2)[..., None])[..., 0]
    vdraw = _mix([u[:, 0], u[:, 1], u[:, 2]], eps)
    history = {(k, first): o for o, (k, first) in enumerate(R.HISTORIES)}
    one = np.array(1.0)
    root = _betting_round(
        list(s1), w, one, np.array(float(bets.bet1)), lambda k, first, _x: vdraw[history[(k, first if k else 0)]], eps
    )
    return float(w @ root)
