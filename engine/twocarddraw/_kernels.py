"""Exact best response to a known server strategy, and the server-strategy generator.

One pass over the public tree carrying 15-vectors (cards are independent, so the posterior
over the server's hand depends only on the public history): server reach forward, the
player's counterfactual values backward. Hands are indexed by strength, so a showdown is
sign(i - j) and costs a prefix sum. Caches (rho1, rho2, v2, u, vdraw) let the generator
recompute only what one changed row touches.

Layouts: probs (4155, 3) server rows as in rules.py; policy (3945,) player rows as in rules.py;
sub = (history * 3 + player drew) * 3 + server drew indexes the 63 round-2 subtrees.
"""

import math

import numpy as np

from engine.core import _rng
from engine.core.jit import kernel

NH = 15
F, C, R = 0, 1, 2
DRAW_BASE = 60
ROUND2_BASE = 375
P_DRAW_BASE = 60
P_ROUND2_BASE = 165
SCRATCH_ROWS = 9
HIST_BETS = np.array([0, 1, 2, 3, 1, 2, 3], dtype=np.int64)


@kernel
def _showdown(out, x, scale):
    """out[i] = scale * (mass of x below i - mass above i)."""
    total = 0.0
    for j in range(NH):
        total += x[j]
    below = 0.0
    for i in range(NH):
        out[i] = scale * (2.0 * below + x[i] - total)
        below += x[i]


@kernel
def _best2(a, b, eps):
    """(value, code) of a two-way choice between codes 1 (a) and 2 (b); ties go to a."""
    if b > a:
        return (1.0 - eps) * b + eps * a, 2
    return (1.0 - eps) * a + eps * b, 1


@kernel
def _best3(qf, qc, qr, eps):
    """(value, code) of fold/call/raise; ties prefer call, then raise."""
    best, code = qc, 1
    if qr > best:
        best, code = qr, 2
    if qf > best:
        best, code = qf, 0
    return (1.0 - 3.0 * eps) * best + eps * (qf + qc + qr), code


@kernel
def _fold_call(qf, qc, eps):
    """(value, code) facing the last raise: fold (0) or call (1); ties call."""
    value, code = _best2(qc, qf, eps)
    return value, 1 if code == 1 else 0


@kernel
def _choose2(a, b, eps, policy, row, follow):
    """Opening choice (codes 1 check, 2 bet): best, or the policy's when following it."""
    if follow:
        return a if policy[row] == 1 else b
    value, policy[row] = _best2(a, b, eps)
    return value


@kernel
def _choose3(qf, qc, qr, eps, policy, row, follow):
    if follow:
        code = policy[row]
        return qf if code == 0 else (qc if code == 1 else qr)
    value, policy[row] = _best3(qf, qc, qr, eps)
    return value


@kernel
def _choose_fold_call(qf, qc, eps, policy, row, follow):
    if follow:
        return qf if policy[row] == 0 else qc
    value, policy[row] = _fold_call(qf, qc, eps)
    return value


