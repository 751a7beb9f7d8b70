"""Numba kernels for the search bot: pruned move generation, playout policy, and the MCTS loop.

The tree is single-observer ISMCTS over the engine's action codes: every iteration starts
from one of D pre-sampled determinisations (hidden pile order and blind reservations),
so chance at refills has at most D outcomes per node (limited chance branching), and a
child's exploration term counts how often it was available.
"""

import numpy as np

from engine.core._rng import below, uniform
from engine.core.jit import kernel
from engine.splendor import _kernels as E
from engine.splendor.rules import CARD_POINTS

SEARCH_MOVE_CAP = 64


@kernel
def search_codes(s, out):
    """Legal codes that never need returns: takes sized to the room in hand (three different
    colours when possible), reserves only face-up and only when the gold fits, every buy; a
    pass only when nothing else is possible. Ascending, like E.legal_codes."""
    p = E.player_base(s, s[E.SEAT])
    held = E.chip_count(s, p)
    room = E.HAND_LIMIT - held
    colours = 0
    for c in range(5):
        if s[E.BOARD + c] > 0:
            colours += 1
    size = min(3, colours, room)
    n = 0
    if size > 0:
        for code in range(E.C_TWO):
            if E.TAKE_SIZE[code] != size:
                continue
            ok = True
            for j in range(size):
                if s[E.BOARD + E.TAKE_SET[code, j]] == 0:
                    ok = False
            if ok:
                out[n] = code
                n += 1
    if room >= 2:
        for c in range(5):
            if s[E.BOARD + c] >= 4:
                out[n] = E.C_TWO + c
                n += 1
    if s[p + E.NRES] < 3 and (room >= 1 or s[E.BOARD + 5] == 0):
        for i in range(12):
            if s[E.FACE + i] != 0:
                out[n] = E.C_RES_UP + i
                n += 1
    gold = s[p + E.CH + 5]
    for i in range(12):
        card = s[E.FACE + i]
        if card != 0 and E.shortfall(s, p, card) <= gold:
            out[n] = E.C_BUY_UP + i
            n += 1
    for r in range(s[p + E.NRES]):
        if E.shortfall(s, p, s[p + E.RES + r]) <= gold:
            out[n] = E.C_BUY_RES + r
            n += 1
    if n == 0:
        out[0] = 0
        n = 1
    return n


@kernel
def card_of_code(s, code):
    if code >= E.C_BUY_RES:
        return s[E.player_base(s, s[E.SEAT]) + E.RES + code - E.C_BUY_RES]
    return s[E.FACE + code - E.C_BUY_UP]


@kernel
def playout_code(s, rng, codes, greedy_buy):
    """With probability greedy_buy, buy the most valuable affordable card; else uniform."""
    n = search_codes(s, codes)
    if codes[n - 1] >= E.C_BUY_UP and uniform(rng) < greedy_buy:
        best, best_points = -1, -1
        for k in range(n):
            if codes[k] >= E.C_BUY_UP:
                pts = CARD_POINTS[card_of_code(s, codes[k])]
                if pts > best_points:
                    best, best_points = codes[k], pts
        return best
    return codes[below(rng, n)]


@kernel
def play_code(s, code, paid):
    E.apply_action(s, code, paid)
    E.finish_turn(s)


@kernel
def rewards_of(s, rewards, scale):
    """Finished game: winners (score, then fewest cards; none under 15) share 1. Cut off
    game: a logistic of each player's lead over the best other (points + 0.4 per card)."""
    n = s[E.N]
    if s[E.OVER] == 1:
        best_pts, best_cards, winners = -1, 1 << 30, 0
        for seat in range(n):
            b = E.player_base(s, seat)
            pts, cards = s[b + E.PTS], s[b + E.NCARDS]
            if pts > best_pts or (pts == best_pts and cards < best_cards):
                best_pts, best_cards = pts, cards
        for seat in range(n):
            b = E.player_base(s, seat)
            rewards[seat] = 0.0
            if best_pts >= E.WIN_POINTS and s[b + E.PTS] == best_pts and s[b + E.NCARDS] == best_cards:
                rewards[seat] = 1.0
                winners += 1
        for seat in range(n):
            if winners > 0:
                rewards[seat] /= winners
        return
    for seat in range(n):
        b = E.player_base(s, seat)
        mine = s[b + E.PTS] + 0.4 * s[b + E.NCARDS]
        other = -1e9
        for o in range(n):
            if o != seat:
                bo = E.player_base(s, o)
                other = max(other, s[bo + E.PTS] + 0.4 * s[bo + E.NCARDS])
        rewards[seat] = 1.0 / (1.0 + np.exp(-(mine - other) / scale))


