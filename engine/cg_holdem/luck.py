"""All-in luck in CodinGame Hold'em, taken out of a game's finish score without bias.

A unit is a whole game scored by finishing position, so a hand's chips are not the payoff. What can be
valued is the position the stacks after a hand promise: V(stacks) = the primary seat's expected finish
score, exact for a seat that busts (busts of one hand rank by chips put in) or wins, and by the
independent chip model (Malmuth-Harville: each surviving seat finishes first with its share of the chips,
then the next among the rest) otherwise. When every contender but at most one is all-in, no action
follows: the cards still to come are a uniform draw from the cards nobody holds and the board does not
show (the referee's shuffle; burned cards are unseen too), so

    luck = V(stacks the dealt board gave) - mean of V(stacks) over every board that could have come

has expectation zero given everything before the reveal, whatever V is and whatever is played later. A
game's correction is the sum over its all-in hands; `finish score - correction` keeps the mean. How much
spread it takes out depends on how well V follows the final score (measured in docs/statistics.md).
"""

import itertools
from functools import lru_cache

import numpy as np

from engine.cg_holdem.settle import pay_layers
from engine.core.hand_eval import hand_value7
from engine.core.jit import kernel

MAX_CONTENDERS = 4


@kernel
def _places(hole, board, dead, counts):
    """counts[code] += 1 for every completion of `board` (its known cards, -1 for those to come) from the
    cards not `dead`; code = sum over contenders j of place_j * 4**j, place = contenders with a better hand."""
    k = hole.shape[0]
    unseen = np.empty(52, np.int64)
    n = 0
    for c in range(52):
        if not dead[c]:
            unseen[n] = c
            n += 1
    known = 0
    while known < 5 and board[known] >= 0:
        known += 1
    r = 5 - known
    b = board.copy()
    idx = np.arange(r)
    values = np.empty(k, np.int64)
    while True:
        for j in range(r):
            b[known + j] = unseen[idx[j]]
        for j in range(k):
            values[j] = hand_value7(hole[j, 0], hole[j, 1], b[0], b[1], b[2], b[3], b[4])
        code = 0
        scale = 1
        for j in range(k):
            place = 0
            for i in range(k):
                if values[i] > values[j]:
                    place += 1
            code += place * scale
            scale *= 4
        counts[code] += 1
        # the next combination of r of the n unseen cards
        j = r - 1
        while j >= 0 and idx[j] == n - r + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for i in range(j + 1, r):
            idx[i] = idx[i - 1] + 1


def board_outcomes(hole: np.ndarray, board: tuple[int, ...], dead: set[int]) -> dict[tuple[int, ...], int]:
    """How many boards completing `board` give each ordering of the contenders' hands (places, 0 = best,
    ties share), over every completion from the cards not in `dead` (all dealt hole cards and the board)."""
    hole = np.asarray(hole, dtype=np.int64).reshape(-1, 2)
    return _outcomes(tuple(map(tuple, hole.tolist())), tuple(board), frozenset(dead))


@lru_cache(maxsize=20_000)  # the same deal's all-ins recur across duplicate seatings and paired configs
def _outcomes(hole_cards: tuple, board: tuple[int, ...], dead: frozenset) -> dict[tuple[int, ...], int]:
    hole = np.array(hole_cards, dtype=np.int64).reshape(-1, 2)
    k = len(hole)
    if not 2 <= k <= MAX_CONTENDERS:
        raise ValueError(f"{k} contenders: need 2..{MAX_CONTENDERS}")
    full = np.full(5, -1, np.int64)
    full[:len(board)] = board
    mask = np.zeros(52, np.bool_)
    mask[list(dead)] = True
    counts = np.zeros(4 ** k, np.int64)
    _places(hole, full, mask, counts)
    return {tuple((code // 4 ** j) % 4 for j in range(k)): int(c) for code, c in enumerate(counts) if c}


@lru_cache(maxsize=4096)
def _icm(stacks: tuple[int, ...], seat: int) -> tuple[float, ...]:
    """P(seat finishes j-th among the surviving seats), j = 0.., Malmuth-Harville."""
    alive = [s for s, x in enumerate(stacks) if x > 0]
    out = [0.0] * len(alive)
    for order in itertools.permutations(alive):
        p, left = 1.0, float(sum(stacks[s] for s in alive))
        for s in order:
            p *= stacks[s] / left
            left -= stacks[s]
        out[order.index(seat)] += p
    return tuple(out)


def finish_value(after: tuple[int, ...], put_in: tuple[int, ...], seat: int, players: int) -> float:
    """The finish score (players - position) / (players - 1) the stacks after a hand promise `seat`."""
    alive = sum(x > 0 for x in after)
    if after[seat] == 0:  # busted here: behind every survivor and every bust of this hand that put in more
        position = 1 + alive + sum(after[s] == 0 and put_in[s] > put_in[seat] for s in range(len(after)))
        return (players - position) / (players - 1)
    places = _icm(tuple(after), seat)
    return sum(p * (players - 1 - j) for j, p in enumerate(places)) / (players - 1)


def settle(start, put_in, folded, contenders, places, dealer: int) -> tuple[int, ...]:
    """Stacks after the hand when the contenders' hands rank as `places` (0 = best)."""
    values = [0] * len(start)
    for s, place in zip(contenders, places, strict=True):
        values[s] = -place
    won = pay_layers(list(put_in), list(folded), values, dealer)
    return tuple(int(a - b + w) for a, b, w in zip(start, put_in, won, strict=True))


def hand_luck(*, start, put_in, folded, hole, board: tuple[int, ...], shown: int, dealer: int, seat: int,
              players: int) -> tuple[float, tuple[int, ...]]:
    """(luck, stacks the dealt board gave) of one all-in hand: V(dealt) - E[V] over the boards that could
    follow the `shown` cards the betting ended on. hole[s] is None for a seat not dealt in."""
    contenders = [s for s in range(len(start)) if hole[s] is not None and not folded[s]]
    dead = {c for h in hole if h is not None for c in h} | set(board)
    cards = np.array([hole[s] for s in contenders])
    outcomes = board_outcomes(cards, board[:shown], dead)
    total = sum(outcomes.values())
    expected = sum(n * finish_value(settle(start, put_in, folded, contenders, places, dealer), put_in, seat, players)
                   for places, n in outcomes.items()) / total
    dealt = board_outcomes(cards, board, dead)
    (places,) = dealt
    after = settle(start, put_in, folded, contenders, places, dealer)
    return finish_value(after, put_in, seat, players) - expected, after
