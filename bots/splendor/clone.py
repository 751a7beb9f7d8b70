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
from bots.splendor.simple import SeededBot, best_target, by_worth, greedy_returns, noble_count, target_value
from bots.splendor.view import determinise
from engine.core import _rng
from engine.splendor import state as st
from engine.splendor.protocol import Observation
from engine.splendor.rules import CARD_COST, CARD_POINTS, CARDS, GEMS, GOLD, NOBLES

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


def _threat(p: st.PlayerState, face_up, affords: dict[int, bool]) -> int:
    """The most points p could gain by one purchase now (a face-up card or one it reserved face-up: the
    cards it reserved blind are not known to the mover). `affords` keeps p.can_afford per card (p's own
    chips and bonus do not change while the mover's moves are tried)."""
    best = 0
    for cards in (*face_up, [c for c, secret in p.reserve if not secret]):
        for c in cards:
            if c and CARDS[c].points > best:  # points first: most cards cannot raise it
                if c not in affords:
                    affords[c] = p.can_afford(c)
                if affords[c]:
                    best = CARDS[c].points
    return best


def _ahead(game: st.GameState, codes: list[int], moves: list[st.Move], chips: list[list[int]]) -> np.ndarray:
    """(moves x 3): ahead_target, ahead_nobles, ahead_threat after each move, less their value now; `chips`:
    the mover's after each move's gains and returns (as they are on the view: the same chips and board).

    The position after a take or a reserve is written down rather than played: the mover's chips, the
    reserve and the one face-up slot a reserve refills (from the view's pile, as apply would). Purchases,
    and every move when a noble is already due (its visit would change the nobles), are played."""
    view = determinise(st.observe(game, game.seat))  # only what the mover sees: unseen cards in id order
    seat, nxt = view.seat, (view.seat + 1) % view.n
    me, other = view.players[seat], view.players[nxt]
    reserved = me.reserved_ids()
    cards = by_worth((*view.face_up, reserved))  # what a take leaves in reach
    affords: dict[int, bool] = {}
    now = (best_target(cards, me.bonus, me.chips), noble_count(view, me), _threat(other, view.face_up, affords))
    written = not st.visiting_noble(view)  # otherwise any move brings a noble: play them all
    targets: dict[tuple[int, ...], float] = {}  # takes reaching the same chips share their target
    out = np.empty((len(codes), 3))
    for i, (code, move) in enumerate(zip(codes, moves, strict=True)):
        if not written or code >= st.CODE_BUY_UP:
            after = view.copy()
            st.apply(after, move)
            mine, them = after.players[seat], after.players[nxt]
            out[i] = (target_value(after, mine), noble_count(after, mine), _threat(them, after.face_up, affords))
        elif code < st.CODE_RESERVE_UP:
            key = tuple(chips[i])
            if key not in targets:
                targets[key] = best_target(cards, me.bonus, chips[i])
            out[i] = (targets[key], now[1], now[2])
        elif code < st.CODE_RESERVE_BLIND:
            level, slot = divmod(code - st.CODE_RESERVE_UP, 4)
            face_up = list(view.face_up)
            face_up[level] = list(face_up[level])
            face_up[level][slot] = view.piles[level][0] if view.piles[level] else 0
            out[i] = (best_target(by_worth((*face_up, [*reserved, move.card])), me.bonus, chips[i]), now[1],
                      _threat(other, face_up, affords))
        else:
            drawn = view.piles[code - st.CODE_RESERVE_BLIND][0]
            out[i] = (best_target(by_worth((*view.face_up, [*reserved, drawn])), me.bonus, chips[i]), now[1], now[2])
    return out - np.array(now)


def _short(costs: np.ndarray, bonus: np.ndarray, chips: np.ndarray) -> np.ndarray:
    """Chips short of each card (rows of costs) after bonuses, gems and gold; broadcast over moves."""
    need = np.maximum(0, costs - bonus[..., None, :] - chips[..., None, :GEMS]).sum(axis=-1)
    return np.maximum(0, need - chips[..., None, GOLD])


