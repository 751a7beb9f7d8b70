"""Vector CFR+ over the public tree: both players' reach forward, both players' values backward.

Cards are independent, so at every public node each player's reach and value is a 15-vector over
its own hand, and a showdown is a prefix sum (hands are indexed by strength). Round-2 situations
are keyed by the post-draw hand only: the opponent's posterior does not depend on the pre-draw
hand given the public history, so this loses nothing, and reach vectors that sum chance over
pre-draw hands give the right average strategy.

A betting round has 8 decision nodes, player first (P0 opens; S0 after a check; P1 check-bet;
S2 check-bet-raise; P3 check-bet-raise-raise; S1 after a bet; P2 bet-raise; S3 bet-raise-raise)
and 7 closing leaves, numbered as rules.HISTORIES. Layouts: server probs (4155, 3) and player
probs (3945, 3) as rules.py. mode: 0 both follow their strategies; 1 the player best-responds;
2 the server best-responds. update: 0 none, 1 the player's regrets and average, 2 the server's.
The server plays `ss`; its regrets are measured against `sbase` (the same table, except in a
data-biased response, where ss mixes a fixed model into the regret-matched `sbase`).
"""

import numpy as np

from engine.core.jit import kernel
from engine.twocarddraw._kernels import _showdown

NH = 15
S_DRAW_BASE, S_ROUND2_BASE = 60, 375
P_DRAW_BASE, P_ROUND2_BASE = 60, 165
HIST_BETS = np.array([0, 1, 2, 3, 1, 2, 3], dtype=np.int64)
ACTOR = np.array([0, 1, 0, 1, 0, 1, 0, 1], dtype=np.int64)  # 0 player, 1 server
FACING = np.array([0, 0, 1, 2, 3, 1, 2, 3], dtype=np.int64)  # bets faced = row offset
# child of (node, action): a node >= 0, a closing leaf -(o + 1), or 99 for a fold (or not legal)
CHILD = np.array([[99, 1, 5], [99, -1, 2], [99, -2, 3], [99, -3, 4], [99, -4, 99], [99, -5, 6], [99, -6, 7],
                  [99, -7, 99]], dtype=np.int64)
ORDER = np.array([0, 1, 5, 2, 6, 3, 7, 4], dtype=np.int64)  # parents before children


@kernel
def _forward(prow, srow, reach_p, reach_s, sp, ss, node_p, node_s, leaf_p, leaf_s):
    """Reach of both players at the 8 nodes and the 7 closing leaves of one betting round."""
    for h in range(NH):
        node_p[0, h] = reach_p[h]
        node_s[0, h] = reach_s[h]
    for o in range(7):
        for h in range(NH):
            leaf_p[o, h] = 0.0
            leaf_s[o, h] = 0.0
    for k in range(8):
        n = ORDER[k]
        actor, row = ACTOR[n], (prow if ACTOR[n] == 0 else srow) + FACING[n] * NH
        for a in (1, 2):
            c = CHILD[n, a]
            if c == 99:
                continue
            for h in range(NH):
                pr = sp[row + h, a] if actor == 0 else 1.0
                sr = ss[row + h, a] if actor == 1 else 1.0
                if c >= 0:
                    node_p[c, h] = node_p[n, h] * pr
                    node_s[c, h] = node_s[n, h] * sr
                else:
                    leaf_p[-c - 1, h] += node_p[n, h] * pr
                    leaf_s[-c - 1, h] += node_s[n, h] * sr


