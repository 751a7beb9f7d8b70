"""The contest's text I/O, byte for byte (docs/rules/cg_holdem.md#input-format): no rules here.

``Setup`` (the 8 first-turn lines) and ``Turn`` (every decision's lines) are what a bot is
shown; in-process bots receive them as objects, external programs as the lines rendered
here. ``parse_output`` reads a program's answer the way the referee does. This module is
standard-library only so the exported single-file submission can reuse its parser.
"""

from typing import NamedTuple

from engine.cg_holdem.rules import (
    ALL_IN,
    BET,
    CALL,
    CHECK,
    ELIMINATED,
    FOLD,
    TIMEOUT,
    UNKNOWN,
    card_text,
    parse_card_text,
)

_INT_MAX = 2**31 - 1
_KINDS = (FOLD, CHECK, CALL, BET, ALL_IN, "ALL_IN", TIMEOUT)
_JAVA_TRIM = "".join(map(chr, range(33)))  # String.trim() drops every char <= ' '
_PLAIN = {k: (k, 0, "") for k in (FOLD, CHECK, CALL, ALL_IN, TIMEOUT)}  # parsed as is


class Setup(NamedTuple):
    small_blind: int
    big_blind: int
    hands_per_level: int
    level_multiplier: int
    buy_in: int
    first_big_blind: int
    players: int
    me: int

    def lines(self) -> list[str]:
        return [str(x) for x in (self.small_blind, self.big_blind, self.hands_per_level,
                                 self.level_multiplier, self.buy_in, self.first_big_blind,
                                 self.players, self.me)]


class Turn(NamedTuple):
    """One decision's input. Cards are engine ints; the board holds only dealt cards.
    actions: (round, hand, player, action text, board) since my previous decision;
    showdowns: (hand, board, cards per seat or None when eliminated)."""

    round: int
    hand: int
    stacks: tuple[int, ...]
    chips: tuple[int, ...]  # chipInPot: chips put in this hand, all streets
    board: tuple[int, ...]
    cards: tuple[int, int]
    actions: tuple[tuple, ...]
    showdowns: tuple[tuple, ...]
    possible: tuple[str, ...]

    def lines(self) -> list[str]:
        out = [str(self.round), str(self.hand)]
        out += [f"{s} {c}" for s, c in zip(self.stacks, self.chips, strict=True)]
        out.append(board_text(self.board))
        out.append("_".join(card_text(c) for c in self.cards))
        out.append(str(len(self.actions)))
        out += [f"{r} {h} {p} {a} {board_text(b)}" for r, h, p, a, b in self.actions]
        out.append(str(len(self.showdowns)))
        out += [f"{h} {board_text(b)} {seat_cards_text(cs)}" for h, b, cs in self.showdowns]
        out.append(str(len(self.possible)))
        out += list(self.possible)
        return out


def board_text(board) -> str:
    return "_".join([card_text(c) for c in board] + [UNKNOWN] * (5 - len(board)))


def seat_cards_text(cards) -> str:
    parts = []
    for pair in cards:
        parts += [ELIMINATED, ELIMINATED] if pair is None else [card_text(pair[0]), card_text(pair[1])]
    return "_".join(parts)


def parse_board(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split("_") if t != UNKNOWN)


def parse_seat_cards(text: str) -> tuple:
    tokens = text.split("_")
    seats = []
    for i in range(0, len(tokens), 2):
        pair = tokens[i:i + 2]
        seats.append(None if pair[0] == ELIMINATED else (parse_card_text(pair[0]), parse_card_text(pair[1])))
    return tuple(seats)


def parse_output(line: str) -> tuple[str, int, str]:
    """(kind, amount, message) as the referee reads one output line; anything it cannot
    read is FOLD. Kinds: FOLD, CHECK, CALL, BET, ALL-IN, TIMEOUT."""
    plain = _PLAIN.get(line)
    if plain is not None:  # the common case, answered without parsing
        return plain
    action, _, rest = line.partition(";")
    message = rest.split(";", 1)[0]
    text = action.upper().strip(_JAVA_TRIM)
    if text.startswith(BET + "_"):
        text = text.replace(BET + "_", BET + " ")
    tokens = text.split(" ")
    kind = tokens[0]
    if kind not in _KINDS:
        return FOLD, 0, message
    if kind == BET:
        if len(tokens) != 2:
            return FOLD, 0, message
        amount = _java_parse_int(tokens[1])
        if amount is None:
            return FOLD, 0, message
        return BET, amount, message
    if len(tokens) != 1:
        return FOLD, 0, message
    return (ALL_IN if kind == "ALL_IN" else kind), 0, message


def _java_parse_int(token: str) -> int | None:
    """Integer.parseInt: optional sign, ASCII digits only, 32-bit range."""
    digits = token[1:] if token[:1] in ("+", "-") else token
    if not digits or not all("0" <= ch <= "9" for ch in digits):
        return None
    value = int(token)
    return value if -_INT_MAX - 1 <= value <= _INT_MAX else None


# -- reading the lines back (what a contestant program does) ---------------------------
def read_setup(read) -> Setup:
    """``read()`` returns the next input line."""
    return Setup(*(int(read()) for _ in range(8)))


def read_turn(read, players: int) -> Turn:
    round_, hand = int(read()), int(read())
    stacks, chips = [], []
    for _ in range(players):
        s, c = read().split()
        stacks.append(int(s))
        chips.append(int(c))
    board = parse_board(read())
    cards = tuple(parse_card_text(t) for t in read().split("_"))
    actions = []
    for _ in range(int(read())):
        r, h, p, a, b = read().split()
        actions.append((int(r), int(h), int(p), a, parse_board(b)))
    showdowns = []
    for _ in range(int(read())):
        h, b, cs = read().split()
        showdowns.append((int(h), parse_board(b), parse_seat_cards(cs)))
    possible = tuple(read().strip() for _ in range(int(read())))
    return Turn(round_, hand, tuple(stacks), tuple(chips), board, cards, tuple(actions),
                tuple(showdowns), possible)