@kernel
def round2_value(probs, sub, reach, pot, b, eps, eps_open, out, policy, follow, scratch):
    """Counterfactual value per player hand of round-2 subtree `sub` given server reach. eps errs
    at responses to bets, eps_open at the opening check/bet."""
    base = ROUND2_BASE + sub * 4 * NH
    pbase = P_ROUND2_BASE + sub * 4 * NH
    x, y, sd_a, sd_b, sd_c, sd_d = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4], scratch[5]
    in_a, in_b, check = scratch[6], scratch[7], scratch[8]
    # check -> server at 0 bets: check back (showdown) or bet (player faces 1)
    fold0 = 0.0
    fold2 = 0.0
    for h in range(NH):
        p0 = probs[base + h]
        p2 = probs[base + 2 * NH + h]
        fold0 += reach[h] * p0[F]
        x[h] = reach[h] * p0[R]
        fold2 += x[h] * p2[F]
        y[h] = x[h] * p2[R]
        in_a[h] = reach[h] * p0[C]
        in_b[h] = x[h] * p2[C]
    xs = 0.0
    ys = 0.0
    for h in range(NH):
        xs += x[h]
        ys += y[h]
    _showdown(sd_a, in_a, pot)
    _showdown(sd_b, in_b, pot + 2 * b)
    _showdown(sd_c, x, pot + b)
    _showdown(sd_d, y, pot + 3 * b)
    for i in range(NH):
        v3 = _choose_fold_call(-(pot + 2 * b) * ys, sd_d[i], eps, policy, pbase + 3 * NH + i, follow)
        raise1 = (pot + b) * fold2 + sd_b[i] + v3
        v1 = _choose3(-pot * xs, sd_c[i], raise1, eps, policy, pbase + NH + i, follow)
        check[i] = pot * fold0 + sd_a[i] + v1
    # bet -> server at 1 bet: fold, call (showdown) or raise (player faces 2)
    fold1 = 0.0
    fold3 = 0.0
    for h in range(NH):
        p1 = probs[base + NH + h]
        p3 = probs[base + 3 * NH + h]
        fold1 += reach[h] * p1[F]
        x[h] = reach[h] * p1[R]
        fold3 += x[h] * p3[F]
        in_a[h] = reach[h] * p1[C]
        in_b[h] = x[h] * (p3[C] + p3[R])
    xs = 0.0
    for h in range(NH):
        xs += x[h]
    _showdown(sd_a, in_a, pot + b)
    _showdown(sd_b, in_b, pot + 3 * b)
    _showdown(sd_c, x, pot + 2 * b)
    for i in range(NH):
        raise2 = (pot + 2 * b) * fold3 + sd_b[i]
        v2 = _choose3(-(pot + b) * xs, sd_c[i], raise2, eps, policy, pbase + 2 * NH + i, follow)
        bet = pot * fold1 + sd_a[i] + v2
        out[i] = _choose2(check[i], bet, eps_open, policy, pbase + i, follow)


@kernel
def forward_round1(probs, deal, rho1):
    """Server reach of the 7 continuing round-1 histories, per server hand."""
    for h in range(NH):
        a0, a1, a2, a3 = probs[h], probs[NH + h], probs[2 * NH + h], probs[3 * NH + h]
        w = deal[h]
        rho1[0, h] = w * a0[C]
        rho1[1, h] = w * a0[R]
        rho1[2, h] = w * a0[R] * a2[C]
        rho1[3, h] = w * a0[R] * a2[R]
        rho1[4, h] = w * a1[C]
        rho1[5, h] = w * a1[R]
        rho1[6, h] = w * a1[R] * (a3[C] + a3[R])


@kernel
def forward_draw(probs, trans, rho1, o, dp, rho2):
    """Server reach over its post-draw hand for the 3 subtrees after history o, player draw dp."""
    sub0 = (o * 3 + dp) * 3
    for ds in range(3):
        for h2 in range(NH):
            rho2[sub0 + ds, h2] = 0.0
    row = DRAW_BASE + (o * 3 + dp) * NH
    for h in range(NH):
        m = rho1[o, h]
        if m == 0.0:
            continue
        for ds in range(3):
            mm = m * probs[row + h, ds]
            if mm == 0.0:
                continue
            for h2 in range(NH):
                rho2[sub0 + ds, h2] += mm * trans[ds, h, h2]


@kernel
def draw_layer(trans, v2, o, dp, u):
    """u[o*3+dp, p]: value of drawing dp cards from pre-draw hand p after history o."""
    sub0 = (o * 3 + dp) * 3
    od = o * 3 + dp
    for p in range(NH):
        acc = 0.0
        for i in range(NH):
            t = trans[dp, p, i]
            if t != 0.0:
                acc += t * (v2[sub0, i] + v2[sub0 + 1, i] + v2[sub0 + 2, i])
        u[od, p] = acc


@kernel
def draw_choice(u, o, eps, vdraw, policy, follow):
    for p in range(NH):
        if follow:
            vdraw[o, p] = u[o * 3 + policy[P_DRAW_BASE + o * NH + p], p]
            continue
        best, code = u[o * 3, p], 0
        for dp in (1, 2):
            if u[o * 3 + dp, p] > best:
                best, code = u[o * 3 + dp, p], dp
        total = u[o * 3, p] + u[o * 3 + 1, p] + u[o * 3 + 2, p]
        vdraw[o, p] = (1.0 - 3.0 * eps) * best + eps * total
        policy[P_DRAW_BASE + o * NH + p] = code