def move_features(game: st.GameState, codes: list[int]) -> np.ndarray:
    """Feature rows (len(codes) x NUM_FEATURES) of each legal code for the player to move."""
    me = game.current
    n = len(codes)
    up = [c for row in game.face_up for c in row if c]
    own = me.reserved_ids()
    targets = up + own
    bonus0, chips0 = me.bonus, me.chips
    my_score = me.score
    behind = max(0, max((p.score for i, p in enumerate(game.players) if i != game.seat), default=0) - my_score)
    late = min(1.5, game.round / LATE_ROUND)
    # colours some card in reach still needs after bonuses and chips; each noble's missing bonus cards
    have0 = [b + c for b, c in zip(bonus0, chips0, strict=False)]  # zip stops at the 5 gem colours
    needed = [False] * GEMS
    for t in targets:
        for c, need in enumerate(CARDS[t].cost):
            if need > have0[c]:
                needed[c] = True
    deficits = [[max(0, need - have) for need, have in zip(NOBLES[nb].requires, bonus0, strict=True)]
                for nb in game.nobles]
    moves = [greedy_returns(game, st.move_for_code(game, code)) for code in codes]
    # plain Python per move (a row, the chips and bonus after it); numpy only for the moves x cards distances
    rows, chips, bonus = [], [], []
    reach = np.ones((n, len(targets)), dtype=bool)  # the cards still in reach after the move
    for i, (code, move) in enumerate(zip(codes, moves, strict=True)):
        kind = kind_of_code(code)
        row = [0.0] * NUM_FEATURES
        mine = st.chips_after(game, move)
        for c in move.returns:
            mine[c] -= 1
        gems = bonus0
        if kind < 5:
            row[_F["returns"]] = len(move.returns)
        if kind <= 2:
            row[kind] = 1.0
            row[_F["gems_taken"]] = (1 if kind < 2 else 2) * len(move.colours)
            row[_F["useful_gems"]] = sum(needed[c] for c in move.colours)
        elif kind in (3, 4):
            row[kind] = 1.0
            if game.board[GOLD]:
                row[_F["gold_gained"]] = 1.0  # chips_after gave it
            if kind == 3:
                card = CARDS[move.card]
                row[_F["level"]] = card.level / 3.0
                row[_F["reserve_points"]] = card.points
                row[_F["deny"]] = any(p.can_afford(move.card) for j, p in enumerate(game.players) if j != game.seat)
            else:
                row[_F["level"]] = (code - st.CODE_RESERVE_BLIND + 1) / 3.0
        else:
            if code < st.CODE_BUY_RESERVED:
                reach[i, up.index(move.card)] = False
            else:
                reach[i, len(up) + code - st.CODE_BUY_RESERVED] = False
                row[_F["from_reserve"]] = 1.0
            card = CARDS[move.card]
            spent = gold = 0
            for c, (need, have) in enumerate(zip(card.cost, bonus0, strict=True)):
                need = max(0, need - have)
                paid = min(need, chips0[c])
                mine[c] -= paid
                spent += paid
                gold += need - paid
            mine[GOLD] -= gold
            gems = list(bonus0)
            gems[card.bonus] += 1
            noble = 0
            if deficits:
                row[_F["noble_progress"]] = sum(d[card.bonus] > 0 for d in deficits)
                noble = 3 if any(sum(d) - (d[card.bonus] > 0) == 0 for d in deficits) else 0
            gained = card.points + noble
            row[_F["points"]] = gained
            row[_F["points_behind"]] = gained * behind / WIN_POINTS
            row[_F["points_late"]] = gained * late
            row[_F["level"]] = card.level / 3.0
            row[_F["gold_spent"]] = gold
            row[_F["gems_spent"]] = spent
            row[_F["wins"]] = my_score + gained >= WIN_POINTS
        rows.append(row)
        chips.append(mine)
        bonus.append(gems)
    out = np.array(rows, dtype=np.float64).reshape(n, NUM_FEATURES)
    if targets:
        costs, pts = CARD_COST[targets], CARD_POINTS[targets]
        short0 = _short(costs, np.array(bonus0, dtype=np.int64), np.array(chips0, dtype=np.int64))
        short = _short(costs, np.array(bonus, dtype=np.int64), np.array(chips, dtype=np.int64))  # moves x targets
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
                out[i, _F["reserve_short"]] = short[i, up.index(moves[i].card)]
    out[:, _F["ahead_target"]:_F["ahead_threat"] + 1] = _ahead(game, codes, moves, chips)
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
