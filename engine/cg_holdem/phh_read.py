"""PHH hand histories read back (the TOML format PokerKit reads and writes), for fitting players.

A file holds one hand (its fields at the top level) or several (a ``.phhs`` file: one TOML table
per hand, ``[1]``, ``[2]``, ...). Only no-limit Texas hold'em (``variant = "NT"``) is read.
Players are in PHH order; heads-up the two blinds (and antes) are posted swapped, as PokerKit
does. ``cbr`` amounts are street totals, ``cc`` calls the street's top bet or what is left.

`replay` walks a hand's betting and gives, before every action, what the acting seat saw in the
referee's own terms (engine.cg_holdem.protocol's Setup and Turn), and the action as the referee's
history spells it (FOLD, CHECK, CALL, BET_x with the chips added, ALL-IN when the stack goes in),
so one decision is described the same way whether it came from the hand log or from a file.
The big blind is the file's ``min_bet``, except in files cardlab wrote for cg-holdem (``event``
starting "cg-holdem"), where it is the contest's level for the ``hand`` number (the exporter
lowers ``min_bet`` when the big blind is all-in short). Antes are not counted in the pot the
seat sees (the contest has none). Amounts in decimals are scaled to whole chips: every figure
a situation reads is a ratio.
"""

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from engine.cg_holdem.protocol import Setup, Turn
from engine.cg_holdem.rules import ALL_IN, CALL, CHECK, FOLD, big_blind
from engine.cg_holdem.state import Game
from engine.core.cards import RANKS, SUITS, parse_card_name
from engine.core.errors import BadValue, MissingFile
from engine.core.histories import digest_of

REQUIRED = ("variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks", "actions")
CG_EVENT = "cg-holdem"  # the event cardlab's exporter writes: the contest's blind levels apply
_STREET_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}
_MAX_SCALE = 6  # decimal places accepted in amounts


class BadHistory(BadValue):
    """A hand history that is not PHH this reader accepts; the message names the file and the hand."""


@dataclass(frozen=True)
class Hand:
    """One hand of a file, checked: amounts in whole chips, players in PHH order."""

    file: str  # the file's name, for messages
    digest: str  # sha256 of the file's bytes: the hand's identity does not depend on where the file is
    section: str  # the hand's table name in a multi-hand file, "1" in a one-hand file
    names: tuple[str, ...] | None
    stacks: tuple[int, ...]
    antes: tuple[int, ...]  # by player, as posted (heads-up swap done)
    blinds: tuple[int, ...]  # by player, as posted (heads-up swap done, capped by the stack)
    bb: int
    number: int  # the hand's number (the `hand` field, else its place in the file)
    actions: tuple[tuple[int, str, int, tuple[int, ...] | None], ...]  # (player or -1 dealer, verb, amount, cards)
    cards: tuple[tuple[int, int] | None, ...]  # each player's hole cards where dealt face up or shown

    @property
    def identity(self) -> str:
        return f"{self.digest}:{self.section}"


@dataclass(frozen=True)
class Step:
    """One betting action and what its seat saw just before it."""

    seat: int
    text: str  # the referee's word: FOLD, CHECK, CALL, BET_x (x chips added), ALL-IN
    chips: int  # chips this action added
    asked: bool  # False: the referee would not have asked (a lone seat nobody can bet against checks)
    setup: Setup
    turn: Turn  # turn.cards is None when the seat's cards are not known
    folded: frozenset[int]
    bb: int


def read_file(path: Path | str) -> list[Hand]:
    """Every hand of a PHH file, checked; BadHistory (one line) names the file, the hand and the fault."""
    path = Path(path)
    if not path.is_file():
        raise MissingFile(f"{path}: no such file; accepted: a PHH file (.phh, .phhs) or a folder of them")
    return read_bytes(path.read_bytes(), path.name)


