"""Per-game deck source: the referee's draw order from one SHA1PRNG seeded by the game seed.

Draw order (spec 4.2-4.3): nextInt(players) for the first big blind, then for every hand
51 shuffle draws over a fresh canonical deck and one cut (rotate left by nextInt(52)).
"""

from engine.cg_holdem.rules import REFEREE_DECK_ORDER
from engine.cg_holdem.sha1prng import Sha1Prng, java_shuffle


class DeckSource:
    def __init__(self, seed: int, players: int):
        self._rng = Sha1Prng(seed)
        self.first_big_blind = self._rng.next_int(players)
        self.last_cut = -1

    def next_hand(self) -> list[int]:
        """The next hand's 52 cards in dealing order (engine ints)."""
        deck = list(REFEREE_DECK_ORDER)
        java_shuffle(deck, self._rng)
        cut = self._rng.next_int(52)
        self.last_cut = cut
        return deck[cut:] + deck[:cut]
