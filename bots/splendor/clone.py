"""A fitted Splendor player: a conditional logit over the legal moves (flows/opponents/splendor.py fits it).

Every legal action code of a position gets a feature vector (`move_features`); the clone plays code i
with probability softmax(features @ weights)_i, drawn from its own seeded stream (or the most likely
code with `argmax`). Features use only what the mover's stdin shows (the piles' order and the others'
blind reservations never enter), so a position rebuilt from the hand log and the same position
determinised from an agent's stdin give the same features. The one-move lookahead features play the
move on that view with the unseen cards in id order (bots.splendor.view.determinise without a
generator, as cardlab's greedy bot sees the card that replaces one taken from the board). Chips given
back over the hand limit are not modelled: the clone returns the colours it holds most, as greedy does.
"""

from dataclasses import dataclass

import numpy as np

from bots.base import BotSpec, Ranged, seed_field, validated
from bots.splendor.simple import SeededBot, best_target, greedy_returns, noble_count, target_value
from bots.splendor.view import determinise
from engine.core import _rng
from engine.splendor import state as st
from engine.splendor.protocol import Observation
from engine.splendor.rules import CARD_BONUS, CARD_COST, CARD_LEVEL, CARD_POINTS, CARDS, GEMS, GOLD, NOBLE_REQ

# Move kinds (calibration is reported by kind). "buy" is the logit's reference kind: no dummy of its own.
KINDS = ("take3", "take_few", "take2", "reserve", "reserve_blind", "buy")

FEATURES = (
    "take3", "take_few", "take2", "reserve", "reserve_blind",  # kind dummies (buy = 0)
    "gems_taken",  # gem chips gained by the action
    "returns",  # chips given back over the hand limit
    "gold_gained",  # a reserve that still gets a gold chip
    "short_gain",  # fewer chips short of the nearest card (face-up or own reserved)
    "short_gain_points",  # the same over cards worth points
    "target_gain",  # change in the best (points + 1) / (1 + chips short) over the cards in reach
    "useful_gems",  # gem colours taken that some card in reach still needs
    "points",  # prestige gained now (card and noble)
    "points_behind",  # points x how far the mover trails the best opponent (in 15ths)
    "points_late",  # points x the game's progress (round / 25)
    "level",  # level of the card bought or reserved face-up (blind: the pile's level), in thirds
    "gold_spent",  # gold paid for a purchase
    "gems_spent",  # gem chips paid for a purchase
    "noble_progress",  # nobles still on the board whose requirement the bought colour advances
    "wins",  # the purchase brings the mover to 15 points
    "reserve_points",  # points of a card reserved face-up
    "reserve_short",  # chips still short of a card reserved face-up (after the gold)
    "deny",  # a card reserved face-up that an opponent can buy now
    "from_reserve",  # a purchase of an own reserved card
    # one move ahead, on the mover's view (the unseen cards in id order): changes in a position's value terms
    "ahead_target",  # the best (points + 1) / (1 + chips short) over the cards then on the board or reserved
    "ahead_nobles",  # bonus cards counting toward the nobles then on the board (a noble claimed leaves it)
    "ahead_threat",  # the most points the next player could then buy at once (a card on the board or reserved)
    "order",  # minus the move's place among the legal codes in their order, over their count: an agent that
    # keeps the first of equally valued moves (greedy) prefers early codes, which only this feature can say
)
NUM_FEATURES = len(FEATURES)
_F = {name: i for i, name in enumerate(FEATURES)}
WIN_POINTS = 15
LATE_ROUND = 25.0


def kind_of_code(code: int) -> int:
    """Index in KINDS of a canonical action code."""
    if code < st.CODE_TAKE_TWO:
        return 0 if len(st.TAKE_SETS[code]) == 3 else 1
    if code < st.CODE_RESERVE_UP:
        return 2
    if code < st.CODE_RESERVE_BLIND:
        return 3
    if code < st.CODE_BUY_UP:
        return 4
    return 5


def _threat(game: st.GameState, seat: int) -> int:
    """The most points `seat` could gain by one purchase now (a face-up card or one it reserved face-up:
    the cards it reserved blind are not known to the mover)."""
    p = game.players[seat]
    best = 0
    for cards in (*game.face_up, [c for c, secret in p.reserve if not secret]):
        for c in cards:
            if c and CARDS[c].points > best and p.can_afford(c):  # points first: most cards cannot raise it
                best = CARDS[c].points
    return best


