"""The 52-card deck shared by the poker games: card = suit * 13 + rank, rank 0..12 = 2..A."""

from engine.core.errors import BadValue

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK_SIZE = 52


def card(suit: int, rank: int) -> int:
    if not (0 <= suit < 4 and 0 <= rank < 13):
        raise ValueError(f"no such card: suit {suit}, rank {rank} (expected suit 0..3, rank 0..12)")
    return suit * 13 + rank


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    return c % 13


def card_name(c: int) -> str:
    """Two-letter name such as 'As' (rank letter, suit letter), as poker libraries spell it."""
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


def parse_card_name(name: str) -> int:
    if len(name) != 2 or name[0] not in RANKS or name[1] not in SUITS:
        raise BadValue(f"bad card name {name!r}: expected a rank of {RANKS} and a suit of {SUITS}")
    return card(SUITS.index(name[1]), RANKS.index(name[0]))