@kernel
def _backward(prow, srow, pot, b, sp, ss, sbase, pmask, smask, node_p, node_s, leaf_vp, leaf_vs, mode, update,
              weight, reg_p, reg_s, avg_p, avg_s, out_vp, out_vs):
    """Values of both players at the round's root given the closing leaves' values; updates the
    acting player's regrets (CFR+) and average strategy when asked."""
    vp = np.zeros((8, NH))
    vs = np.zeros((8, NH))
    q = np.zeros((3, NH))  # the actor's value per action
    qo = np.zeros((3, NH))  # the other's value per action
    for k in range(7, -1, -1):
        n = ORDER[k]
        actor, f = ACTOR[n], FACING[n]
        row = (prow if actor == 0 else srow) + f * NH
        mask = pmask if actor == 0 else smask
        probs = sp if actor == 0 else ss
        base = sp if actor == 0 else sbase
        own = node_p if actor == 0 else node_s
        other = node_s if actor == 0 else node_p
        total_other = 0.0
        for h in range(NH):
            total_other += other[n, h]
        for a in range(3):
            c = CHILD[n, a]
            if a == 0:
                if f == 0:
                    continue
                amount = pot + (f - 1) * b  # the folder loses what it put in
                fold_mass = 0.0
                for h in range(NH):
                    fold_mass += own[n, h] * probs[row + h, 0]
                for h in range(NH):
                    q[0, h] = -amount * total_other
                    qo[0, h] = amount * fold_mass
                continue
            if c == 99:
                continue
            if c >= 0:
                for h in range(NH):
                    q[a, h] = vp[c, h] if actor == 0 else vs[c, h]
                    qo[a, h] = vs[c, h] if actor == 0 else vp[c, h]
            else:
                o = -c - 1
                for h in range(NH):
                    q[a, h] = leaf_vp[o, h] if actor == 0 else leaf_vs[o, h]
                    qo[a, h] = leaf_vs[o, h] if actor == 0 else leaf_vp[o, h]
        mine = vp if actor == 0 else vs
        theirs = vs if actor == 0 else vp
        for h in range(NH):
            theirs[n, h] = 0.0
        for a in range(3):
            if (a == 0 and f == 0) or (a > 0 and CHILD[n, a] == 99):
                continue
            for h in range(NH):
                theirs[n, h] += qo[a, h]  # the actor's choice is already in the child's reach
        best_response = (mode == 1 and actor == 0) or (mode == 2 and actor == 1)
        regrets = reg_p if actor == 0 else reg_s
        averages = avg_p if actor == 0 else avg_s
        _choose(row, q, probs, base, mask, own[n], best_response, update == actor + 1, weight, regrets, averages,
                mine[n])
    for h in range(NH):
        out_vp[h] = vp[0, h]
        out_vs[h] = vs[0, h]


@kernel
def _round2(sub, reach_p, reach_s, pot, b, sp, ss, sbase, pmask, smask, mode, update, weight, reg_p, reg_s, avg_p,
            avg_s, out_vp, out_vs):
    prow = P_ROUND2_BASE + sub * 4 * NH
    srow = S_ROUND2_BASE + sub * 4 * NH
    node_p = np.zeros((8, NH))
    node_s = np.zeros((8, NH))
    leaf_p = np.zeros((7, NH))
    leaf_s = np.zeros((7, NH))
    _forward(prow, srow, reach_p, reach_s, sp, ss, node_p, node_s, leaf_p, leaf_s)
    leaf_vp = np.zeros((7, NH))
    leaf_vs = np.zeros((7, NH))
    for o in range(7):
        amount = pot + HIST_BETS[o] * b
        _showdown(leaf_vp[o], leaf_s[o], amount)
        _showdown(leaf_vs[o], leaf_p[o], amount)
    _backward(prow, srow, pot, b, sp, ss, sbase, pmask, smask, node_p, node_s, leaf_vp, leaf_vs, mode, update, weight,
              reg_p, reg_s, avg_p, avg_s, out_vp, out_vs)