def _ahead(game: st.GameState, codes: list[int]) -> np.ndarray:
    """(moves x 3): ahead_target, ahead_nobles, ahead_threat after each move, less their value now."""
    view = determinise(st.observe(game, game.seat))  # only what the mover sees: unseen cards in id order
    seat, nxt = view.seat, (view.seat + 1) % view.n
    me = view.players[seat]
    now = (target_value(view, me), noble_count(view, me), _threat(view, nxt))
    # A take changes only the mover's chips (and the board's): with no noble already due, the bonus, the
    # board's cards and nobles and the next player stay, so only the target is recomputed (once per chips).
    rows = (*view.face_up, me.reserved_ids())
    takes_alone = not st.visiting_noble(view)
    targets: dict[tuple[int, ...], float] = {}
    out = np.zeros((len(codes), 3))
    for i, code in enumerate(codes):
        move = greedy_returns(view, st.move_for_code(view, code))
        if takes_alone and code < st.CODE_RESERVE_UP:
            chips = st.chips_after(view, move)
            for c in move.returns:
                chips[c] -= 1
            key = tuple(chips)
            if key not in targets:
                targets[key] = best_target(rows, me.bonus, chips)
            out[i] = (targets[key], now[1], now[2])
            continue
        after = view.copy()
        st.apply(after, move)
        mine = after.players[seat]
        out[i] = (target_value(after, mine), noble_count(after, mine), _threat(after, nxt))
    return out - np.array(now)


def _short(costs: np.ndarray, bonus: np.ndarray, chips: np.ndarray) -> np.ndarray:
    """Chips short of each card (rows of costs) after bonuses, gems and gold; broadcast over moves."""
    need = np.maximum(0, costs - bonus[..., None, :] - chips[..., None, :GEMS]).sum(axis=-1)
    return np.maximum(0, need - chips[..., None, GOLD])


def move_features(game: st.GameState, codes: list[int]) -> np.ndarray:
    """Feature rows (len(codes) x NUM_FEATURES) of each legal code for the player to move."""
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
    reach = np.ones((n, len(targets)), dtype=bool)  # the cards still in reach after the move
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
                row[_F["deny"]] = any(p.can_afford(card) for j, p in enumerate(game.players) if j != game.seat)
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
        short = _short(costs, bonus, chips)  # moves x targets
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
            if kind_of_code(code) == 3:  # the reserved card's own distance, after the gold it brings
                slot = code - st.CODE_RESERVE_UP
                k = up.index(game.face_up[slot // 4][slot % 4])
                out[i, _F["reserve_short"]] = short[i, k]
    out[:, _F["ahead_target"]:_F["ahead_threat"] + 1] = _ahead(game, codes)
    out[:, _F["order"]] = -np.arange(n) / n
    return out


def probabilities(features: np.ndarray, weights: np.ndarray) -> np.ndarray:
    scores = features @ weights
    scores -= scores.max()
    p = np.exp(scores)
    return p / p.sum()


def _weights_refusal(text: str) -> str | None:
    if text == "":
        return None
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        return "not comma-separated numbers"
    if len(values) != NUM_FEATURES:
        return f"{len(values)} numbers, not {NUM_FEATURES}"
    if not all(np.isfinite(values)) or max(map(abs, values)) > 1e6:
        return "a weight is not finite or beyond 1e6"
    return None


@dataclass(frozen=True)
class CloneConfig(Ranged):
    # the fitted weights, one per FEATURES entry, comma-separated ('' = all 0: uniform over legal moves)
    weights: str = validated("", _weights_refusal, f"'' or {NUM_FEATURES} comma-separated finite numbers")
    argmax: bool = False  # play the most likely move instead of drawing one
    seed: int = seed_field(0)

    def weight_vector(self) -> np.ndarray:
        return np.array([float(v) for v in self.weights.split(",")]) if self.weights else np.zeros(NUM_FEATURES)


class CloneBot(SeededBot):
    def __init__(self, config: CloneConfig):
        super().__init__()
        self.config = config
        self.seed = config.seed
        self.weights = config.weight_vector()

    def choose(self, game: st.GameState, rng: np.ndarray) -> int:
        codes = st.legal_codes(game)
        p = probabilities(move_features(game, codes), self.weights)
        if self.config.argmax:
            return codes[int(np.argmax(p))]
        u = _rng.uniform(rng)
        return codes[min(int(np.searchsorted(np.cumsum(p), u, side="right")), len(codes) - 1)]

    def act(self, obs: Observation) -> str:
        game = determinise(obs)
        if not st.legal_codes(game):
            return st.PASS.text()
        code = self.choose(game, self.rng_for(obs))
        return greedy_returns(game, st.move_for_code(game, code)).text()


CLONE = BotSpec("clone", CloneConfig, CloneBot, "a fitted player: conditional logit over the legal moves")
