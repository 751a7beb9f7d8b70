"""Hands as PHH hand histories (the TOML format PokerKit reads).

PHH orders players as PokerKit does: postflop acting order, so the seat after the dealer
first and the dealer last (heads-up: the big blind, then the dealer/small blind; PokerKit
swaps the two blinds itself heads-up). The contest's extra small blinds (every non-BB seat
posts one) are written as blinds/straddles by position, which PokerKit treats as posted
bets before the first action, like the referee. Amounts in ``cbr`` are street totals.
A lone seat the referee does not ask (it cannot be outbet) checks where PokerKit asks it.
Hands PokerKit cannot represent exactly (timeouts, a big blind posting no more than another
seat: ``pokerkit_can_replay``, the referee's reopening after short all-ins) are still
written; replaying them may fail.
"""

from engine.cg_holdem.rules import BIG_BLIND
from engine.cg_holdem.state import HandRecord
from engine.core.cards import card_name
from engine.core.phh import join_hands, toml_list, toml_text

_BOARD_SLICES = {1: (0, 3), 2: (3, 4), 3: (4, 5)}


def seat_order(record: HandRecord) -> list[int]:
    """Seats dealt into the hand in PHH player order."""
    n = len(record.start_stacks)
    order = [(record.dealer + k) % n for k in range(1, n + 1)]
    return [s for s in order if record.cards[s] is not None]


def blinds_by_position(record: HandRecord, order: list[int]) -> list[int]:
    if len(order) == 2:  # PokerKit expects (small, big) and assigns them itself heads-up
        return [record.posted[record.sb_seat], record.posted[record.bb_seat]]
    return [record.posted[s] for s in order]


def pokerkit_can_replay(record: HandRecord) -> bool:
    """False when the big blind, all-in short, posted no more than another seat: PokerKit
    then opens the preflop betting after that seat instead of after the big blind, and nobody
    owes it the missing part of the big blind, so the hand has no PokerKit equivalent."""
    bb_post = record.posted[record.bb_seat]
    return all(bb_post > p for s, p in enumerate(record.posted) if s != record.bb_seat)


def min_bet(record: HandRecord) -> int:
    """PokerKit's minimum bet for the hand. When the big blind is all-in short, nobody posted
    a full BB, yet the referee makes every caller reach one (docs/rules/cg_holdem.md#betting): PokerKit can only take
    that call as a raise to the BB, so its minimum is lowered to allow exactly that (it only
    ever accepts more than the referee's own minimum raises, never less)."""
    full = max(record.big_blind, BIG_BLIND)
    posted = max(record.posted)
    return full if posted >= full else full - posted


def actions(record: HandRecord, order: list[int]) -> list[str]:
    """PHH action strings: hole deals, the betting with board deals between streets, then
    (at a showdown) every live hand shown when the betting is over, then the run-out."""
    index = {s: i for i, s in enumerate(order)}
    out = [f"d dh p{i + 1} {_cards(record.cards[s])}" for i, s in enumerate(order)]
    street_bet = {s: record.posted[s] for s in order}
    left = {s: record.start_stacks[s] - record.posted[s] for s in order}
    folded = set()
    street = 0
    opener = None  # the last bettor/raiser of the current street
    queue = _pokerkit_queue(order, folded, left, street_bet)
    for _, seat, action, chips, action_street in record.actions:
        while street < action_street:
            out += _unasked_checks(order, index, queue)
            street += 1
            out.append(_board_deal(record, street))
            street_bet = dict.fromkeys(order, 0)
            opener = None
            queue = _pokerkit_queue(order, folded, left, street_bet)
        top = max(street_bet.values())
        street_bet[seat] += chips
        left[seat] -= chips
        queue.discard(seat)
        p = f"p{index[seat] + 1}"
        # PokerKit takes a raise only if another live seat could put in more than the old top.
        can_answer = any(street_bet[s] + left[s] > top for s in order if s != seat and s not in folded)
        if action in ("FOLD", "TIMEOUT"):
            folded.add(seat)
            out.append(f"{p} f")
        elif street_bet[seat] > top and can_answer:  # a raise nobody can answer is a call
            out.append(f"{p} cbr {street_bet[seat]}")
            opener = index[seat]
            queue = {s for s in order if s != seat and s not in folded and left[s] > 0}
        else:
            out.append(f"{p} cc")
    if record.showdown:
        out += _unasked_checks(order, index, queue)
        out += _shows(record, order, street, opener)
    while street < 3 and len(record.board) >= _BOARD_SLICES[street + 1][1]:
        street += 1
        out.append(_board_deal(record, street))
    return out