@kernel
def mcts(dets, first, iterations, rng, tree, value, params, n_nodes):
    """Runs ``iterations`` more iterations on the tree; returns the new node count.

    tree[:, 0..5] = first child, next sibling, action code, mover, visits, availability.
    params = exploration, playout turns, greedy-buy probability, cutoff scale.
    """
    explore, playout_turns, greedy_buy, scale = params[0], int(params[1]), params[2], params[3]
    capacity = tree.shape[0]
    s = np.zeros(E.SIZE, dtype=np.int64)
    codes = np.zeros(SEARCH_MOVE_CAP, dtype=np.int64)
    flags = np.zeros(E.NUM_CODES, dtype=np.int64)
    paid = np.zeros(6, dtype=np.int64)
    path = np.zeros(512, dtype=np.int64)
    rewards = np.zeros(4, dtype=np.float64)
    for it in range(iterations):
        s[:] = dets[(first + it) % dets.shape[0]]
        node, depth = 0, 0
        path[0] = 0
        while s[E.OVER] == 0 and depth < 500:
            n = search_codes(s, codes)
            for k in range(n):
                flags[codes[k]] = 1
            untried = n
            child = tree[node, 0]
            while child != -1:
                if flags[tree[child, 2]] == 1:
                    flags[tree[child, 2]] = 2
                    untried -= 1
                child = tree[child, 1]
            if untried > 0 and n_nodes < capacity:
                pick = below(rng, untried)
                code = -1
                for k in range(n):
                    if flags[codes[k]] == 1:
                        if pick == 0:
                            code = codes[k]
                        pick -= 1
                for k in range(n):
                    flags[codes[k]] = 0
                new = n_nodes
                n_nodes += 1
                tree[new, 0], tree[new, 1], tree[new, 2] = -1, tree[node, 0], code
                tree[new, 3], tree[new, 4], tree[new, 5] = s[E.SEAT], 0, 0
                value[new] = 0.0
                tree[node, 0] = new
                play_code(s, code, paid)
                depth += 1
                path[depth] = new
                break
            best, best_score = -1, -1e300
            child = tree[node, 0]
            while child != -1:
                if flags[tree[child, 2]] == 2:
                    tree[child, 5] += 1
                    visits = tree[child, 4]
                    score = value[child] / visits + explore * np.sqrt(np.log(tree[child, 5]) / visits)
                    if score > best_score:
                        best, best_score = child, score
                child = tree[child, 1]
            for k in range(n):
                flags[codes[k]] = 0
            if best == -1:
                break
            play_code(s, tree[best, 2], paid)
            node = best
            depth += 1
            path[depth] = node
        turns = 0
        while s[E.OVER] == 0 and turns < playout_turns:
            play_code(s, playout_code(s, rng, codes, greedy_buy), paid)
            turns += 1
        rewards_of(s, rewards, scale)
        for d in range(1, depth + 1):
            v = path[d]
            tree[v, 4] += 1
            value[v] += rewards[tree[v, 3]]
        tree[0, 4] += 1
    return n_nodes


@kernel
def root_children(tree, value, out_codes, out_visits, out_values):
    """The root's children: action code, visits and mean reward; returns how many."""
    n = 0
    child = tree[0, 0]
    while child != -1:
        out_codes[n] = tree[child, 2]
        out_visits[n] = tree[child, 4]
        out_values[n] = value[child] / max(1, tree[child, 4])
        n += 1
        child = tree[child, 1]
    return n