@kernel
def _after_round1(o, reach_p, reach_s, trans, bet1, bet2, sp, ss, sbase, pmask, smask, mode, update, weight, reg_p,
                  reg_s, avg_p, avg_s, out_vp, out_vs):
    """Both draws and the 9 round-2 subtrees after history o: values over pre-draw hands."""
    pot = 1.0 + HIST_BETS[o] * bet1
    post_p = np.zeros(NH)
    post_s = np.zeros(NH)
    v2p = np.zeros(NH)
    v2s = np.zeros(NH)
    vp_dp = np.zeros((3, NH))  # player's value over post-draw hands, per player draw
    vs_dp = np.zeros((3, NH))  # server's value over its pre-draw hands, per player draw
    qs = np.zeros((3, NH))
    for h in range(NH):
        out_vs[h] = 0.0
    for dp in range(3):
        for i in range(NH):
            post_p[i] = 0.0
        prow = P_DRAW_BASE + o * NH
        for p in range(NH):
            m = reach_p[p] * sp[prow + p, dp]
            if m != 0.0:
                for i in range(NH):
                    post_p[i] += m * trans[dp, p, i]
        srow = S_DRAW_BASE + (o * 3 + dp) * NH
        for i in range(NH):
            vp_dp[dp, i] = 0.0
        for ds in range(3):
            for i in range(NH):
                post_s[i] = 0.0
            for h in range(NH):
                m = reach_s[h] * ss[srow + h, ds]
                if m != 0.0:
                    for i in range(NH):
                        post_s[i] += m * trans[ds, h, i]
            _round2((o * 3 + dp) * 3 + ds, post_p, post_s, pot, float(bet2), sp, ss, sbase, pmask, smask, mode,
                    update, weight, reg_p, reg_s, avg_p, avg_s, v2p, v2s)
            for i in range(NH):
                vp_dp[dp, i] += v2p[i]
            for h in range(NH):
                acc = 0.0
                for i in range(NH):
                    acc += trans[ds, h, i] * v2s[i]
                qs[ds, h] = acc
        _choose(srow, qs, ss, sbase, smask, reach_s, mode == 2, update == 2, weight, reg_s, avg_s, vs_dp[dp])
        for h in range(NH):
            out_vs[h] += vs_dp[dp, h]
    qp = np.zeros((3, NH))
    for dp in range(3):
        for p in range(NH):
            acc = 0.0
            for i in range(NH):
                acc += trans[dp, p, i] * vp_dp[dp, i]
            qp[dp, p] = acc
    _choose(P_DRAW_BASE + o * NH, qp, sp, sp, pmask, reach_p, mode == 1, update == 1, weight, reg_p, avg_p, out_vp)


@kernel
def _choose(row, q, probs, base, mask, reach, best, update, weight, regrets, averages, out):
    """The actor's value per hand (its strategy's `probs`, or the best action's) and, if asked, the CFR+
    update of the regret-matched strategy `base` (probs itself, but for a data-biased server)."""
    for h in range(NH):
        r = row + h
        value = 0.0
        if best:
            value = -1e300
            for a in range(3):
                if mask[r, a] and q[a, h] > value:
                    value = q[a, h]
        else:
            for a in range(3):
                if mask[r, a]:
                    value += probs[r, a] * q[a, h]
        out[h] = value
        if update:
            own = 0.0  # base's value: the regrets' baseline (probs is base unless a model is mixed in)
            for a in range(3):
                if mask[r, a]:
                    own += base[r, a] * q[a, h]
            for a in range(3):
                if mask[r, a]:
                    regrets[r, a] = max(regrets[r, a] + q[a, h] - own, 0.0)
                    averages[r, a] += weight * reach[h] * base[r, a]


@kernel
def traverse(deal, trans, bet1, bet2, sp, ss, pmask, smask, mode, update, weight, reg_p, reg_s, avg_p, avg_s):
    """One pass; returns (player's value, server's value) per hand. Under mode 1 the first is the
    player's best-response value, under mode 2 the second is the server's."""
    return _traverse(deal, trans, bet1, bet2, sp, ss, ss, pmask, smask, mode, update, weight, reg_p, reg_s, avg_p,
                     avg_s)


