"""Tractor (Shengji, SPOJ TRACTOR): the facts of the game and the card order of a round.

Cards are ints 0..53: suit * 13 + rank for the four suits (H, S, C, D, rank 0..12 = 2..A),
then 52 = BJ (black joker) and 53 = RJ (red joker). Two decks hold two copies of each id.
The contest text spells a card as two letters (suit then rank, or BJ/RJ); `TOKEN[id]`.

Order codes: a (main suit, CR) pair gives every card a code whose high bits are its group
(one non-trump suit, or the trumps) and whose low 4 bits its place in that group, so
codes compare across groups (any trump beats any non-trump) and consecutive codes in a
group are neighbours for tractors (the CR rank is taken out of the sequence).
"""

from dataclasses import dataclass
from functools import cache

from engine.core.errors import BadValue

SEATS = ("Alice", "Bob", "Charles", "David")  # clockwise; Alice+Charles = team 1
SUITS = "HSCD"
NO_MAIN = "O"  # the contest's letter for "no main suit"
MAIN_LETTERS = SUITS + NO_MAIN
RANKS = "23456789TJQKA"
JOKERS = ("BJ", "RJ")
BLACK_JOKER = 52
RED_JOKER = 53
CARD_IDS = 54
DECKS = 2
DECK_SIZE = CARD_IDS * DECKS  # 108
HAND_SIZE = 25  # cards each player plays in a round
HIDDEN_SIZE = 8  # the dealer's hidden cards
DEALER_DEAL = HAND_SIZE + HIDDEN_SIZE  # 33
TOTAL_POINTS = 200  # points in the two decks
DOWN_THRESHOLD = 80  # FT points from which the declarers lose the deal
LEVEL_STEP = 40

TRUMP_GROUP = 8  # code >> 4 for trumps; non-trump suits are groups 0..3
TRUMP_BASE = TRUMP_GROUP << 4

TOKEN = tuple(s + r for s in SUITS for r in RANKS) + JOKERS
CARD_OF_TOKEN = {t: i for i, t in enumerate(TOKEN)}
POINTS_OF_RANK = {3: 5, 8: 10, 11: 10}  # 5, T, K
POINTS = tuple(POINTS_OF_RANK.get(i % 13, 0) if i < 52 else 0 for i in range(CARD_IDS))
POINTS_OF_TOKEN = {TOKEN[i]: POINTS[i] for i in range(CARD_IDS)}


def team_of(seat: int) -> int:
    """1 for Alice/Charles, 2 for Bob/David."""
    return 1 + seat % 2


def group_of(code: int) -> int:
    return code >> 4


@dataclass(frozen=True)
class Ordering:
    """Card order of one round: main suit index (4 = none) and the CR rank index (0..12)."""

    main: int
    cr: int
    code: tuple[int, ...]  # card id -> order code
    code_of_token: dict  # two-letter token -> order code

    @property
    def main_letter(self) -> str:
        return MAIN_LETTERS[self.main]

    def is_trump(self, card: int) -> bool:
        return self.code[card] >> 4 == TRUMP_GROUP


def _card_code(card: int, main: int, cr: int) -> int:
    if card >= 52:
        joker = card - 52  # 0 black, 1 red
        top = 15 if main < 4 else 14  # with no main suit, the main-CR step does not exist
        return TRUMP_BASE + top - 1 + joker
    suit, rank = divmod(card, 13)
    if rank == cr:
        return TRUMP_BASE + (13 if suit == main else 12)
    place = rank - (rank > cr)  # CR leaves the sequence, so its neighbours touch
    if suit == main:
        return TRUMP_BASE + place
    return (suit << 4) + place


@cache
def ordering(main: int, cr: int) -> Ordering:
    if not (0 <= main <= 4 and 0 <= cr <= 12):
        raise BadValue(f"no such round order: main {main} (0..4), CR {cr} (0..12)")
    code = tuple(_card_code(c, main, cr) for c in range(CARD_IDS))
    return Ordering(main=main, cr=cr, code=code, code_of_token={TOKEN[c]: code[c] for c in range(CARD_IDS)})


@dataclass(frozen=True)
class RoundSetup:
    """What the header line of a contest case says: main suit, dealer and both teams' CR."""

    main: int  # 0..3 = H S C D, 4 = none
    dealer: int  # seat 0..3
    cr1: int  # rank index 0..12 of team 1
    cr2: int

    @property
    def round_cr(self) -> int:
        """The declarers' (dealer's team's) CR orders the cards."""
        return self.cr1 if team_of(self.dealer) == 1 else self.cr2

    @property
    def order(self) -> Ordering:
        return ordering(self.main, self.round_cr)


@dataclass(frozen=True)
class RoundConfig:
    """Knobs of the full-round engine (the contest fixes them; kept as a typed config)."""

    hand_size: int = HAND_SIZE
    hidden_size: int = HIDDEN_SIZE

    def __post_init__(self):
        if self.hand_size * 4 + self.hidden_size != DECK_SIZE:
            raise ValueError(f"4 * hand_size + hidden_size must be {DECK_SIZE} (two decks)")