@kernel
def round1_value(probs, deal, bet1, eps, eps_open, vdraw, policy, follow):
    """Expected profit per hand of the player given the draw-layer values vdraw."""
    b = bet1
    fold0 = 0.0
    fold1 = 0.0
    fold2 = 0.0
    fold3 = 0.0
    x1s = 0.0
    y1s = 0.0
    for h in range(NH):
        w = deal[h]
        p0, p1, p2, p3 = probs[h], probs[NH + h], probs[2 * NH + h], probs[3 * NH + h]
        fold0 += w * p0[F]
        fold1 += w * p1[F]
        x = w * p0[R]  # check, server bets: player faces 1
        x1s += x
        fold2 += x * p2[F]
        y1s += x * p2[R]
        fold3 += w * p1[R] * p3[F]
    x2s = 0.0
    for h in range(NH):
        x2s += deal[h] * probs[NH + h, R]
    total = 0.0
    for p in range(NH):
        v3 = _choose_fold_call(-(1 + 2 * b) * y1s, vdraw[3, p], eps, policy, 3 * NH + p, follow)
        v1 = _choose3(-1.0 * x1s, vdraw[1, p], (1 + b) * fold2 + vdraw[2, p] + v3, eps, policy, NH + p, follow)
        check = fold0 + vdraw[0, p] + v1
        v2 = _choose3(-(1 + b) * x2s, vdraw[5, p], (1 + 2 * b) * fold3 + vdraw[6, p], eps, policy, 2 * NH + p, follow)
        bet = fold1 + vdraw[4, p] + v2
        total += deal[p] * _choose2(check, bet, eps_open, policy, p, follow)
    return total


@kernel
def subtree_update(probs, trans, sub, bet1, bet2, eps, eps_open, rho2, v2, policy, follow, scratch):
    o = sub // 9
    pot = 1.0 + HIST_BETS[o] * bet1
    round2_value(probs, sub, rho2[sub], pot, float(bet2), eps, eps_open, v2[sub], policy, follow, scratch)


@kernel
def evaluate(probs, deal, trans, bet1, bet2, eps, eps_open, rho1, rho2, v2, u, vdraw, policy, follow, scratch):
    """Full pass; fills every cache; returns the player's value per hand. The player best-responds
    and writes its choices to policy, or (follow=True) plays the choices already in policy.
    The (eps-)best responder errs with eps at responses to bets and eps_open at openings and draws."""
    forward_round1(probs, deal, rho1)
    for o in range(7):
        for dp in range(3):
            forward_draw(probs, trans, rho1, o, dp, rho2)
            for ds in range(3):
                subtree_update(probs, trans, (o * 3 + dp) * 3 + ds, bet1, bet2, eps, eps_open, rho2, v2, policy, follow,
                               scratch)
            draw_layer(trans, v2, o, dp, u)
        draw_choice(u, o, eps_open, vdraw, policy, follow)
    return round1_value(probs, deal, float(bet1), eps, eps_open, vdraw, policy, follow)


@kernel
def reevaluate_row(probs, row, deal, trans, bet1, bet2, eps, eps_open, rho1, rho2, v2, u, vdraw, policy, scratch):
    """Value after only `row` changed: recompute just the caches that depend on it."""
    follow = False
    if row < DRAW_BASE:
        return evaluate(probs, deal, trans, bet1, bet2, eps, eps_open, rho1, rho2, v2, u, vdraw, policy, follow,
                        scratch)
    if row < ROUND2_BASE:
        od = (row - DRAW_BASE) // NH
        o, dp = od // 3, od % 3
        forward_draw(probs, trans, rho1, o, dp, rho2)
        for ds in range(3):
            subtree_update(probs, trans, od * 3 + ds, bet1, bet2, eps, eps_open, rho2, v2, policy, follow, scratch)
    else:
        sub = (row - ROUND2_BASE) // (4 * NH)
        o, dp = sub // 9, (sub // 3) % 3
        subtree_update(probs, trans, sub, bet1, bet2, eps, eps_open, rho2, v2, policy, follow, scratch)
    draw_layer(trans, v2, o, dp, u)
    draw_choice(u, o, eps_open, vdraw, policy, follow)
    return round1_value(probs, deal, float(bet1), eps, eps_open, vdraw, policy, follow)


