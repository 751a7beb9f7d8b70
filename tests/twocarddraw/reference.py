"""Slow pure-Python twins of the numba kernels: a generic walk over the hand's state machine
(engine/twocarddraw/state.py does the pot accounting), carrying the server's reach."""

import copy
import math

import numpy as np

from engine.core import _rng
from engine.twocarddraw import rules as R
from engine.twocarddraw.state import BET1, BET2, DRAW_PLAYER, DRAW_SERVER, OVER, HandState

N = R.N_HANDS
T = R.DRAW_TRANSITION.tolist()


def _mix(values: list[list[float]], eps: float) -> list[float]:
    out = []
    for i in range(N):
        q = [v[i] for v in values]
        best = max(q)
        out.append((1 - (len(q) - 1) * eps) * best + eps * (sum(q) - best))
    return out


def _choose(options: list[list[float]], codes, rows: list[int], ctx: dict, eps: float) -> list[float]:
    """The player's choice: best (eps-mixed), or the fixed policy's code per hand if given."""
    policy = ctx.get("policy")
    if policy is None:
        return _mix(options, eps)
    return [options[list(codes).index(policy[rows[i]])][i] for i in range(N)]


def _child(st: HandState, code: int) -> HandState:
    st = copy.deepcopy(st)
    st.apply(code)
    return st


def _node(st: HandState, reach: list[float], probs, ctx: dict, eps: float) -> list[float]:
    total = sum(reach)
    if st.phase == OVER:
        if st.folded == R.SERVER:
            return [st.put[R.SERVER] * total] * N
        if st.folded == R.PLAYER:
            return [-st.put[R.PLAYER] * total] * N
        return [st.put[0] * (sum(reach[:i]) - sum(reach[i + 1 :])) for i in range(N)]
    if st.phase == DRAW_PLAYER:
        options = []
        for dp in range(3):
            w = _node(_child(st, dp), reach, probs, {**ctx, "dp": dp}, eps)
            options.append([sum(T[dp][p][i] * w[i] for i in range(N)) for p in range(N)])
        return _choose(options, (0, 1, 2), [R.player_draw_row(st.history, p) for p in range(N)], ctx, eps)
    if st.phase == DRAW_SERVER:
        out = [0.0] * N
        for ds in range(3):
            after = [0.0] * N
            for h in range(N):
                m = reach[h] * probs[R.draw_row(st.history, ctx["dp"], h)][ds]
                for h2 in range(N):
                    after[h2] += m * T[ds][h][h2]
            v = _node(_child(st, ds), after, probs, {**ctx, "ds": ds}, eps)
            out = [a + b for a, b in zip(out, v, strict=True)]
        return out
    if st.actor == R.PLAYER:
        options = [_node(_child(st, a), reach, probs, ctx, eps) for a in st.legal()]
        rows = [
            R.player_round1_row(st.round_bets, i) if st.phase == BET1
            else R.player_round2_row(st.history, ctx["dp"], ctx["ds"], st.round_bets, i)
            for i in range(N)
        ]
        return _choose(options, st.legal(), rows, ctx, eps)
    out = [0.0] * N
    for a in st.legal():
        rows = [
            R.round1_row(st.round_bets, h) if st.phase == BET1
            else R.round2_row(st.history, ctx["dp"], ctx["ds"], st.round_bets, h)
            for h in range(N)
        ]
        v = _node(_child(st, a), [reach[h] * probs[rows[h]][a] for h in range(N)], probs, ctx, eps)
        out = [x + y for x, y in zip(out, v, strict=True)]
    return out


def best_response_value(probs, bets: R.BetSizes, eps: float = 0.0, policy=None) -> float:
    """Twin of _kernels.evaluate: the player's value per hand against the server rows, best
    responding, or playing the fixed `policy` (player rows of rules.py) when given."""
    assert BET2  # phases come from state.py
    ctx = {} if policy is None else {"policy": list(policy)}
    values = _node(HandState(bets), R.DEAL_PROB.tolist(), probs.tolist(), ctx, eps)
    return sum(R.DEAL_PROB[p] * values[p] for p in range(N))


def _random_row(mask_row, state) -> list[float]:
    draws = [-math.log(1.0 - _rng.uniform(state)) if allowed else 0.0 for allowed in mask_row]
    return [d / sum(draws) for d in draws]


def generate_twin(mask, free_rows, steps: int, bets: R.BetSizes, eps: float, state, *, random_order=False,
                  perturb=False, strict=True) -> tuple[np.ndarray, float]:
    """Twin of _kernels.generate (betting-and-draw mistakes alike): same proposals from the same
    stream, full re-evaluation."""
    probs = np.array([_random_row(m, state) for m in mask.tolist()])
    value = best_response_value(probs, bets, eps)
    for step in range(steps):
        row = free_rows[_rng.below(state, len(free_rows))] if random_order else free_rows[step % len(free_rows)]
        old = probs[row].copy()
        probs[row] = _random_row(mask[row].tolist(), state)
        if perturb:
            t = _rng.uniform(state)
            probs[row] = (1.0 - t) * old + t * probs[row]
        new = best_response_value(probs, bets, eps)
        if new < value or (not strict and new == value):
            value = new
        else:
            probs[row] = old
    return probs, value
