"""Tractor through the game contract (engine/core/contract.py): one round, four seats.

An action is a tuple of card ints: the dealer's 8 hidden cards first, then each play. The
plays a hand allows are too many to list (any set of one group may lead; hiding chooses 8 of
33), so `legal` lists a sample that always holds a legal answer: for leads every single, pair
and whole group; for follows the legal follow built from several card orders; for hiding
a few runs of 8 cards. `check` decides any action.
"""

from dataclasses import dataclass

from engine.core.contract import TurnBot
from engine.core.errors import IllegalMove
from engine.core.seeds import match_key
from engine.tractor.judge import level_difference, round_deal
from engine.tractor.rules import HIDDEN_SIZE, TRUMP_GROUP, team_of
from engine.tractor.state import RoundState, View, build_follow

BOT_PROTOCOL = TurnBot
_ORDERS = (lambda c: c, lambda c: -c)  # prefer low card ints, then high ones


@dataclass(frozen=True)
class Turn:
    """What one action set off: the hiding or the play, then a finished trick and round, if any."""

    events: tuple


def _is_cards(action) -> bool:
    return isinstance(action, tuple) and all(type(c) is int for c in action)


class Tractor:
    name = "tractor"
    seats = 4
    lists_every_action = False

    def start(self, seed: int) -> RoundState:
        return self.start_unit(seed, 0)

    def start_unit(self, seed: int, unit: int) -> RoundState:
        """Round `unit` of the match `seed`, as the judge deals it (the referee loop's optional hook)."""
        return RoundState(*round_deal(match_key(seed), unit))

    def to_act(self, state: RoundState) -> int | None:
        if state.done:
            return None
        return state.setup.dealer if state.hiding else state.to_act

    def legal(self, state: RoundState) -> list[tuple[int, ...]]:
        if state.done:
            return []
        seat = self.to_act(state)
        hand = state.hands[seat]
        if state.hiding:
            found = [tuple(hand[i:i + HIDDEN_SIZE]) for i in range(0, len(hand) - HIDDEN_SIZE + 1, HIDDEN_SIZE)]
        elif state.trick:
            found = [tuple(sorted(build_follow(hand, state.trick[0], state.code, order, void_group=group)))
                     for order in _ORDERS for group in (None, TRUMP_GROUP)]  # a void follower may ruff
        else:
            groups: dict[int, list[int]] = {}
            for c in hand:
                groups.setdefault(state.code[c] >> 4, []).append(c)
            found = [(c,) for c in sorted(set(hand))]
            found += [(c, c) for c in sorted(set(hand)) if hand.count(c) > 1]
            found += [tuple(cards) for cards in groups.values()]
        return sorted(set(found))

    def check(self, state: RoundState, action) -> None:
        if not _is_cards(action):
            raise IllegalMove(f"expected a tuple of card ints, got {action!r}")
        if state.done:
            raise IllegalMove("the round is over")
        if state.hiding:
            state.verify_hide(action)
        else:
            state.verify_play(action)

    def apply(self, state: RoundState, action) -> Turn:
        self.check(state, action)
        return Turn((state.hide(action),) if state.hiding else tuple(state.play(action)))

    def view(self, state: RoundState, seat: int) -> View:
        return state.view(seat)

    def hidden(self, state: RoundState, seat: int) -> frozenset[int]:
        """Cards the other seats hold (and the dealer's 8, for the others) that `seat` does not see:
        every card id is in the two decks twice, so ids it sees elsewhere are left out."""
        others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        seen = set(state.hands[seat]) | {c for play in state.trick for c in play}
        seen |= {c for trick in state.tricks for play in trick.plays for c in play}
        if seat == state.setup.dealer:
            seen |= set(state.hidden)
        else:
            others |= set(state.hidden)
        return frozenset(others - seen)

    def returns(self, state: RoundState) -> tuple[float, ...]:
        """Levels each seat's team gained minus the levels the other team gained."""
        return tuple(float(level_difference(state.setup, state.outcome, team_of(seat))) for seat in range(4))


GAME = Tractor()