def _pokerkit_queue(order: list[int], folded: set, left: dict, street_bet: dict) -> set:
    """The seats PokerKit asks on a new street: those with chips that could still lose
    some to another live seat; none if that leaves one seat already at the top bet."""
    live = [s for s in order if s not in folded]
    reach = sorted(street_bet[s] + left[s] for s in live)
    second = reach[-2] if len(reach) > 1 else 0
    queue = {s for s in live if left[s] > 0 and second > street_bet[s]}
    if len(queue) == 1 and street_bet[next(iter(queue))] >= max(street_bet.values()):
        return set()
    return queue


def _unasked_checks(order: list[int], index: dict, queue: set) -> list[str]:
    """A lone seat that cannot be outbet is not asked by the referee
    (docs/rules/cg_holdem.md#flow-of-a-hand) but still is by PokerKit when the street began
    with it queued: nothing faces it, so it checks."""
    return [f"p{index[s] + 1} cc" for s in order if s in queue]


def _shows(record: HandRecord, order: list[int], street: int, opener: int | None) -> list[str]:
    """PokerKit's showdown order: from the street's last aggressor, else from its first actor."""
    n = len(order)
    if opener is None and street == 0:  # after the largest posted blind (PokerKit: last such seat)
        posted = [record.posted[s] for s in order]
        opener = (max(range(n), key=lambda i: (posted[i], i)) + 1) % n
    elif opener is None:
        opener = 0
    shows = []
    for k in range(n):
        i = (opener + k) % n
        if not record.folded[order[i]]:
            shows.append(f"p{i + 1} sm {_cards(record.cards[order[i]])}")
    return shows


def _cards(pair) -> str:
    return card_name(pair[0]) + card_name(pair[1])


def _board_deal(record: HandRecord, street: int) -> str:
    lo, hi = _BOARD_SLICES[street]
    return "d db " + "".join(card_name(c) for c in record.board[lo:hi])


def hand_history(record: HandRecord, *, names: list[str] | None = None, game: str = "") -> str:
    """One hand as PHH text."""
    order = seat_order(record)
    lines = [
        'variant = "NT"',
        "ante_trimming_status = true",
        f"antes = {toml_list([0] * len(order))}",
        f"blinds_or_straddles = {toml_list(blinds_by_position(record, order))}",
        f"min_bet = {min_bet(record)}",
        f"starting_stacks = {toml_list([record.start_stacks[s] for s in order])}",
        f"actions = {toml_list(actions(record, order))}",
        f"hand = {record.hand}",
        f"seats = {toml_list([s + 1 for s in order])}",
        f"finishing_stacks = {toml_list([record.end_stacks[s] for s in order])}",
    ]
    if names is not None:
        lines.append(f"players = {toml_list([names[s] for s in order])}")
    if game:
        lines.append(f"event = {toml_text(game)}")
    return "\n".join(lines) + "\n"


def hand_histories(records, *, names: list[str] | None = None, game: str = "") -> str:
    """Several hands as one PHH file PokerKit's ``HandHistory.load_all`` reads (cancelled
    hands, refunded at the round cap, are left out: they have no poker outcome)."""
    return join_hands(hand_history(r, names=names, game=game) for r in records if not r.cancelled)
