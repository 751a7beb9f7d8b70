"""Splendor as the nerdvana-ro arbiter plays it: constants, card and noble data, config.

Colour index order is fixed by the contest everywhere (stdin, stdout, data, records):
0 red, 1 green, 2 blue, 3 white, 4 black, 5 gold.
"""

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.errors import BadValue

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "splendor"

COLOURS = ("red", "green", "blue", "white", "black", "gold")
GEMS = 5  # takeable/returnable colours 0..4
GOLD = 5
GEM_CHIPS = {1: 4, 2: 4, 3: 5, 4: 7}  # per colour, by player count
GOLD_CHIPS = 5
NOBLES_IN_PLAY = {1: 2, 2: 3, 3: 4, 4: 5}
NOBLE_POINTS = 3
NUM_NOBLES = 10
NUM_CARDS = 90
LEVEL_RANGES = ((1, 40), (41, 70), (71, 90))  # inclusive id ranges of levels 1..3
LEVEL_SIZES = (40, 30, 20)
FACE_UP = 4
MAX_RESERVED = 3
HAND_LIMIT = 10
TAKE_TWO_MIN = 4  # the pile must hold at least this many before taking two
WIN_POINTS = 15
MAX_ROUNDS = 100
CPU_SECONDS = 11  # `ulimit -t 11` in the arbiter: CPU time, not wall time
KIBITZ_PREFIX = "kibitz "
MAX_PLAYERS = 4

TAKE_DIFFERENT, TAKE_TWO, RESERVE, BUY = 1, 2, 3, 4


@dataclass(frozen=True)
class Card:
    id: int
    level: int
    bonus: int
    points: int
    cost: tuple[int, int, int, int, int]


@dataclass(frozen=True)
class Noble:
    id: int
    points: int
    requires: tuple[int, int, int, int, int]


def _read_rows(name: str) -> list[dict[str, str]]:
    with open(DATA_DIR / name, newline="") as f:
        return [row for row in csv.DictReader(f) if row.get("id")]


def _cost(row: dict[str, str], prefix: str) -> tuple[int, int, int, int, int]:
    return tuple(int(row[f"{prefix}_{c}"]) for c in COLOURS[:GEMS])


def load_cards() -> tuple[Card | None, ...]:
    """Cards indexed by id (index 0 is None); checks the ids are 1..90 in order."""
    cards: list[Card | None] = [None]
    for row in _read_rows("cards.csv"):
        card = Card(int(row["id"]), int(row["level"]), int(row["bonus_index"]), int(row["points"]),
                    _cost(row, "cost"))
        if card.id != len(cards):
            raise ValueError(f"{DATA_DIR / 'cards.csv'}: expected id {len(cards)}, found {card.id}")
        cards.append(card)
    return tuple(cards)


def load_nobles() -> tuple[Noble | None, ...]:
    nobles: list[Noble | None] = [None]
    for row in _read_rows("nobles.csv"):
        noble = Noble(int(row["id"]), int(row["points"]), _cost(row, "req"))
        if noble.id != len(nobles):
            raise ValueError(f"{DATA_DIR / 'nobles.csv'}: expected id {len(nobles)}, found {noble.id}")
        nobles.append(noble)
    return tuple(nobles)


CARDS = load_cards()
NOBLES = load_nobles()

# The same data as int arrays for the kernels (row = id, row 0 unused).
CARD_COST = np.array([[0] * GEMS] + [c.cost for c in CARDS[1:]], dtype=np.int64)
CARD_BONUS = np.array([-1] + [c.bonus for c in CARDS[1:]], dtype=np.int64)
CARD_POINTS = np.array([0] + [c.points for c in CARDS[1:]], dtype=np.int64)
CARD_LEVEL = np.array([0] + [c.level for c in CARDS[1:]], dtype=np.int64)
NOBLE_REQ = np.array([[0] * GEMS] + [n.requires for n in NOBLES[1:]], dtype=np.int64)


def level_of(card_id: int) -> int:
    return CARDS[card_id].level


@dataclass(frozen=True)
class SplendorConfig:
    """One game's table: the player count and the contest limits (defaults are the contest's)."""

    players: int = 2
    max_rounds: int = MAX_ROUNDS
    win_points: int = WIN_POINTS

    def __post_init__(self):
        if self.players not in GEM_CHIPS:
            raise BadValue(f"players must be 1..{MAX_PLAYERS}, got {self.players}")
        if self.max_rounds < 1:
            raise BadValue(f"max_rounds must be >= 1, got {self.max_rounds}")
