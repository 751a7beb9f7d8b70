"""Slow pure-Python twins of the Hold'em Training kernels, written from the statement's words.

Cards are engine ints (suit * 13 + rank, rank 0..12 for 2..A), as in the kernels.
"""

from itertools import combinations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

# Categories, weakest first, as in engine.holdem_training._kernels.
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def five_card_key(cards) -> tuple:
    """The statement's ordering of a 5-card hand: (type, tie-break sequence); larger is better."""
    ranks = [c % 13 for c in cards]
    suits = {c // 13 for c in cards}
    distinct = sorted(set(ranks))
    straight_top = None
    if len(distinct) == 5:
        if distinct[4] - distinct[0] == 4:
            straight_top = distinct[4]
        elif distinct == [0, 1, 2, 3, 12]:  # A-2-3-4-5, the lowest straight
            straight_top = 3
    flush = len(suits) == 1
    if straight_top is not None:
        return (STRAIGHT_FLUSH if flush else STRAIGHT, (straight_top,))
    multiplicity = {r: ranks.count(r) for r in ranks}
    ordered = tuple(sorted(((multiplicity[r], r) for r in ranks), reverse=True))
    shape = sorted(multiplicity.values(), reverse=True)
    if flush:
        category = FLUSH
    elif shape[0] == 4:
        category = QUADS
    elif shape[:2] == [3, 2]:
        category = FULL_HOUSE
    elif shape[0] == 3:
        category = TRIPS
    elif shape[:2] == [2, 2]:
        category = TWO_PAIR
    elif shape[0] == 2:
        category = ONE_PAIR
    else:
        category = HIGH_CARD
    return (category, ordered)


def seven_card_key(cards) -> tuple:
    return max(five_card_key(five) for five in combinations(cards, 5))


# --- SplitMix64, as engine/core/_rng.py defines it -------------------------------------------
def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def derive_key(key: int, index: int, purpose: int) -> int:
    z = mix64(key ^ mix64((index * GOLDEN + purpose) & MASK64))
    return mix64((z + GOLDEN) & MASK64)


class Stream:
    def __init__(self, state: int):
        self.state = state

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return mix64(self.state)

    def below(self, n: int) -> int:
        return ((self.next_u64() >> 32) * n) >> 32


def deal(match_key: int, index: int, deal_purpose: int) -> list[int]:
    """Hand `index`'s 9 cards: a Fisher-Yates shuffle of the deck stopped after 9 places."""
    stream = Stream(derive_key(match_key, index, deal_purpose))
    deck = list(range(52))
    for i in range(9):
        j = i + stream.below(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    return deck[:9]


def sample_outcomes(stream: Stream, hole, board, known: int, rollouts: int, value) -> tuple[int, int]:
    """(wins, ties) of `hole` against random completions; two 32-bit picks per 64-bit output."""
    seen = set(hole) | set(board[:known])
    unseen = [c for c in range(52) if c not in seen]
    need = 2 + 5 - known
    n = len(unseen)
    wins = ties = 0
    for _ in range(rollouts):
        for i in range(0, need, 2):
            r = stream.next_u64()
            for step, bits in enumerate((r >> 32, r & 0xFFFFFFFF)):
                place = i + step
                if place < need:
                    j = place + ((bits * (n - place)) >> 32)
                    unseen[place], unseen[j] = unseen[j], unseen[place]
        full_board = list(board[:known]) + unseen[2:need]
        mine = value(list(hole) + full_board)
        theirs = value(unseen[:2] + full_board)
        wins += mine > theirs
        ties += mine == theirs
    return wins, ties


def bob_calls_rule(bob_wins: int, ties: int, rollouts: int, pot: int, x: int) -> bool:
    """The reference interactor's rule: call iff -w*x + d*P/2 + (1-w-d)*(P+x) > 0 in doubles,
    left to right, with w = P(Alice better), d = P(tie) as counts / rollouts. Off exact
    break-even this is the statement's exact rule; at break-even rounding decides."""
    w = (rollouts - bob_wins - ties) / rollouts
    d = ties / rollouts
    return -w * x + d * pot / 2 + (1.0 - w - d) * (pot + x) > 0.0
