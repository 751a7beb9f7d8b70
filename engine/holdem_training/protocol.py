"""The contest's text protocol, byte for byte: judge lines out, contestant lines in. No rules.

Cards go on the wire as "suit value" with value 1..13 for 2..A (engine rank + 1).
"""

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engine.holdem_training.rules import CHECK, FOLD, RAISE, Action, View

ABORT = "-1"  # the reference prints it only when the RATE budget is exceeded
# An integer as the reference reads one (testlib): no leading zeros, no "+", no "-0".
_INT = re.compile(r"0|-?[1-9][0-9]*")
_BLANKS = re.compile(r"[ \t\r]+")  # token separators within a line (newlines end lines)
_ECHO = 40  # characters of a bad token quoted in a message

# Verdicts, named as the contest's checker names them
WRONG_ANSWER = "WA"  # well-formed tokens that mean something illegal
PRESENTATION_ERROR = "PE"  # a token that is not what the reader expects (not an integer, leading zero, EOF)
BUDGET = "budget"  # RATE budget exceeded: the only case the reference answers -1


class ProtocolError(ValueError):
    """Contestant output the judge does not accept; `verdict` is WA or PE."""

    def __init__(self, message: str, verdict: str = WRONG_ANSWER):
        super().__init__(message)
        self.verdict = verdict


def _shown(token: str) -> str:
    return repr(token if len(token) <= _ECHO else token[:_ECHO] + "...")


@dataclass(frozen=True)
class RateRequest:
    rollouts: int


def card_tokens(card: int) -> str:
    return f"{card // 13} {card % 13 + 1}"


def parse_card(suit: str, value: str) -> int:
    s, v = int(suit), int(value)
    if not (0 <= s <= 3 and 1 <= v <= 13):
        raise ProtocolError(f"no such card: suit {suit}, value {value} (expected suit 0..3, value 1..13)")
    return s * 13 + v - 1


def hand_count_line(hands: int) -> str:
    return str(hands)


def state_lines(view: View) -> tuple[str, str, str]:
    """STATE h r a b P k, ALICE c1 v1 c2 v2, BOARD with k cards (just 'BOARD' when k = 0)."""
    state = f"STATE {view.hand} {view.round} {view.stack} {view.opp_stack} {view.pot} {len(view.board)}"
    alice = f"ALICE {card_tokens(view.hole[0])} {card_tokens(view.hole[1])}"
    board = " ".join(["BOARD", *(card_tokens(c) for c in view.board)])
    return state, alice, board


def rates_line(wins: int, ties: int, rollouts: int) -> str:
    return f"RATES {wins / rollouts:.6f} {ties / rollouts:.6f}"


def opponent_line(response: str, amount: int) -> str:
    """OPP CHECK, OPP FOLD or OPP CALL x."""
    return f"OPP CALL {amount}" if response == "CALL" else f"OPP {response}"


def result_line(delta: int) -> str:
    return f"RESULT {delta}"


def score_line(average_profit: float) -> str:
    return f"SCORE {average_profit:.6f}"


def _int_token(token: str, what: str) -> int:
    if not _INT.fullmatch(token):
        raise ProtocolError(f"{what} must be an integer without leading zeros, got {_shown(token)}",
                            PRESENTATION_ERROR)
    return int(token)


def line_tokens(line: str) -> list[str]:
    """The tokens of one line: blanks (spaces, tabs, CR) separate them; a blank line has none."""
    return [t for t in _BLANKS.split(line) if t]


def token_reader(read_line: Callable[[], str]) -> Callable[[], str]:
    """next_token() over a line source, as the reference reads: a command may span lines, a line
    may hold several commands, blank lines are skipped."""

    def tokens() -> Iterator[str]:
        while True:
            yield from line_tokens(read_line())

    stream = tokens()
    return lambda: next(stream)


def read_command(next_token: Callable[[], str]) -> RateRequest | Action:
    """One command from a token source: 'RATE t' (t >= 1) or 'ACTION CHECK|FOLD|RAISE x'.

    The raise's range depends on the stack and is checked by the state, not here."""
    head = next_token()
    if head == "RATE":
        rollouts = _int_token(next_token(), "RATE t")
        if rollouts < 1:
            raise ProtocolError(f"RATE t needs t >= 1, got {rollouts}")
        return RateRequest(rollouts)
    if head != "ACTION":
        raise ProtocolError(f"unknown command {_shown(head)}; expected RATE or ACTION")
    kind = next_token()
    if kind in (CHECK, FOLD):
        return Action(kind)
    if kind == RAISE:
        return Action(RAISE, _int_token(next_token(), "RAISE x"))
    raise ProtocolError(f"bad action {_shown(kind)}; expected ACTION CHECK, ACTION FOLD or ACTION RAISE x")


def parse_command(line: str) -> RateRequest | Action:
    """Exactly one command on one line (in-process tools and tests); the judge reads tokens."""
    tokens = iter(line_tokens(line))

    def next_token() -> str:
        token = next(tokens, None)
        if token is None:
            raise ProtocolError(f"incomplete command {_shown(line)}", PRESENTATION_ERROR)
        return token

    command = read_command(next_token)
    extra = next(tokens, None)
    if extra is not None:
        raise ProtocolError(f"unexpected {_shown(extra)} after the command in {_shown(line)}")
    return command