def read_bytes(data: bytes, name: str) -> list[Hand]:
    digest = digest_of(data)
    try:
        doc = tomllib.loads(data.decode("utf-8"), parse_float=Decimal)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise BadHistory(f"{name}: not TOML ({exc}); accepted: PHH, the TOML hand histories PokerKit "
                         "reads and writes") from None
    if "variant" in doc or "actions" in doc:
        sections = [("1", doc)]
    else:
        sections = list(doc.items())
        if not sections or not all(isinstance(v, dict) for _, v in sections):
            raise BadHistory(f"{name}: neither one hand (variant, actions, ... at the top) nor hands as tables "
                             "([1], [2], ...); accepted: a .phh or .phhs file")
    hands = [_hand(fields, name, digest, str(key), k) for k, (key, fields) in enumerate(sections, start=1)]
    for hand in hands:
        for _ in replay(hand):  # the betting must add up before anything is fitted from it
            pass
    return hands


def _fail(name: str, section: str, what: str) -> BadHistory:
    return BadHistory(f"{name} hand {section}: {what}")


def _numbers(value, field: str, name: str, section: str) -> list[Decimal]:
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, (int, Decimal)) and not isinstance(v, bool) for v in values):
        raise _fail(name, section, f"{field} = {value!r}; accepted: numbers")
    return [Decimal(v) for v in values]


def _scale(amounts: list[Decimal], name: str, section: str) -> int:
    for places in range(_MAX_SCALE + 1):
        if all((a * 10**places) == (a * 10**places).to_integral_value() for a in amounts):
            return 10**places
    raise _fail(name, section, f"amounts with more than {_MAX_SCALE} decimal places; accepted: chips or "
                               "currency amounts")


def _cards(text: str, name: str, section: str, action: str) -> tuple[int, ...] | None:
    """Cards like 'AsKd'; None when any is unknown ('??')."""
    if len(text) % 2:
        raise _fail(name, section, f"action {action!r}: cards {text!r}; accepted: pairs like AsKd, ?? unknown")
    pairs = [text[i:i + 2] for i in range(0, len(text), 2)]
    if any(p == "??" for p in pairs):
        return None
    try:
        return tuple(parse_card_name(p) for p in pairs)
    except BadValue:
        raise _fail(name, section, f"action {action!r}: cards {text!r}; accepted: a rank of {RANKS} then a suit "
                                   f"of {SUITS}, ?? unknown") from None


