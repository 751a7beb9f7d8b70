"""The slow twin of the Splendor move features and greedy's evaluation, as they were before they were made
fast (bots/splendor/clone.py and simple.py at 88a39a2): generator expressions over the colours, every card's
shortfall recomputed per card per move. Tests check the fast code equals this exactly; the benchmark
(bench/splendor/features.py) times both. Kept self-contained: it never calls the helpers that were sped up
(PlayerState.shortfall/can_afford, evaluate, missing_for, greedy_returns)."""

import numpy as np

from bots.splendor.clone import _F, LATE_ROUND, NUM_FEATURES, WIN_POINTS, kind_of_code
from bots.splendor.simple import GreedyConfig
from bots.splendor.view import determinise
from engine.splendor import state as st
from engine.splendor.rules import (
    CARD_BONUS,
    CARD_COST,
    CARD_LEVEL,
    CARD_POINTS,
    CARDS,
    GEMS,
    GOLD,
    HAND_LIMIT,
    NOBLE_REQ,
    NOBLES,
)

_TARGET_ONLY = GreedyConfig(points=0.0, bonus=0.0, chip=0.0, gold=0.0, reserved=0.0, target=1.0, noble=0.0)
_NOBLES_ONLY = GreedyConfig(points=0.0, bonus=0.0, chip=0.0, gold=0.0, reserved=0.0, target=0.0, noble=1.0)


def shortfall(p: st.PlayerState, card_id: int) -> int:
    cost = CARDS[card_id].cost
    return sum(max(0, cost[c] - p.bonus[c] - p.chips[c]) for c in range(GEMS))


def can_afford(p: st.PlayerState, card_id: int) -> bool:
    return shortfall(p, card_id) <= p.chips[GOLD]


def missing_for(p: st.PlayerState, card_id: int) -> int:
    return max(0, shortfall(p, card_id) - p.chips[GOLD])


def evaluate(game: st.GameState, seat: int, cfg: GreedyConfig) -> float:
    p = game.players[seat]
    candidates = [c for row in game.face_up for c in row if c] + p.reserved_ids()
    target = max(((CARDS[c].points + 1) / (1 + missing_for(p, c)) for c in candidates), default=0.0)
    nobles = sum(min(need, have) for n in game.nobles
                 for need, have in zip(NOBLES[n].requires, p.bonus, strict=True))
    return (cfg.points * p.score + cfg.bonus * len(p.cards) + cfg.chip * sum(p.chips[:GEMS])
            + cfg.gold * p.chips[GOLD] - cfg.reserved * len(p.reserve) + cfg.target * target + cfg.noble * nobles)


def greedy_move(game: st.GameState, cfg: GreedyConfig) -> st.Move:
    seat, best, best_value = game.seat, st.PASS, -1e18
    for code in st.legal_codes(game):
        if st.CODE_RESERVE_BLIND <= code < st.CODE_BUY_UP:
            continue
        move = greedy_returns(game, st.move_for_code(game, code))
        after = game.copy()
        st.apply(after, move)
        value = evaluate(after, seat, cfg)
        if value > best_value + 1e-9:
            best, best_value = move, value
    return best


def _threat(game: st.GameState, seat: int) -> int:
    p = game.players[seat]
    cards = [c for row in game.face_up for c in row if c] + [c for c, secret in p.reserve if not secret]
    return max((int(CARD_POINTS[c]) for c in cards if can_afford(p, c)), default=0)


def _ahead(game: st.GameState, codes: list[int]) -> np.ndarray:
    view = determinise(st.observe(game, game.seat))
    seat, nxt = view.seat, (view.seat + 1) % view.n
    out = np.zeros((len(codes), 3))
    for i, code in enumerate(codes):
        after = view.copy()
        st.apply(after, greedy_returns(view, st.move_for_code(view, code)))
        out[i] = (evaluate(after, seat, _TARGET_ONLY), evaluate(after, seat, _NOBLES_ONLY), _threat(after, nxt))
    now = (evaluate(view, seat, _TARGET_ONLY), evaluate(view, seat, _NOBLES_ONLY), _threat(view, nxt))
    return out - np.array(now)


