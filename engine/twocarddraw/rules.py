"""TwoCardDraw facts: cards, hands, draws, bet limits and the server's situation layout.

Cards are independent uniform integers 0..4 (no deck, draws with replacement), so the two
players' hands are independent. Hands are indexed by strength (index 0 = 0-1 is weakest,
14 = 4-4 is best), which makes the showdown sign(i - j).
"""

from dataclasses import dataclass

import numpy as np

from engine.core.errors import BadValue

CARD_VALUES = 5
HANDS: tuple[tuple[int, int], ...] = (
    (0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3), (0, 4), (1, 4), (2, 4), (3, 4),
    (0, 0), (1, 1), (2, 2), (3, 3), (4, 4),
)
N_HANDS = len(HANDS)
BEST_HAND = N_HANDS - 1  # 4-4
HAND_INDEX = {hand: i for i, hand in enumerate(HANDS)}
MAX_BETS = 3  # per round; the opening bet counts
HANDS_PER_TEST = 10_000
CPU_LIMIT_SECONDS = 20.0
MEMORY_LIMIT_MB = 64

# actions at a betting decision (server rows and the player's round1/round2 answers)
FOLD, CALL, RAISE = 0, 1, 2
CHECK, BET = 0, 1  # the player's opening answer in new_hand

# The 7 ways round 1 can end without a fold, as (bets, who bet first): index o of the
# DRAW and ROUND2 rows. FIRST in files: 0 = the player (or nobody bet), 1 = the server.
PLAYER, SERVER = 0, 1
HISTORIES: tuple[tuple[int, int], ...] = (
    (0, PLAYER), (1, SERVER), (2, SERVER), (3, SERVER), (1, PLAYER), (2, PLAYER), (3, PLAYER),
)
HISTORY_INDEX = {h: o for o, h in enumerate(HISTORIES)}
N_HISTORIES = len(HISTORIES)

# Flat row layout of a server strategy: one (fold, call, raise) or (draw0, draw1, draw2) row each.
N_ROUND1_ROWS = (MAX_BETS + 1) * N_HANDS  # 60
N_DRAW_ROWS = N_HISTORIES * 3 * N_HANDS  # 315
N_ROUND2_ROWS = N_HISTORIES * 3 * 3 * (MAX_BETS + 1) * N_HANDS  # 3780
DRAW_BASE = N_ROUND1_ROWS
ROUND2_BASE = N_ROUND1_ROWS + N_DRAW_ROWS
N_ROWS = ROUND2_BASE + N_ROUND2_ROWS  # 4155


def hand_index(card1: int, card2: int) -> int:
    return HAND_INDEX[(min(card1, card2), max(card1, card2))]


def first_bettor(bets: int, player_opened: bool) -> int:
    """FIRST as files write it: 0 for the player or for nobody, 1 for the server."""
    return SERVER if bets > 0 and not player_opened else PLAYER


def history_index(bets: int, first: int) -> int:
    return HISTORY_INDEX[(bets, PLAYER if bets == 0 else first)]


def round1_row(bets: int, hand: int) -> int:
    return bets * N_HANDS + hand


def draw_row(history: int, player_drew: int, hand: int) -> int:
    return DRAW_BASE + (history * 3 + player_drew) * N_HANDS + hand


def round2_row(history: int, player_drew: int, server_drew: int, bets2: int, hand: int) -> int:
    return ROUND2_BASE + (((history * 3 + player_drew) * 3 + server_drew) * (MAX_BETS + 1) + bets2) * N_HANDS + hand


def _deal_probabilities() -> np.ndarray:
    w = np.zeros(N_HANDS)
    for a in range(CARD_VALUES):
        for b in range(CARD_VALUES):
            w[hand_index(a, b)] += 1.0 / CARD_VALUES**2
    return w


