"""The contest's text: parse the simulator's input, render its output. No game rules here.

Parsing is token-based (any whitespace, CRLF, blank lines or none), as the judges read it;
a case ends when every player has played 25 cards. Malformed input raises `InputError`
naming the case, line and token.
"""

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from engine.tractor.rules import (
    CARD_OF_TOKEN,
    HAND_SIZE,
    MAIN_LETTERS,
    RANKS,
    SEATS,
    RoundSetup,
)

CARD_HELP = "a card is a suit of H S C D and a rank of 23456789TJQKA, or BJ / RJ"


class InputError(ValueError):
    """Malformed simulator input; str() is a one-line message naming case, line and token."""

    def __init__(self, message: str, *, case: int | None = None, line: int | None = None,
                 token: str | None = None):
        where = []
        if case is not None:
            where.append(f"case {case}")
        if line is not None:
            where.append(f"line {line}")
        if token is not None:
            where.append(f"token {token!r}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.case, self.line, self.token = case, line, token


class Trick(NamedTuple):
    """One trick's four plays, the leader's first; each play is a tuple of tokens."""

    plays: tuple[tuple[str, ...], ...]
    line: int  # where the trick starts
    texts: tuple[str, ...]  # the four play strings as written


@dataclass(frozen=True)
class RoundInput:
    case: int
    setup: RoundSetup
    tricks: tuple[Trick, ...]


class _Tokens:
    """Whitespace-separated tokens with their line numbers and a read cursor."""

    def __init__(self, text: str):
        self.words: list[str] = []
        self.lines: list[int] = []
        for number, line in enumerate(text.splitlines(), start=1):
            words = line.split()
            if words:
                self.words.extend(words)
                self.lines.extend([number] * len(words))
        self.pos = 0

    def next(self) -> tuple[str, int] | None:
        if self.pos >= len(self.words):
            return None
        self.pos += 1
        return self.words[self.pos - 1], self.lines[self.pos - 1]


_PLAY = re.compile(r"(?:[HSCD][2-9TJQKA]|[BR]J)+")
_CARD = re.compile(r"..")


def split_cards(text: str) -> tuple[str, ...] | None:
    """Two-letter cards of a play string, or None if any is unknown."""
    if len(text) % 2 or not _PLAY.fullmatch(text):
        return None
    return (text,) if len(text) == 2 else tuple(_CARD.findall(text))


def _unknown_card(text: str) -> str:
    for i in range(0, len(text), 2):
        if text[i:i + 2] not in CARD_OF_TOKEN:
            return text[i:i + 2]
    return text[-1]


def _header(stream: _Tokens, case: int) -> RoundSetup:
    fields = []
    for what, accepted in (("main suit", MAIN_LETTERS), ("dealer", SEATS),
                           ("CR of team 1", RANKS), ("CR of team 2", RANKS)):
        item = stream.next()
        if item is None:
            raise InputError(f"bad header: input ended before the {what}", case=case)
        token, line = item
        choices = accepted if isinstance(accepted, tuple) else tuple(accepted)
        if token not in choices:
            raise InputError(f"bad header: the {what} must be one of {' '.join(choices)}",
                             case=case, line=line, token=token)
        fields.append(choices.index(token))
    return RoundSetup(main=fields[0], dealer=fields[1], cr1=fields[2], cr2=fields[3])


def _bad_trick(stream: _Tokens, case: int, played: int, last_line: int | None) -> None:
    """Raise the InputError for the trick at the cursor (the slow path names the exact token)."""
    plays, line = [], None
    for seat in range(4):
        item = stream.next()
        if item is None:
            raise InputError(f"input ended after {played} cards per player and {seat} plays of a trick; "
                             f"every player plays {HAND_SIZE} cards", case=case, line=line or last_line)
        token, where = item
        line = where if line is None else line
        cards = split_cards(token)
        if cards is None and token in MAIN_LETTERS and played:
            raise InputError(f"expected a play but found what looks like the next header; this case has only "
                             f"{played} of {HAND_SIZE} cards per player", case=case, line=where, token=token)
        if cards is None:
            raise InputError(f"unknown card {_unknown_card(token)!r}; {CARD_HELP}",
                             case=case, line=where, token=token)
        if plays and len(cards) != len(plays[0]):
            raise InputError(f"play of {len(cards)} cards in a trick led with {len(plays[0])}; "
                             "all four plays of a trick have the same length", case=case, line=where, token=token)
        plays.append(cards)
    raise AssertionError("_bad_trick called on a good trick")


def _trick(stream: _Tokens, case: int, played: int, last_line: int | None) -> Trick:
    pos = stream.pos
    words = stream.words[pos:pos + 4]
    if len(words) == 4:
        a, b, c, d = words
        size = len(a)
        if not size % 2 and len(b) == size and len(c) == size and len(d) == size and _PLAY.fullmatch(a + b + c + d):
            stream.pos = pos + 4
            n = size // 2
            if played + n > HAND_SIZE:
                raise InputError(f"this trick brings each player to {played + n} cards; a player plays exactly "
                                 f"{HAND_SIZE} cards per round", case=case, line=stream.lines[pos], token=a)
            if n == 1:
                plays = ((a,), (b,), (c,), (d,))
            else:
                plays = tuple(tuple(_CARD.findall(w)) for w in words)
            return Trick(plays, stream.lines[pos], (a, b, c, d))
    _bad_trick(stream, case, played, last_line)


def _check_copies(tricks: list[Trick], case: int) -> None:
    counts = Counter(_CARD.findall("".join(w for t in tricks for w in t.texts)))
    if max(counts.values()) <= 2:
        return
    seen: Counter = Counter()
    for trick in tricks:
        for play, text in zip(trick.plays, trick.texts, strict=True):
            seen.update(play)
            for card in play:
                if seen[card] > 2:
                    raise InputError(f"card {card} played a third time; two decks hold two of each card",
                                     case=case, line=trick.line, token=text)


def read_rounds(text: str) -> Iterator[RoundInput]:
    """The cases of an input, one at a time, so a bad case comes after the good ones."""
    stream = _Tokens(text)
    first = stream.next()
    if first is None:
        raise InputError("empty input; expected the number of cases T on the first line")
    token, line = first
    if not token.isdigit():
        raise InputError("bad case count; expected a non-negative integer T", line=line, token=token)
    for case in range(1, int(token) + 1):
        setup = _header(stream, case)
        tricks, played, line = [], 0, None
        while played < HAND_SIZE:
            trick = _trick(stream, case, played, line)
            line = trick.line
            played += len(trick.plays[0])
            tricks.append(trick)
        _check_copies(tricks, case)
        yield RoundInput(case=case, setup=setup, tricks=tuple(tricks))


def render_result(case: int, *, ft_points: int, cr1: int, cr2: int, next_dealer: int, winner_team: int) -> str:
    """The three output lines of one case."""
    if winner_team:
        last = f"Winner: Team {winner_team}"
    else:
        last = f"{RANKS[cr1]} {RANKS[cr2]} {SEATS[next_dealer]}"
    return f"Case #{case}:\n{ft_points}\n{last}\n"


def render_header(setup: RoundSetup) -> str:
    return f"{MAIN_LETTERS[setup.main]} {SEATS[setup.dealer]} {RANKS[setup.cr1]} {RANKS[setup.cr2]}"


def render_input(rounds: list[tuple[RoundSetup, list[list[str]]]]) -> str:
    """A contest input: T, then per case a blank line, the header and one line per trick.

    Each trick is four play strings, the leader's first.
    """
    parts = [str(len(rounds)), ""]
    for index, (setup, tricks) in enumerate(rounds):
        if index:
            parts.append("")
        parts.append(render_header(setup))
        parts.extend(" ".join(trick) for trick in tricks)
    return "\n".join(parts) + "\n"