@kernel
def random_row(probs, row, mask, state):
    """A fresh distribution for one row, uniform on the simplex of its allowed actions."""
    total = 0.0
    for a in range(3):
        if mask[row, a]:
            e = -math.log(1.0 - _rng.uniform(state))
            probs[row, a] = e
            total += e
        else:
            probs[row, a] = 0.0
    for a in range(3):
        probs[row, a] /= total


@kernel
def propose_row(probs, row, mask, state, old, perturb):
    """A fresh allowed distribution, or (perturb) a random step from the old one towards it."""
    random_row(probs, row, mask, state)
    if perturb:
        t = _rng.uniform(state)
        for a in range(3):
            probs[row, a] = (1.0 - t) * old[a] + t * probs[row, a]


@kernel
def generate(probs, mask, free_rows, steps, bet1, bet2, eps, eps_open, state, deal, trans, trace_every, trace,
             random_order, perturb, strict):
    """Random allowed start, then `steps` single-row proposals, each kept iff the eps-best-responder's
    value drops (strictly, or also on a tie when not strict). Rows come in a cyclic sweep over the
    free rows (or uniformly at random); a proposal is a fresh uniform draw on the allowed simplex
    (or a random step towards one). Returns that value; trace[k] = value after (k + 1) * trace_every
    steps."""
    for row in range(probs.shape[0]):
        random_row(probs, row, mask, state)
    rho1 = np.zeros((7, NH))
    rho2 = np.zeros((63, NH))
    v2 = np.zeros((63, NH))
    u = np.zeros((21, NH))
    vdraw = np.zeros((7, NH))
    policy = np.zeros(P_ROUND2_BASE + 63 * 4 * NH, dtype=np.int64)
    scratch = np.zeros((SCRATCH_ROWS, NH))
    value = evaluate(probs, deal, trans, bet1, bet2, eps, eps_open, rho1, rho2, v2, u, vdraw, policy, False, scratch)
    old = np.zeros(3)
    n_free = free_rows.shape[0]
    for step in range(steps):
        row = free_rows[_rng.below(state, n_free)] if random_order else free_rows[step % n_free]
        for a in range(3):
            old[a] = probs[row, a]
        propose_row(probs, row, mask, state, old, perturb)
        new = reevaluate_row(probs, row, deal, trans, bet1, bet2, eps, eps_open, rho1, rho2, v2, u, vdraw, policy,
                             scratch)
        if new < value or (not strict and new == value):
            value = new
        else:
            for a in range(3):
                probs[row, a] = old[a]
            reevaluate_row(probs, row, deal, trans, bet1, bet2, eps, eps_open, rho1, rho2, v2, u, vdraw, policy,
                           scratch)
        if trace_every > 0 and (step + 1) % trace_every == 0:
            trace[(step + 1) // trace_every - 1] = value
    return value


@kernel
def deal_hands(key, first, count, deal_purpose, server_purpose, cards, uniforms):
    """Per hand i: cards[i] = player's 2 dealt + server's 2 dealt + player's 2 replacements +
    server's 2 replacements (values 0..4); uniforms[i] = the server's 5 decision draws
    (round 1 twice, draw, round 2 twice). Everything derives from (key, hand index)."""
    state = np.zeros(1, dtype=np.uint64)
    for n in range(count):
        state[0] = _rng.derive_key(key, first + n, deal_purpose)
        for c in range(8):
            cards[n, c] = _rng.below(state, 5)
        state[0] = _rng.derive_key(key, first + n, server_purpose)
        for c in range(5):
            uniforms[n, c] = _rng.uniform(state)
