"""Hold'em Training hands as PHH hand histories (the TOML format PokerKit reads).

The contest's pot of 10 that neither player paid is written as an ante of 5 each on
stacks of 105, so both start the betting with 100 behind and 10 in the pot, as in the
contest; Alice's finishing stack is then 100 + her profit and Bob's the rest of the 210.
Alice is p1 (she acts first on every street, as in PokerKit with no blinds), Bob p2.
Alice acts once a round and Bob only answers, so a raise is ``cbr`` to its amount (nothing
was bet before it on the street). Her FOLD faces no bet: PokerKit's hand histories accept it
(cash-game mode, with a warning). Once both are all-in PokerKit asks nobody; the judge still
has Alice CHECK, and those checks are left out. A FOLD after going all-in has no PokerKit
equivalent (``pokerkit_can_replay``); such a hand is still written.
"""

from dataclasses import dataclass

from engine.core.cards import card_name
from engine.core.phh import join_hands, toml_list, toml_text
from engine.holdem_training.rules import END_SHOWDOWN, START_POT, START_STACK

ANTE = START_POT // 2
_BOARD_BY_ROUND = {2: (0, 3), 3: (3, 4), 4: (4, 5)}


@dataclass(frozen=True)
class LoggedHand:
    """One hand as the hand log keeps it (ht_hand_rows with its ht_action_rows)."""

    hand: int
    alice: tuple[int, int]
    bob: tuple[int, int]
    board: tuple[int, ...]  # all five, deal order
    actions: tuple[tuple[int, str, int, str, int], ...]  # (round, action, amount, Bob's response, stack_before)
    end_code: int
    profit: int


def pokerkit_can_replay(hand: LoggedHand) -> bool:
    return not any(kind == "FOLD" and stack == 0 for _, kind, _, _, stack in hand.actions)


def actions(hand: LoggedHand) -> list[str]:
    out = [f"d dh p1 {_cards(hand.alice)}", f"d dh p2 {_cards(hand.bob)}"]
    dealt = 1
    for round_, kind, amount, response, stack_before in hand.actions:
        while dealt < round_:
            dealt += 1
            out.append(_board_deal(hand, dealt))
        if stack_before == 0 and kind == "CHECK":  # both all-in: PokerKit asks nobody
            continue
        if kind == "FOLD":
            out.append("p1 f")
        elif kind == "CHECK":
            out += ["p1 cc", "p2 cc"]
        else:
            out += [f"p1 cbr {amount}", "p2 f" if response == "FOLD" else "p2 cc"]
    if hand.end_code == END_SHOWDOWN:
        while dealt < 4:
            dealt += 1
            out.append(_board_deal(hand, dealt))
        out += [f"p1 sm {_cards(hand.alice)}", f"p2 sm {_cards(hand.bob)}"]
    return out


def hand_history(hand: LoggedHand, *, event: str = "", names: tuple[str, str] = ("Alice", "Bob")) -> str:
    alice_end = START_STACK + hand.profit
    lines = [
        'variant = "NT"',
        "ante_trimming_status = false",
        f"antes = {toml_list([ANTE, ANTE])}",
        f"blinds_or_straddles = {toml_list([0, 0])}",
        "min_bet = 1",
        f"starting_stacks = {toml_list([START_STACK + ANTE] * 2)}",
        f"actions = {toml_list(actions(hand))}",
        f"hand = {hand.hand}",
        f"players = {toml_list(list(names))}",
        f"finishing_stacks = {toml_list([alice_end, 2 * (START_STACK + ANTE) - alice_end])}",
    ]
    if event:
        lines.append(f"event = {toml_text(event)}")
    return "\n".join(lines) + "\n"


def hand_histories(hands, *, event: str = "", names: tuple[str, str] = ("Alice", "Bob")) -> str:
    return join_hands(hand_history(h, event=event, names=names) for h in hands)


def _cards(cards) -> str:
    return "".join(card_name(c) for c in cards)


def _board_deal(hand: LoggedHand, round_: int) -> str:
    lo, hi = _BOARD_BY_ROUND[round_]
    return "d db " + _cards(hand.board[lo:hi])
