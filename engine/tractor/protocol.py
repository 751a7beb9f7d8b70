"""The contest's text: parse the simulator's input, render its output. No game rules here.

Parsing is token-based (any whitespace, CRLF, blank lines or none), as the judges read it;
a case ends when every player has played 25 cards. The input is read line by line and each
case is yielded when complete, so memory stays constant however many cases come. Malformed
input raises `InputError` naming the case, line and token (long tokens cut).
"""

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from engine.core.errors import BadValue
from engine.tractor.rules import (
    CARD_OF_TOKEN,
    HAND_SIZE,
    MAIN_LETTERS,
    RANKS,
    SEATS,
    RoundSetup,
)

CARD_HELP = "a card is a suit of H S C D and a rank of 23456789TJQKA, or BJ / RJ"
_ECHO = 40  # characters of a token quoted in a message
_COUNT = re.compile(r"[0-9]+")  # ASCII digits only (str.isdigit also takes other scripts)
_TEN = re.compile(r"[HSCD]10")


def shown(token: str) -> str:
    """A token as quoted in messages: the first 40 characters and '...' when longer."""
    return repr(token if len(token) <= _ECHO else token[:_ECHO] + "...")


class InputError(BadValue):
    """Malformed simulator input; str() is a one-line message naming case, line and token."""

    def __init__(self, message: str, *, case: int | None = None, line: int | None = None,
                 token: str | None = None, layout: bool = False):
        where = []
        if case is not None:
            where.append(f"case {case}")
        if line is not None:
            where.append(f"line {line}")
        if token is not None:
            where.append(f"token {shown(token)}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.case, self.line, self.token = case, line, token
        self.layout = layout  # a symptom of plays shifted between lines (see _OddLine)


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
    """Whitespace-separated tokens of a line source, one line held at a time, with line numbers.

    `odd` keeps the first trick line of the current case that does not hold exactly four
    plays: reading is token-based as the judges read, but when the case then fails, that
    line is the cause to report."""

    def __init__(self, lines: Iterable[str]):
        self._source = iter(lines)
        self._parts = self._lines()
        self._number = 0
        self.words: list[str] = []
        self.pos = 0
        self.line = 0  # the number of the line `words` came from
        self.odd: tuple[int, int] | None = None  # (line, plays on it)

    def _lines(self) -> Iterator[str]:
        for raw in self._source:
            yield from raw.splitlines() or [""]  # \r, \v, \f ... end lines too, as in str.splitlines

    def _fill(self) -> bool:
        """Load the next line with tokens; False at the end of the input."""
        for part in self._parts:
            self._number += 1
            words = part.split()
            if words:
                self.words, self.pos, self.line = words, 0, self._number
                return True
        self.words, self.pos = [], 0
        return False

    def ready(self) -> bool:
        return self.pos < len(self.words) or self._fill()

    def next(self) -> tuple[str, int] | None:
        if not self.ready():
            return None
        self.pos += 1
        return self.words[self.pos - 1], self.line


_PLAY = re.compile(r"(?:[HSCD][2-9TJQKA]|[BR]J)+")
_CARD = re.compile(r"..")


def split_cards(text: str) -> tuple[str, ...] | None:
    """Two-letter cards of a play string, or None if any is unknown."""
    if len(text) % 2 or not _PLAY.fullmatch(text):
        return None
    return (text,) if len(text) == 2 else tuple(_CARD.findall(text))


def _unknown_card(text: str) -> str:
    """The first bad card of a play, as a message part."""
    for i in range(0, len(text), 2):
        if _TEN.match(text, i):
            return f"unknown card {text[i:i + 3]!r} (a ten is written T, e.g. {text[i]}T)"
        if text[i:i + 2] not in CARD_OF_TOKEN:
            return f"unknown card {shown(text[i:i + 2])}"
    return f"unknown card {shown(text[-1])}"


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


def _bad_trick(items: list, case: int, played: int, last_line: int | None) -> None:
    """Raise the InputError for a trick's tokens (None where the input ended)."""
    plays, line = [], None
    for seat, item in enumerate(items):
        if item is None:
            raise InputError(f"input ended after {played} cards per player and {seat} plays of a trick; "
                             f"every player plays {HAND_SIZE} cards", case=case, line=line or last_line, layout=True)
        token, where = item
        line = where if line is None else line
        cards = split_cards(token)
        if cards is None and token in MAIN_LETTERS and played:
            raise InputError(f"expected a play but found what looks like the next header; this case has only "
                             f"{played} of {HAND_SIZE} cards per player", case=case, line=where, token=token,
                             layout=True)
        if cards is None:
            raise InputError(f"{_unknown_card(token)}; {CARD_HELP}", case=case, line=where, token=token)
        if plays and len(cards) != len(plays[0]):
            raise InputError(f"play of {len(cards)} cards in a trick led with {len(plays[0])}; "
                             "all four plays of a trick have the same length", case=case, line=where, token=token,
                             layout=True)
        plays.append(cards)
    raise AssertionError("_bad_trick called on a good trick")


def _trick(stream: _Tokens, case: int, played: int, last_line: int | None) -> Trick:
    if stream.ready() and stream.pos == 0 and len(stream.words) == 4:  # the usual layout: a line per trick
        line = stream.line
        a, b, c, d = words = stream.words
        stream.pos = 4
        items = None
    else:
        if stream.ready() and stream.odd is None:
            stream.odd = (stream.line, len(stream.words))
        items = [stream.next() for _ in range(4)]
        if None in items:
            _bad_trick(items, case, played, last_line)
        (a, line), (b, _), (c, _), (d, _) = items
        words = [a, b, c, d]
    size = len(a)
    if not size % 2 and len(b) == size and len(c) == size and len(d) == size and _PLAY.fullmatch(a + b + c + d):
        n = size // 2
        if played + n > HAND_SIZE:
            raise InputError(f"this trick brings each player to {played + n} cards; a player plays exactly "
                             f"{HAND_SIZE} cards per round", case=case, line=line, token=a, layout=True)
        if n == 1:
            plays = ((a,), (b,), (c,), (d,))
        else:
            plays = tuple(tuple(_CARD.findall(w)) for w in words)
        return Trick(plays, line, (a, b, c, d))
    _bad_trick(items or [(w, line) for w in words], case, played, last_line)


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


def read_rounds(source: str | Iterable[str], *, resume: tuple[int, int, int] | None = None) -> Iterator[RoundInput]:
    """The cases of an input (a text or its lines), one at a time, so a bad case comes after the
    good ones and only one case is held in memory.

    `resume` = (case, T, lines before): the source starts at that case's header, after that many
    lines of the input (a faster reader handed over the rest)."""
    stream = _Tokens(source.splitlines() if isinstance(source, str) else source)
    if resume is not None:
        first_case, count, stream._number = resume
    else:
        first_case, count = 1, case_count(stream.next())
    for case in range(first_case, count + 1):
        stream.odd = None
        try:
            yield _case(stream, case)
        except InputError as exc:
            if exc.layout and stream.odd is not None:
                odd_line, plays = stream.odd
                raise InputError(f"this line holds {plays} plays; a trick is 4 plays on one line",
                                 case=case, line=odd_line) from None
            raise


def case_count(first: tuple[str, int] | None) -> int:
    """T from the input's first token (and its line)."""
    if first is None:
        raise InputError("empty input; expected the number of cases T on the first line")
    token, line = first
    if not _COUNT.fullmatch(token) or len(token) > 18:
        raise InputError("bad case count; expected a non-negative integer T (ASCII digits, below 10**18)",
                         line=line, token=token)
    return int(token)


def _case(stream: _Tokens, case: int) -> RoundInput:
    setup = _header(stream, case)
    tricks, played, line = [], 0, None
    while played < HAND_SIZE:
        trick = _trick(stream, case, played, line)
        line = trick.line
        played += len(trick.plays[0])
        tricks.append(trick)
    _check_copies(tricks, case)
    return RoundInput(case=case, setup=setup, tricks=tuple(tricks))


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
