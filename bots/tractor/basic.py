"""Two baseline Tractor players: `random` (uniform-ish legal plays) and `rule` (simple card sense).

A bot sees a `View` (its hand, the round header, the table) and gets a numpy Generator from
the judge for any randomness, so rounds replay bit for bit.
"""

from collections import Counter
from dataclasses import dataclass

import numpy as np

from bots.base import Ranged, ranged
from engine.tractor.rules import HIDDEN_SIZE, POINTS, TRUMP_GROUP
from engine.tractor.state import View, build_follow
from engine.tractor.tricks import decompose, pair_counts, trick_winner


def groups_of(hand, code) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for card in hand:
        groups.setdefault(code[card] >> 4, []).append(card)
    return groups


def blocks_in(cards, code) -> list[tuple[int, int]]:
    """(pairs, top code) blocks of these cards, longest first (the lead decomposition)."""
    counts = pair_counts(cards, code)
    return decompose(counts) if counts else []


def block_cards(cards, code, length: int, top: int) -> list[int]:
    """Two copies of a pair card at each code of the block."""
    have = Counter(cards)
    out = []
    for step in range(length):
        card = next(c for c in have if have[c] >= 2 and code[c] == top - step)
        out += [card, card]
        have[card] -= 2
    return out


class TractorBot:
    """The turn-based bot shape (engine.core.contract.TurnBot): one `act` per turn; the dealer's
    first turn hides 8 cards (view.to_hide), every other turn plays."""

    def act(self, view: View, rng) -> tuple[int, ...]:
        return self.hide(view, rng) if view.to_hide else self.play(view, rng)


@dataclass(frozen=True)
class RandomConfig(Ranged):
    single: float = ranged(0.55, 0.0, 1.0)  # lead weights; the rest goes to throws
    pair: float = ranged(0.25, 0.0, 1.0)
    tractor: float = ranged(0.1, 0.0, 1.0)


class RandomBot(TractorBot):
    """Legal plays at random; leads singles, pairs, tractors and throws so every rule gets used."""

    def __init__(self, config: RandomConfig):
        self.config = config

    def hide(self, view: View, rng: np.random.Generator) -> tuple[int, ...]:
        picks = rng.choice(len(view.hand), size=HIDDEN_SIZE, replace=False)
        return tuple(view.hand[i] for i in sorted(picks))

    def play(self, view: View, rng: np.random.Generator) -> tuple[int, ...]:
        code = view.setup.order.code
        if view.trick:
            keys = rng.random(54)
            return build_follow(list(view.hand), view.trick[0], code, lambda c: keys[c])
        return self._lead(view, rng, code)

    def _lead(self, view: View, rng, code) -> tuple[int, ...]:
        groups = list(groups_of(view.hand, code).values())
        cards = groups[rng.integers(len(groups))]
        blocks = blocks_in(cards, code)
        roll = rng.random()
        c = self.config
        if roll < c.single or len(cards) == 1:
            return (cards[rng.integers(len(cards))],)
        tractors = [b for b in blocks if b[0] > 1]
        if roll < c.single + c.pair and blocks:
            _, top = blocks[rng.integers(len(blocks))]
            return tuple(block_cards(cards, code, 1, top))
        if roll < c.single + c.pair + c.tractor and tractors:
            length, top = tractors[rng.integers(len(tractors))]
            return tuple(block_cards(cards, code, length, top))
        size = int(rng.integers(2, min(len(cards), 6) + 1))
        picks = rng.choice(len(cards), size=size, replace=False)
        return tuple(cards[i] for i in sorted(picks))


@dataclass(frozen=True)
class RuleConfig(Ranged):
    lead_blocks: bool = True  # lead high non-trump pairs/tractors first
    dump_points: bool = True  # give points to a partner who is winning the trick
    ruff: bool = True  # trump a suit we are void in when that wins the trick
    min_block_rank: int = ranged(8, 0, 11)  # lowest place in its suit of a pair worth leading


class RuleBot(TractorBot):
    """Cheap wins, safe discards, points to the partner, aces and high pairs first."""

    def __init__(self, config: RuleConfig):
        self.config = config

    def hide(self, view: View, rng) -> tuple[int, ...]:
        code = view.setup.order.code
        counts = Counter(view.hand)

        def keep_score(card):
            return (code[card] >> 4 == TRUMP_GROUP, counts[card] > 1, POINTS[card] > 0, code[card])

        return tuple(sorted(view.hand, key=keep_score)[:HIDDEN_SIZE])

    def play(self, view: View, rng) -> tuple[int, ...]:
        code = view.setup.order.code
        if not view.trick:
            return self._lead(view, code)
        return self._follow(view, code)

    def _lead(self, view: View, code) -> tuple[int, ...]:
        groups = groups_of(view.hand, code)
        plain = {g: cards for g, cards in groups.items() if g != TRUMP_GROUP}
        if self.config.lead_blocks:
            best = None
            for cards in plain.values():
                for length, top in blocks_in(cards, code)[:1]:
                    if (top & 15) >= self.config.min_block_rank and (best is None or length > best[0]):
                        best = (length, top, cards)
            if best is not None:
                return tuple(block_cards(best[2], code, best[0], best[1]))
        aces = [c for cards in plain.values() for c in cards if code[c] & 15 == 11]
        if aces:
            return (aces[0],)
        if plain:
            shortest = min(plain.values(), key=len)
            return (min(shortest, key=lambda c: (POINTS[c], code[c])),)
        trumps = groups[TRUMP_GROUP]
        blocks = blocks_in(trumps, code)
        if blocks:
            return tuple(block_cards(trumps, code, blocks[0][0], blocks[0][1]))
        return (min(trumps, key=lambda c: code[c]),)

    def _follow(self, view: View, code) -> tuple[int, ...]:
        hand, lead = list(view.hand), view.trick[0]
        pos, _ = trick_winner(view.trick, code)
        partner_winning = (pos - len(view.trick)) % 2 == 0
        cheap = build_follow(hand, lead, code, lambda c: (POINTS[c], code[c]))
        if partner_winning and self.config.dump_points:
            return build_follow(hand, lead, code, lambda c: (-POINTS[c], code[c]))
        if partner_winning:
            return cheap
        candidates = [cheap, build_follow(hand, lead, code, lambda c: -code[c])]
        if self.config.ruff:
            candidates.append(build_follow(hand, lead, code, lambda c: code[c], void_group=TRUMP_GROUP))
        winners = [p for p in candidates if trick_winner([*view.trick, p], code)[0] == len(view.trick)]
        if winners:
            return min(winners, key=lambda p: sum(code[c] & 15 for c in p))
        return cheap
