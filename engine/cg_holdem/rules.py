"""CodinGame Hold'em ("Poker"): the contest's fixed facts and a frozen game config.

Facts (docs/rules/cg_holdem.md#constants): 2-4 seats, 4800 chips shared out,
blinds 5/10 doubling at every hand number divisible by 10, a street capped after 10 full
raises past the first, 600 decisions per game, 1000 ms for a player's first answer and
50 ms after.
"""

from dataclasses import dataclass

from engine.core.cards import card, rank_of, suit_of
from engine.core.errors import BadValue

MIN_PLAYERS = 2
MAX_PLAYERS = 4
TOTAL_CHIPS = 4800
SMALL_BLIND = 5
BIG_BLIND = 10
HANDS_PER_LEVEL = 10
LEVEL_MULTIPLIER = 2
RAISE_CAP = 10  # a street is capped once its count of full raises exceeds this
ROUND_CAP = 600
FIRST_TURN_MS = 1000
TURN_MS = 50

# Contest card text: rank char then suit char, suits in the referee's order C, D, H, S
# (the same order as engine/core/cards.py: c, d, h, s).
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "CDHS"
UNKNOWN = "X"
ELIMINATED = "E"

# Action words as the history and the possible-actions list spell them.
FOLD, CHECK, CALL, BET, ALL_IN, TIMEOUT, NONE = "FOLD", "CHECK", "CALL", "BET", "ALL-IN", "TIMEOUT", "NONE"


def big_blind(hand_nb: int) -> int:
    """Hand h (1-based) plays BB = 10 * 2**floor(h / 10): hands 1-9 at 10, 10-19 at 20, ..."""
    return BIG_BLIND * LEVEL_MULTIPLIER ** (hand_nb // HANDS_PER_LEVEL)


def buy_in(players: int) -> int:
    return TOTAL_CHIPS // players


def card_text(c: int) -> str:
    return RANK_CHARS[rank_of(c)] + SUIT_CHARS[suit_of(c)]


def parse_card_text(text: str) -> int:
    if len(text) != 2 or text[0] not in RANK_CHARS or text[1] not in SUIT_CHARS:
        raise BadValue(f"bad card {text!r}: expected a rank of {RANK_CHARS} then a suit of {SUIT_CHARS}")
    return card(SUIT_CHARS.index(text[1]), RANK_CHARS.index(text[0]))


# The referee's unshuffled deck: 2C, 2D, 2H, 2S, 3C, ... AS (rank-major), as engine ints.
REFEREE_DECK_ORDER = tuple(card(k % 4, k // 4) for k in range(52))


@dataclass(frozen=True)
class GameConfig:
    """One game's setup. ``stacks`` overrides the buy-in (a test-harness hook; the contest
    always deals 4800 / players); the time limits are in milliseconds."""

    players: int = 2
    stacks: tuple[int, ...] = ()
    round_cap: int = ROUND_CAP
    first_turn_ms: int = FIRST_TURN_MS
    turn_ms: int = TURN_MS
    clock: str = "wall"  # what the turn limits count: the arena's wall clock, or "cpu" (local play, busy machine)

    def __post_init__(self):
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise BadValue(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {self.players}")
        if self.stacks and (len(self.stacks) != self.players or min(self.stacks) <= 0):
            raise BadValue(f"stacks must be {self.players} positive numbers, got {self.stacks}")
        if self.round_cap < 1 or self.first_turn_ms <= 0 or self.turn_ms <= 0:
            raise BadValue("round_cap and time limits must be positive")
        if self.clock not in ("wall", "cpu"):  # engine.core.process.CLOCKS
            raise BadValue(f"clock {self.clock!r}: accepted: wall, cpu")

    def starting_stacks(self) -> tuple[int, ...]:
        return self.stacks or (buy_in(self.players),) * self.players
