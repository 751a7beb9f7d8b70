"""A full Tractor round: the deal, the dealer's hidden cards, legal leads and follows, events.

The contest only simulates finished rounds; this engine plays them. Legality follows the
usual Shengji rules, simplified where the contest is silent:
- a lead is any non-empty set of cards of one group (all throws are accepted, as in the contest);
- a follower plays as many cards of the led group as they can; if they hold more than the lead's
  size, they must include as many pairs as the lead has (or all they hold), and when the lead's
  first component is a tractor of k pairs and they hold such a tractor, one of them.
Trick winners, points and the round's outcome come from engine.tractor.tricks, the same code
that the simulator uses.
"""

from collections import Counter
from dataclasses import dataclass

from engine.core.errors import IllegalMove
from engine.tractor.rules import (
    DEALER_DEAL,
    DECK_SIZE,
    HAND_SIZE,
    HIDDEN_SIZE,
    POINTS,
    TOKEN,
    RoundSetup,
    team_of,
)
from engine.tractor.tricks import MIXED, RoundOutcome, Shape, lead_shape, pair_counts, settle, trick_winner


@dataclass(frozen=True)
class CardsHidden:
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class CardsPlayed:
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class TrickTaken:
    number: int  # 1-based
    leader: int
    plays: tuple[tuple[int, ...], ...]  # in play order, the leader's first
    winner: int
    points: int
    structure: str
    width: int  # w of the lead


@dataclass(frozen=True)
class RoundEnded:
    outcome: RoundOutcome


def render_cards(cards) -> str:
    return "".join(TOKEN[c] for c in cards)


