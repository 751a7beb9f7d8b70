"""The contest's text protocol, byte for byte: judge lines out, contestant lines in. No rules.

Cards go on the wire as "suit value" with value 1..13 for 2..A (engine rank + 1).
"""

import re
from dataclasses import dataclass

from engine.holdem_training.rules import CHECK, FOLD, RAISE, Action, View

ABORT = "-1"  # the judge's line when it stops a match early
_INT = re.compile(r"-?[0-9]+")


class ProtocolError(ValueError):
    """A contestant line the judge does not accept (malformed, unknown command)."""


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
        raise ProtocolError(f"{what} must be an integer, got {token!r}")
    return int(token)


def parse_command(line: str) -> RateRequest | Action:
    """A contestant line: 'RATE t' (t >= 1) or 'ACTION CHECK|FOLD|RAISE x'.

    The raise's range depends on the stack and is checked by the state, not here."""
    tokens = line.split()
    if not tokens:
        raise ProtocolError("empty line; expected RATE t or ACTION ...")
    head = tokens[0]
    if head == "RATE":
        if len(tokens) != 2:
            raise ProtocolError(f"RATE takes one integer, got {line!r}")
        rollouts = _int_token(tokens[1], "RATE t")
        if rollouts < 1:
            raise ProtocolError(f"RATE t needs t >= 1, got {rollouts}")
        return RateRequest(rollouts)
    if head != "ACTION":
        raise ProtocolError(f"unknown command {head!r}; expected RATE or ACTION")
    if len(tokens) == 2 and tokens[1] in (CHECK, FOLD):
        return Action(tokens[1])
    if len(tokens) == 3 and tokens[1] == RAISE:
        return Action(RAISE, _int_token(tokens[2], "RAISE x"))
    raise ProtocolError(f"bad action {line!r}; expected ACTION CHECK, ACTION FOLD or ACTION RAISE x")