def _draw_transitions() -> np.ndarray:
    """T[d, p, i]: probability that hand p becomes hand i after drawing d cards (1 = swap the lower)."""
    t = np.zeros((3, N_HANDS, N_HANDS))
    w = _deal_probabilities()
    for p, (_lo, hi) in enumerate(HANDS):
        t[0, p, p] = 1.0
        t[2, p] = w
        for new in range(CARD_VALUES):
            t[1, p, hand_index(hi, new)] += 1.0 / CARD_VALUES
    return t


DEAL_PROB = _deal_probabilities()
DRAW_TRANSITION = _draw_transitions()


@dataclass(frozen=True)
class BetSizes:
    """One test's constants: bet1 in 1..5, bet2 in bet1..3*bet1 (35 legal pairs)."""

    bet1: int = 1
    bet2: int = 2

    def __post_init__(self):
        if not 1 <= self.bet1 <= 5:
            raise BadValue(f"bet1 must be 1..5, got {self.bet1}")
        if not self.bet1 <= self.bet2 <= 3 * self.bet1:
            raise BadValue(f"bet2 must be in bet1..3*bet1 = {self.bet1}..{3 * self.bet1}, got {self.bet2}")


ALL_BET_SIZES = tuple(BetSizes(b1, b2) for b1 in range(1, 6) for b2 in range(b1, 3 * b1 + 1))


def allowed_actions() -> np.ndarray:
    """(N_ROWS, 3) 0/1 mask of what the generator's constraints let each server row do.

    Never fold when calling is free (bets = 0) or with 4-4; never raise at the cap; 4-4 never
    draws; never draw 2 holding a 4; a pair never draws 1; 4-4 always raises in round 2.
    """
    mask = np.ones((N_ROWS, 3), dtype=np.int64)
    four_kicker = [i for i, (lo, hi) in enumerate(HANDS) if hi == 4 and lo != 4]
    pairs = [i for i, (lo, hi) in enumerate(HANDS) if lo == hi]
    for hand in range(N_HANDS):
        for bets in range(MAX_BETS + 1):
            _betting_mask(mask[round1_row(bets, hand)], bets, hand, round2=False)
        for o in range(N_HISTORIES):
            for dp in range(3):
                row = mask[draw_row(o, dp, hand)]
                if hand == BEST_HAND:
                    row[:] = (1, 0, 0)
                elif hand in four_kicker:
                    row[2] = 0
                elif hand in pairs:
                    row[1] = 0
                for ds in range(3):
                    for bets in range(MAX_BETS + 1):
                        _betting_mask(mask[round2_row(o, dp, ds, bets, hand)], bets, hand, round2=True)
    return mask


def _betting_mask(row: np.ndarray, bets: int, hand: int, *, round2: bool) -> None:
    if bets == 0 or hand == BEST_HAND:
        row[FOLD] = 0
    if bets == MAX_BETS:
        row[RAISE] = 0
    if round2 and hand == BEST_HAND:
        row[:] = (0, 1, 0) if bets == MAX_BETS else (0, 0, 1)


# The player's decision points, same shapes: round 1 [bets faced, hand] (0 = opening),
# draw [history, hand], round 2 [history, player drew, server drew, bets faced, hand].
# Policy codes: betting 0 fold, 1 call (check when opening), 2 raise (bet); draw = cards.
PLAYER_DRAW_BASE = (MAX_BETS + 1) * N_HANDS  # 60
PLAYER_ROUND2_BASE = PLAYER_DRAW_BASE + N_HISTORIES * N_HANDS  # 165
N_PLAYER_ROWS = PLAYER_ROUND2_BASE + N_ROUND2_ROWS  # 3945


def player_round1_row(bets: int, hand: int) -> int:
    return bets * N_HANDS + hand


def player_draw_row(history: int, hand: int) -> int:
    return PLAYER_DRAW_BASE + history * N_HANDS + hand


def player_round2_row(history: int, player_drew: int, server_drew: int, bets2: int, hand: int) -> int:
    return round2_row(history, player_drew, server_drew, bets2, hand) - ROUND2_BASE + PLAYER_ROUND2_BASE
