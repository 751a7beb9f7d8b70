"""Facts of the Hold'em Training contest, declared once.

Cards use the engine encoding (engine/core/cards.py): card = suit * 13 + rank, rank 0..12
for 2..A. The contest prints a card as "suit value" with value = rank + 1.
"""

import math
from dataclasses import dataclass

from engine.core.errors import BadValue

START_STACK = 100  # both players, every hand
START_POT = 10  # paid by neither player
ROUNDS = 4
BOARD_SIZE_BY_ROUND = (0, 3, 4, 5)  # community cards visible in rounds 1..4
HOLE_CARDS = 2
BOB_ROLLOUTS = 100  # Bob's Monte Carlo completions per call decision
RATE_BUDGET = 3_000_000  # total RATE rollouts per match
MAX_HANDS = 10_000  # official tests
CPU_SECONDS = 10.0  # contest time limit for the whole match
MEMORY_MB = 512.0

CHECK = "CHECK"
FOLD = "FOLD"
RAISE = "RAISE"
ACTION_KINDS = (CHECK, FOLD, RAISE)
CALL = "CALL"  # Bob's answers: CHECK (after a check), CALL or FOLD (after a raise)

# How a hand ended (the raw hands table stores these codes).
END_SHOWDOWN = 0
END_ALICE_FOLD = 1
END_BOB_FOLD = 2
END_NAMES = ("showdown", "alice_fold", "bob_fold")


@dataclass(frozen=True)
class View:
    """What Alice sees at one decision: the STATE / ALICE / BOARD lines."""

    hand: int  # 1-based
    round: int  # 1..4
    stack: int  # a
    opp_stack: int  # b
    pot: int  # P
    hole: tuple[int, int]  # engine card ints
    board: tuple[int, ...]  # 0, 3, 4 or 5 engine card ints, deal order


def view_of(hand: int, round_: int, stack: int, opp_stack: int, pot: int, hole: tuple[int, int],
            board: tuple[int, ...]) -> View:
    """View(...) built without the frozen dataclass's per-field __setattr__ (the judge makes
    one per decision, tens of thousands per second); the result is an ordinary View."""
    view = object.__new__(View)
    view.__dict__.update(hand=hand, round=round_, stack=stack, opp_stack=opp_stack, pot=pot, hole=hole,
                         board=board)
    return view


@dataclass(frozen=True)
class Action:
    kind: str  # CHECK, FOLD or RAISE
    amount: int = 0  # chips, RAISE only


@dataclass(frozen=True)
class MatchConfig:
    """A match as the contest runs it; the defaults are the official ones."""

    hands: int = MAX_HANDS
    rate_budget: int = RATE_BUDGET
    bob_rollouts: int = BOB_ROLLOUTS
    cpu_seconds: float = CPU_SECONDS
    memory_mb: float = MEMORY_MB

    def __post_init__(self):
        if self.hands < 1:
            raise BadValue(f"hands must be at least 1, got {self.hands}")
        if self.rate_budget < 0:
            raise BadValue(f"rate_budget must be >= 0, got {self.rate_budget}")
        if self.bob_rollouts < 1:
            raise BadValue(f"bob_rollouts must be >= 1, got {self.bob_rollouts}")


def points(w: float) -> int:
    """The statement's piecewise-linear points for an average profit W. Its round() is taken as
    C's (halves away from zero): W is a multiple of 1/G, so 14 * (W - 11) can end in exactly .5."""
    if w <= 8.0:
        return 0
    if w <= 11.0:
        return _round_half_up(13.3 * (w - 8.0))
    if w <= 14.0:
        return 40 + _round_half_up(14.0 * (w - 11.0))
    return 82 + _round_half_up(3.0 * (w - 14.0))


REFERENCE_POINTS_CAP = 100  # the reference's points stop at 100 (W >= 20); the statement's do not


def reference_points(w: float) -> int:
    """The statement's points as the reference caps them."""
    return min(points(w), REFERENCE_POINTS_CAP)


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)  # x >= 0 here