def deal(deck, dealer: int) -> list[list[int]]:
    """Three 25-card hands clockwise from the dealer's left, then the dealer's 33."""
    if sorted(Counter(deck).values()) != [2] * (DECK_SIZE // 2):
        raise ValueError("a deck must hold every one of the 54 cards twice")
    hands: list[list[int]] = [[] for _ in range(4)]
    start = 0
    for step in (1, 2, 3):
        hands[(dealer + step) % 4] = sorted(deck[start:start + HAND_SIZE])
        start += HAND_SIZE
    hands[dealer] = sorted(deck[start:start + DEALER_DEAL])
    return hands


def _runs_of(counts: dict[int, int], length: int) -> list[int]:
    """Top codes at which `length` consecutive codes all hold a pair."""
    return [top for top in counts if all(counts.get(top - i, 0) > 0 for i in range(length))]


def _contains(hand: list[int], cards) -> bool:
    have = Counter(hand)
    for card, n in Counter(cards).items():
        if have[card] < n:
            return False
    return True


def verify_lead(hand: list[int], cards, code) -> Shape:
    if not cards:
        raise IllegalMove("a lead needs at least one card")
    if not _contains(hand, cards):
        raise IllegalMove(f"{render_cards(cards)} is not in the hand")
    shape = lead_shape(cards, code)
    if shape.group == MIXED:
        raise IllegalMove(f"lead {render_cards(cards)} mixes groups; lead all trumps or one non-trump suit")
    return shape


def follow_duties(hand: list[int], lead: Shape, size: int, code) -> tuple[int, int, int]:
    """(cards of the led group owed, pairs owed among them, tractor length owed (0 = none))."""
    group = [c for c in hand if code[c] >> 4 == lead.group]
    if len(group) <= size:
        return len(group), 0, 0
    counts = pair_counts(group, code)
    lead_pairs = sum(n for n, _ in lead.blocks)
    pairs = min(lead_pairs, sum(counts.values()))
    first = lead.blocks[0][0] if lead.blocks else 0
    tractor = first if first > 1 and _runs_of(counts, first) else 0
    return size, pairs, tractor


def verify_follow(hand: list[int], lead_cards, cards, code) -> None:
    size = len(lead_cards)
    if len(cards) != size:
        raise IllegalMove(f"follow with {size} cards, not {len(cards)}")
    if not _contains(hand, cards):
        raise IllegalMove(f"{render_cards(cards)} is not in the hand")
    lead = lead_shape(lead_cards, code)
    owed, pairs, tractor = follow_duties(hand, lead, size, code)
    in_group = [c for c in cards if code[c] >> 4 == lead.group]
    if len(in_group) < owed:
        raise IllegalMove(f"must play {owed} card(s) of the led group, played {len(in_group)}")
    counts = pair_counts(in_group, code)
    if sum(counts.values()) < pairs:
        raise IllegalMove(f"must play {pairs} pair(s) of the led group")
    if tractor and not _runs_of(counts, tractor):
        raise IllegalMove(f"must play a tractor of {tractor} pairs of the led group")


def _pair_cards(pool: Counter, prefer) -> list[int]:
    return sorted((c for c, n in pool.items() if n >= 2), key=prefer)


def build_follow(hand: list[int], lead_cards, code, prefer, *, void_group: int | None = None) -> tuple[int, ...]:
    """A legal follow that takes cards in `prefer` order (card -> sort key) wherever the rules leave a choice.

    void_group: when the player holds none of the led group, take the structure (tractor, pairs)
    from this group instead, e.g. trumps to ruff.
    """
    size = len(lead_cards)
    lead = lead_shape(lead_cards, code)
    group = lead.group
    if void_group is not None and not any(code[c] >> 4 == group for c in hand):
        group = void_group
        lead = Shape(group=group, blocks=lead.blocks, singles=lead.singles, honour=lead.honour)
    inside = sorted((c for c in hand if code[c] >> 4 == group), key=prefer)
    outside = sorted((c for c in hand if code[c] >> 4 != group), key=prefer)
    if len(inside) <= size:
        return tuple(inside + outside[:size - len(inside)])
    _, pairs, tractor = follow_duties(hand, lead, size, code)
    pool = Counter(inside)
    chosen: list[int] = []

    def take_pair(card: int) -> None:
        pool[card] -= 2
        chosen.extend((card, card))

    if tractor:
        pair_cards = _pair_cards(pool, prefer)
        by_code = {}
        for card in reversed(pair_cards):  # the preferred card of each code wins
            by_code[code[card]] = card
        tops = _runs_of(pair_counts(inside, code), tractor)
        top = min(tops, key=lambda t: prefer(by_code[t]))
        for step in range(tractor):
            take_pair(by_code[top - step])
    for card in _pair_cards(pool, prefer):
        if len(chosen) >= 2 * pairs:
            break
        take_pair(card)
    rest = sorted(pool.elements(), key=prefer)
    return tuple(chosen + rest[:size - len(chosen)])


@dataclass(frozen=True)
class View:
    """What a player sees when asked to act: their hand, the round header and the table."""

    seat: int
    setup: RoundSetup
    hand: tuple[int, ...]
    trick: tuple[tuple[int, ...], ...]  # plays so far in this trick, the leader's first
    leader: int
    tricks: tuple[TrickTaken, ...]
    hidden: tuple[int, ...]  # only the dealer, who chose them, sees these
    to_hide: int  # cards still to put aside (dealer, before the first trick)


class RoundState:
    """One round from the deal to the outcome; `hide` then `play` in turn, each returning events."""

    def __init__(self, setup: RoundSetup, deck):
        self.setup = setup
        self.code = setup.order.code
        self.hands = deal(list(deck), setup.dealer)
        self.hidden: tuple[int, ...] = ()
        self.leader = setup.dealer
        self.trick: list[tuple[int, ...]] = []
        self.tricks: list[TrickTaken] = []
        self.events: list = []
        self.outcome: RoundOutcome | None = None

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def hiding(self) -> bool:
        return not self.hidden

    @property
    def done(self) -> bool:
        return self.outcome is not None

    def view(self, seat: int | None = None) -> View:
        seat = self.to_act if seat is None else seat
        return View(
            seat=seat, setup=self.setup, hand=tuple(self.hands[seat]), trick=tuple(self.trick),
            leader=self.leader, tricks=tuple(self.tricks),
            hidden=self.hidden if seat == self.setup.dealer else (),
            to_hide=HIDDEN_SIZE if self.hiding and seat == self.setup.dealer else 0,
        )

    def verify_hide(self, cards) -> None:
        if not self.hiding:
            raise IllegalMove("the hidden cards are already chosen")
        if len(cards) != HIDDEN_SIZE or not _contains(self.hands[self.setup.dealer], cards):
            raise IllegalMove(f"hide exactly {HIDDEN_SIZE} cards of the dealer's hand")

    def hide(self, cards) -> CardsHidden:
        self.verify_hide(cards)
        hand = Counter(self.hands[self.setup.dealer])
        hand.subtract(cards)
        self.hands[self.setup.dealer] = sorted(hand.elements())
        self.hidden = tuple(sorted(cards))
        event = CardsHidden(seat=self.setup.dealer, cards=self.hidden)
        self.events.append(event)
        return event

    def verify_play(self, cards) -> None:
        if self.hiding or self.done:
            raise IllegalMove("no play expected now")
        hand = self.hands[self.to_act]
        if self.trick:
            verify_follow(hand, self.trick[0], cards, self.code)
        else:
            verify_lead(hand, cards, self.code)

    def can_play(self, cards) -> bool:
        try:
            self.verify_play(cards)
        except IllegalMove:
            return False
        return True

    def play(self, cards) -> list:
        """Apply one play; returns its events (the play, then a finished trick and round, if any)."""
        self.verify_play(cards)
        seat = self.to_act
        cards = tuple(cards)
        hand = Counter(self.hands[seat])
        hand.subtract(cards)
        self.hands[seat] = sorted(hand.elements())
        self.trick.append(cards)
        events = [CardsPlayed(seat=seat, cards=cards)]
        if len(self.trick) == 4:
            events.append(self._close_trick())
            if not self.hands[self.leader]:
                events.append(self._close_round())
        self.events.extend(events)
        return events

    def _close_trick(self) -> TrickTaken:
        pos, shape = trick_winner(self.trick, self.code)
        winner = (self.leader + pos) % 4
        taken = TrickTaken(
            number=len(self.tricks) + 1, leader=self.leader, plays=tuple(self.trick), winner=winner,
            points=sum(POINTS[c] for play in self.trick for c in play), structure=shape.describe(),
            width=shape.width,
        )
        self.tricks.append(taken)
        self.trick = []
        self.leader = winner
        return taken

    def _close_round(self) -> RoundEnded:
        ct = team_of(self.setup.dealer)
        trick_points = sum(t.points for t in self.tricks if team_of(t.winner) != ct)
        last = self.tricks[-1]
        self.outcome = settle(
            dealer=self.setup.dealer, cr1=self.setup.cr1, cr2=self.setup.cr2, trick_points=trick_points,
            hidden_points=sum(POINTS[c] for c in self.hidden), last_width=last.width, last_winner=last.winner,
        )
        return RoundEnded(outcome=self.outcome)

    def contest_lines(self) -> list[list[str]]:
        """The tricks as the contest writes them: four play strings per line, the leader's first."""
        return [[render_cards(p) for p in t.plays] for t in self.tricks]