def _hand(fields: dict, name: str, digest: str, section: str, place: int) -> Hand:
    missing = [f for f in REQUIRED if f not in fields]
    if missing:
        raise _fail(name, section, f"no {', '.join(missing)}; accepted: PHH fields {', '.join(REQUIRED)}")
    if fields["variant"] != "NT":
        raise _fail(name, section, f"variant {fields['variant']!r}; accepted: 'NT' (no-limit Texas hold'em)")
    stacks = _numbers(fields["starting_stacks"], "starting_stacks", name, section)
    n = len(stacks)
    if n < 2:
        raise _fail(name, section, f"{n} player(s); accepted: 2 or more starting_stacks")
    antes = _numbers(fields["antes"], "antes", name, section)
    blinds = [abs(b) for b in _numbers(fields["blinds_or_straddles"], "blinds_or_straddles", name, section)]
    antes, blinds = (antes * n if len(antes) == 1 else antes), (blinds * n if len(blinds) == 1 else blinds)
    for field, values in (("antes", antes), ("blinds_or_straddles", blinds)):
        if len(values) != n:
            raise _fail(name, section, f"{field} has {len(values)} values for {n} players; accepted: one per "
                                       "player (or one for all)")
    min_bet = _numbers(fields["min_bet"], "min_bet", name, section)[0]
    names = fields.get("players")
    if names is not None and (not isinstance(names, list) or len(names) != n
                              or not all(isinstance(x, str) and x for x in names)):
        raise _fail(name, section, f"players = {names!r}; accepted: {n} names, one per starting stack")
    if not isinstance(fields["actions"], list) or not all(isinstance(a, str) for a in fields["actions"]):
        raise _fail(name, section, "actions is not a list of strings; accepted: PHH actions like 'p1 cbr 200'")
    parsed, amounts = [], list(stacks) + antes + blinds + [min_bet]
    for action in fields["actions"]:
        words = action.split("#", 1)[0].split()
        if not words:
            continue
        parsed.append(_action(words, action, n, name, section))
        if parsed[-1][1] == "cbr":
            amounts.append(parsed[-1][2])
    if any(a < 0 for a in amounts):
        raise _fail(name, section, "a negative amount; accepted: amounts of 0 or more")
    scale = _scale(amounts, name, section)
    whole = [int(a * scale) for a in stacks]
    if n == 2:  # PokerKit posts heads-up blinds and antes swapped: the first player posts the second value
        antes, blinds = antes[::-1], blinds[::-1]
    ante_paid = [min(int(a * scale), s) for a, s in zip(antes, whole, strict=True)]
    posted = [min(int(b * scale), s - a) for b, s, a in zip(blinds, whole, ante_paid, strict=True)]
    event, number = fields.get("event", ""), fields.get("hand", place)
    contest = isinstance(event, str) and event.startswith(CG_EVENT)
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        if contest:  # the blind level depends on it
            raise _fail(name, section, f"hand = {number!r}; accepted: a hand number of 1 or more")
        number = place
    bb = big_blind(number) if contest else int(min_bet * scale)
    if bb <= 0:
        bb = max(posted)
    if bb <= 0:
        raise _fail(name, section, "no min_bet and no blinds; accepted: a positive min_bet or blinds")
    actions = tuple((p, verb, int(amount * scale), cards) for p, verb, amount, cards in parsed)
    cards: list[tuple[int, int] | None] = [None] * n
    for p, verb, _, shown in actions:
        if verb in ("dh", "sm") and shown is not None:
            if len(shown) != 2:
                raise _fail(name, section, f"p{p + 1} has {len(shown)} hole cards; accepted: 2 (Texas hold'em)")
            cards[p] = cards[p] or (shown[0], shown[1])
    return Hand(name, digest, section, tuple(names) if names else None, tuple(whole), tuple(ante_paid),
                tuple(posted), bb, number, actions, tuple(cards))


def _action(words: list[str], action: str, n: int, name: str, section: str):
    """(player index or -1, verb, amount, cards)."""
    accepted = "accepted: 'd dh pN CARDS', 'd db CARDS', 'pN f', 'pN cc', 'pN cbr AMOUNT', 'pN sm [CARDS|-]'"
    if words[0] == "d":
        if len(words) == 4 and words[1] == "dh":
            return _player(words[2], action, n, name, section), "dh", Decimal(0), _cards(words[3], name, section,
                                                                                          action)
        if len(words) == 3 and words[1] == "db":
            dealt = _cards(words[2], name, section, action)
            if dealt is None:
                raise _fail(name, section, f"action {action!r}: an unknown board card; accepted: dealt cards")
            return -1, "db", Decimal(0), dealt
        raise _fail(name, section, f"action {action!r}; {accepted}")
    p = _player(words[0], action, n, name, section)
    verb = words[1] if len(words) > 1 else ""
    if verb in ("f", "cc") and len(words) == 2:
        return p, verb, Decimal(0), None
    if verb == "cbr" and len(words) == 3:
        try:
            amount = Decimal(words[2])
        except ArithmeticError:
            amount = Decimal("NaN")
        if not amount.is_finite():
            raise _fail(name, section, f"action {action!r}: amount {words[2]!r}; accepted: a number")
        return p, verb, amount, None
    if verb == "sm" and len(words) in (2, 3):
        shown = None if len(words) == 2 or words[2] == "-" else _cards(words[2], name, section, action)
        return p, verb, Decimal(0), shown
    raise _fail(name, section, f"action {action!r}; {accepted}")


def _player(word: str, action: str, n: int, name: str, section: str) -> int:
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
        raise _fail(name, section, f"action {action!r}: player {word!r}; accepted: p1 to p{n}")
    return int(word[1:]) - 1


