"""Per-game deck source: the referee's draw order from one SHA1PRNG seeded by the game seed.

Draw order (docs/rules/cg_holdem.md#deck): nextInt(players) for the first big blind, then for every hand
51 shuffle draws over a fresh canonical deck and one cut (rotate left by nextInt(52)).
The first draw uses the hashlib-based generator; every hand's deck comes from the numba
copy of the same stream (``next_deck``), which the tests check against it.
"""

import numpy as np

from engine.cg_holdem._kernels import PRNG_SIZE, next_deck
from engine.cg_holdem.rules import REFEREE_DECK_ORDER
from engine.cg_holdem.sha1prng import Sha1Prng

_CANONICAL = np.array(REFEREE_DECK_ORDER, np.int64)
_BLOCK = 20


def prng_array(rng: Sha1Prng) -> np.ndarray:
    """The kernel's generator layout (see _kernels.py) continuing ``rng``'s stream."""
    state, unread = rng.snapshot()
    prng = np.zeros(PRNG_SIZE, np.int64)
    prng[:_BLOCK] = np.frombuffer(state, np.uint8)
    used = _BLOCK - len(unread)
    prng[_BLOCK + used:2 * _BLOCK] = np.frombuffer(unread, np.uint8)
    prng[2 * _BLOCK] = used
    return prng


class DeckSource:
    def __init__(self, seed: int, players: int):
        rng = Sha1Prng(seed)
        self.first_big_blind = rng.next_int(players)
        self._prng = prng_array(rng)
        self._deck = np.empty(52, np.int64)
        self.last_cut = -1

    def next_hand(self) -> list[int]:
        """The next hand's 52 cards in dealing order (engine ints)."""
        self.last_cut = int(next_deck(self._prng, _CANONICAL, self._deck))
        return self._deck.tolist()