def _short(costs: np.ndarray, bonus: np.ndarray, chips: np.ndarray) -> np.ndarray:
    need = np.maximum(0, costs - bonus[..., None, :] - chips[..., None, :GEMS]).sum(axis=-1)
    return np.maximum(0, need - chips[..., None, GOLD])


def move_features(game: st.GameState, codes: list[int]) -> np.ndarray:
    me = game.current
    n = len(codes)
    out = np.zeros((n, NUM_FEATURES))
    chips0 = np.array(me.chips, dtype=np.int64)
    bonus0 = np.array(me.bonus, dtype=np.int64)
    up = [c for row in game.face_up for c in row if c]
    own = me.reserved_ids()
    targets = np.array(up + own, dtype=np.int64)
    costs = CARD_COST[targets] if len(targets) else np.zeros((0, GEMS), dtype=np.int64)
    pts = CARD_POINTS[targets] if len(targets) else np.zeros(0, dtype=np.int64)
    chips = np.repeat(chips0[None], n, axis=0)
    bonus = np.repeat(bonus0[None], n, axis=0)
    reach = np.ones((n, len(targets)), dtype=bool)
    my_score = me.score
    behind = max(0, max((p.score for i, p in enumerate(game.players) if i != game.seat), default=0) - my_score)
    late = min(1.5, game.round / LATE_ROUND)
    short0 = _short(costs, bonus0, chips0)
    needed = (np.maximum(0, costs - bonus0 - chips0[:GEMS]) > 0).any(axis=0) if len(targets) else np.zeros(GEMS, bool)
    noble_deficit = np.array([np.maximum(0, NOBLE_REQ[nb] - bonus0) for nb in game.nobles], dtype=np.int64).reshape(
        -1, GEMS)
    for i, code in enumerate(codes):
        kind = kind_of_code(code)
        row = out[i]
        if kind < 5:
            move = greedy_returns(game, st.move_for_code(game, code))
            for c in move.returns:
                chips[i, c] -= 1
            row[_F["returns"]] = len(move.returns)
        if kind <= 2:
            row[kind] = 1.0
            colours = st.TAKE_SETS[code] if kind < 2 else (code - st.CODE_TAKE_TWO,)
            gain = 1 if kind < 2 else 2
            for c in colours:
                chips[i, c] += gain
            row[_F["gems_taken"]] = gain * len(colours)
            row[_F["useful_gems"]] = sum(bool(needed[c]) for c in colours)
        elif kind in (3, 4):
            row[kind] = 1.0
            if game.board[GOLD]:
                chips[i, GOLD] += 1
                row[_F["gold_gained"]] = 1.0
            if kind == 3:
                slot = code - st.CODE_RESERVE_UP
                card = game.face_up[slot // 4][slot % 4]
                row[_F["level"]] = CARD_LEVEL[card] / 3.0
                row[_F["reserve_points"]] = CARD_POINTS[card]
                row[_F["deny"]] = any(can_afford(p, card) for j, p in enumerate(game.players) if j != game.seat)
            else:
                row[_F["level"]] = (code - st.CODE_RESERVE_BLIND + 1) / 3.0
        else:
            if code < st.CODE_BUY_RESERVED:
                slot = code - st.CODE_BUY_UP
                card = game.face_up[slot // 4][slot % 4]
                reach[i, up.index(card)] = False
            else:
                card = own[code - st.CODE_BUY_RESERVED]
                reach[i, len(up) + code - st.CODE_BUY_RESERVED] = False
                row[_F["from_reserve"]] = 1.0
            need = np.maximum(0, CARD_COST[card] - bonus0)
            paid = np.minimum(need, chips0[:GEMS])
            gold = int(need.sum() - paid.sum())
            chips[i, :GEMS] -= paid
            chips[i, GOLD] -= gold
            colour = CARD_BONUS[card]
            bonus[i, colour] += 1
            noble = 0
            if len(noble_deficit):
                helps = noble_deficit[:, colour] > 0
                row[_F["noble_progress"]] = helps.sum()
                after = noble_deficit.copy()
                after[:, colour] = np.maximum(0, after[:, colour] - 1)
                noble = 3 if (after.sum(axis=1) == 0).any() else 0
            gained = CARD_POINTS[card] + noble
            row[_F["points"]] = gained
            row[_F["points_behind"]] = gained * behind / WIN_POINTS
            row[_F["points_late"]] = gained * late
            row[_F["level"]] = CARD_LEVEL[card] / 3.0
            row[_F["gold_spent"]] = gold
            row[_F["gems_spent"]] = paid.sum()
            row[_F["wins"]] = my_score + gained >= WIN_POINTS
    if len(targets):
        short = _short(costs, bonus, chips)
        big = 99
        nearest0 = short0.min()
        nearest = np.where(reach, short, big).min(axis=1)
        has = reach.any(axis=1)
        out[:, _F["short_gain"]] = np.where(has, nearest0 - np.minimum(nearest, nearest0 + 3), 0)
        pointy = pts > 0
        if pointy.any():
            p0 = short0[pointy].min()
            p1 = np.where(reach[:, pointy], short[:, pointy], big).min(axis=1)
            out[:, _F["short_gain_points"]] = np.where(reach[:, pointy].any(axis=1), p0 - np.minimum(p1, p0 + 3), 0)
        value0 = ((pts + 1) / (1 + short0)).max()
        value = np.where(reach, (pts + 1) / (1 + short), 0.0).max(axis=1)
        out[:, _F["target_gain"]] = value - value0
        for i, code in enumerate(codes):
            if kind_of_code(code) == 3:
                slot = code - st.CODE_RESERVE_UP
                k = up.index(game.face_up[slot // 4][slot % 4])
                out[i, _F["reserve_short"]] = short[i, k]
    out[:, _F["ahead_target"]:_F["ahead_threat"] + 1] = _ahead(game, codes)
    out[:, _F["order"]] = -np.arange(n) / n
    return out


# -- positions to compare on: whole games of mixed bots (greedy of several settings, uniform random) -----------
# greedy of several settings and uniform random (None); the last greedy buys whatever it can: it empties the
# level-1 pile, so a reserved slot is left empty
PLAYERS = (GreedyConfig(), GreedyConfig(target=4.0, noble=4.0), GreedyConfig(points=-20.0, chip=3.0), None,
           GreedyConfig(points=0.0, target=0.0, bonus=10.0))


def positions(seed: int, games: int, players: int = 2):
    """Every position (before each move) of `games` games, seats played by PLAYERS in turn (None: random)."""
    from engine.core.seeds import stream
    from engine.splendor.rules import SplendorConfig

    for g in range(games):
        game = st.GameState.new(st.deal_from_key(seed * 1000 + g, players), SplendorConfig(players=players))
        rng = stream(seed * 7919 + g)
        cfgs = [PLAYERS[(g + s) % len(PLAYERS)] for s in range(players)]
        while not game.over:
            if not st.legal_codes(game):
                st.apply_pass(game, "")
                continue
            yield game.copy()
            cfg = cfgs[game.seat]
            st.apply(game, st.random_move(game, rng) if cfg is None else greedy_move(game, cfg))


def greedy_returns(game: st.GameState, move: st.Move) -> st.Move:
    chips = st.chips_after(game, move)
    returns = []
    while sum(chips) > HAND_LIMIT:
        colour = max(range(GEMS), key=lambda c: (chips[c], -c))
        chips[colour] -= 1
        returns.append(colour)
    return st.Move(move.action, move.colours, move.card, tuple(returns))