class _Table:
    """The betting state, kept under the referee's attribute names so the referee's own rule for the
    possible actions (Game.possible_actions) reads it: the legal moves a decision is scored on."""

    def __init__(self, hand: Hand):
        self.n = n = len(hand.stacks)
        self.bb = hand.bb
        self.stack = [s - a - b for s, a, b in zip(hand.stacks, hand.antes, hand.blinds, strict=True)]
        self.total = list(hand.blinds)
        self.street_bet = list(hand.blinds)
        self.folded = [False] * n
        self.street, self.board = 0, ()
        self.top = max(self.total)
        self.last_total, self.last_raise, self.last_raiser, self.raise_count = hand.bb, hand.bb, -1, 1
        self.to_act = -1

    def new_street(self, board: tuple[int, ...]) -> None:
        self.board = board
        self.street = _STREET_OF_BOARD[len(board)]
        self.street_bet = [0] * self.n
        self.last_total, self.last_raise, self.last_raiser, self.raise_count = 0, self.bb, -1, 0

    def call(self, s: int) -> int:
        """The referee's call: preflop every seat must reach a full big blind."""
        top = max(self.top, self.bb) if self.street == 0 else self.top
        return top - self.total[s]

    def put(self, s: int, chips: int) -> None:
        self.stack[s] -= chips
        self.total[s] += chips
        self.street_bet[s] += chips
        self.top = max(self.top, self.total[s])
        if chips and self.street_bet[s] - self.last_total >= self.last_raise:  # a full raise moves the level
            self.last_raise = self.street_bet[s] - self.last_total
            self.last_total = self.street_bet[s]
            self.last_raiser = s
            self.raise_count += 1


def replay(hand: Hand):
    """The hand's betting actions as Steps, in order; BadHistory when the betting does not add up."""
    table, n = _Table(hand), len(hand.stacks)
    fail = _fail
    count = 0
    for p, verb, amount, dealt in hand.actions:
        if verb == "db":
            board = table.board + dealt
            if len(board) not in _STREET_OF_BOARD or len(board) == 0:
                raise fail(hand.file, hand.section, f"a board of {len(board)} cards; accepted: 3, then 1, then 1")
            table.new_street(board)
            continue
        if verb in ("dh", "sm"):
            continue
        if table.folded[p] or table.stack[p] <= 0:
            state = "has folded" if table.folded[p] else "is all-in"
            raise fail(hand.file, hand.section, f"p{p + 1} acts ({verb}) but {state}; accepted: actions of seats "
                                                "still betting")
        top_street, stack = max(table.street_bet), table.stack[p]
        if verb == "f":
            chips = 0
        elif verb == "cc":
            chips = min(max(top_street - table.street_bet[p], 0), stack)
        else:
            chips = amount - table.street_bet[p]
            if amount <= top_street or chips > stack:
                what = (f"is not above the street's top bet {top_street}" if amount <= top_street
                        else f"is more than the {stack} chips p{p + 1} has")
                raise fail(hand.file, hand.section, f"p{p + 1} cbr {amount} {what}; accepted: a raise to a "
                                                    "larger total the stack covers")
        call = table.call(p)
        text = (FOLD if verb == "f" else CHECK if chips == 0 else ALL_IN if chips == stack
                else CALL if chips <= call else f"BET_{chips}")
        asked = table.total[p] < table.top or any(
            q != p and not table.folded[q] and table.stack[q] > 0 for q in range(n))
        table.to_act = p
        count += 1
        turn = Turn(count, hand.number, tuple(table.stack), tuple(table.total), table.board, hand.cards[p], (), (),
                    Game.possible_actions(table))
        yield Step(p, text, chips, asked, Setup(hand.bb // 2, hand.bb, 0, 0, 0, 0, n, p), turn,
                   frozenset(q for q in range(n) if table.folded[q]), hand.bb)
        if verb == "f":
            table.folded[p] = True
        else:
            table.put(p, chips)