@kernel
def _traverse(deal, trans, bet1, bet2, sp, ss, sbase, pmask, smask, mode, update, weight, reg_p, reg_s, avg_p, avg_s):
    node_p = np.zeros((8, NH))
    node_s = np.zeros((8, NH))
    leaf_p = np.zeros((7, NH))
    leaf_s = np.zeros((7, NH))
    _forward(0, 0, deal, deal, sp, ss, node_p, node_s, leaf_p, leaf_s)
    leaf_vp = np.zeros((7, NH))
    leaf_vs = np.zeros((7, NH))
    for o in range(7):
        _after_round1(o, leaf_p[o], leaf_s[o], trans, float(bet1), float(bet2), sp, ss, sbase, pmask, smask, mode,
                      update, weight, reg_p, reg_s, avg_p, avg_s, leaf_vp[o], leaf_vs[o])
    vp = np.zeros(NH)
    vs = np.zeros(NH)
    _backward(0, 0, 1.0, float(bet1), sp, ss, sbase, pmask, smask, node_p, node_s, leaf_vp, leaf_vs, mode, update,
              weight, reg_p, reg_s, avg_p, avg_s, vp, vs)
    value_p = 0.0
    value_s = 0.0
    for h in range(NH):
        value_p += deal[h] * vp[h]
        value_s += deal[h] * vs[h]
    return value_p, value_s


@kernel
def regret_match(regrets, mask, probs):
    """Current strategy: positive regrets normalised, uniform over the allowed actions if none."""
    for r in range(regrets.shape[0]):
        total = 0.0
        allowed = 0
        for a in range(3):
            if mask[r, a]:
                allowed += 1
                total += regrets[r, a]
        for a in range(3):
            if not mask[r, a]:
                probs[r, a] = 0.0
            elif total > 0.0:
                probs[r, a] = regrets[r, a] / total
            else:
                probs[r, a] = 1.0 / allowed


@kernel
def cfr_plus(deal, trans, bet1, bet2, pmask, smask, iterations, start, reg_p, reg_s, avg_p, avg_s, sp, ss):
    """`iterations` of alternating CFR+ with linear averaging (iteration t weighs t), continuing
    from iteration `start` with the given regrets and averages."""
    regret_match(reg_p, pmask, sp)
    regret_match(reg_s, smask, ss)
    for t in range(start + 1, start + iterations + 1):
        traverse(deal, trans, bet1, bet2, sp, ss, pmask, smask, 0, 1, float(t), reg_p, reg_s, avg_p, avg_s)
        regret_match(reg_p, pmask, sp)
        traverse(deal, trans, bet1, bet2, sp, ss, pmask, smask, 0, 2, float(t), reg_p, reg_s, avg_p, avg_s)
        regret_match(reg_s, smask, ss)


@kernel
def _biased(model, w, free, out):
    """The data-biased server: the model's probabilities with weight w[row], the free strategy's otherwise."""
    for r in range(model.shape[0]):
        for a in range(3):
            out[r, a] = w[r] * model[r, a] + (1.0 - w[r]) * free[r, a]


@kernel
def dbr_plus(deal, trans, bet1, bet2, pmask, smask, model, w, iterations, start, reg_p, reg_s, avg_p, avg_s, sp, ss,
             ss_play):
    """CFR+ as cfr_plus on the data-biased game (Johanson & Bowling 2009): at each row the server plays
    `model` with probability w[row] and is free (regret-matched `ss`) otherwise. The player's average
    strategy is the data-biased response; the server's regrets and average are the free part's."""
    regret_match(reg_p, pmask, sp)
    regret_match(reg_s, smask, ss)
    _biased(model, w, ss, ss_play)
    for t in range(start + 1, start + iterations + 1):
        _traverse(deal, trans, bet1, bet2, sp, ss_play, ss, pmask, smask, 0, 1, float(t), reg_p, reg_s, avg_p, avg_s)
        regret_match(reg_p, pmask, sp)
        _traverse(deal, trans, bet1, bet2, sp, ss_play, ss, pmask, smask, 0, 2, float(t), reg_p, reg_s, avg_p, avg_s)
        regret_match(reg_s, smask, ss)
        _biased(model, w, ss, ss_play)
