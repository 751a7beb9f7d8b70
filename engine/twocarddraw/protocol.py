"""The contest's strategy-file format, read and written exactly.

Line 1: ``bet1 bet2``. Then one line per server situation (4155 in all, any order):
``ROUND1 CARD1 CARD2 BETS fold call raise``,
``DRAW CARD1 CARD2 BETS FIRST DREW draw0 draw1 draw2``,
``ROUND2 CARD1 CARD2 BETS1 BETS2 FIRST DREW1 DREW2 fold call raise``.
FIRST: 0 = the player bet first (or nobody bet), 1 = the server. DREW/DREW1: the player's draw,
DREW2: the server's. Cards are the server's (post-draw in ROUND2), CARD1 <= CARD2.
"""

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.core.errors import BadValue
from engine.twocarddraw import rules as R
from engine.twocarddraw.strategy import Strategy

SUM_TOLERANCE = 1e-6
_FIELDS = {
    "ROUND1": ("CARD1", "CARD2", "BETS"),
    "DRAW": ("CARD1", "CARD2", "BETS", "FIRST", "DREW"),
    "ROUND2": ("CARD1", "CARD2", "BETS1", "BETS2", "FIRST", "DREW1", "DREW2"),
}
_RANGES = {"CARD1": 4, "CARD2": 4, "BETS": 3, "BETS1": 3, "BETS2": 3, "FIRST": 1, "DREW": 2, "DREW1": 2, "DREW2": 2}


class StrategyFileError(BadValue):
    def __init__(self, source: str, line: int, message: str):
        super().__init__(f"{source}:{line}: {message}")
        self.line = line


@dataclass(frozen=True)
class ParsedStrategy:
    strategy: Strategy
    warnings: tuple[str, ...]  # e.g. raise > 0 at the cap, moved to call


def format_strategy(strategy: Strategy) -> str:
    lines = [f"{strategy.bets.bet1} {strategy.bets.bet2}"]
    for row in range(R.N_ROWS):
        key = " ".join(str(v) for v in _row_key(row))
        probs = " ".join(_format_prob(p) for p in strategy.probs[row])
        lines.append(f"{key} {probs}")
    return "\n".join(lines) + "\n"


def write_strategy(strategy: Strategy, path: Path) -> None:
    Path(path).write_text(format_strategy(strategy))


def read_strategy(path: Path) -> ParsedStrategy:
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise StrategyFileError(str(path), 0, f"cannot read strategy file ({exc})") from exc
    return parse_strategy(text, source=str(path))


def parse_strategy(text: str, *, source: str = "<strategy>") -> ParsedStrategy:
    lines = text.splitlines()
    if not lines:
        raise StrategyFileError(source, 1, "empty file; expected 'bet1 bet2' on line 1")
    bets = _parse_header(lines[0], source)
    probs = np.zeros((R.N_ROWS, 3))
    seen = np.zeros(R.N_ROWS, dtype=np.int64)  # line number that set each row, 0 = unset
    warnings = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        row, values = _parse_row(line, number, source)
        if seen[row]:
            raise StrategyFileError(source, number, f"situation already given on line {seen[row]}")
        if _betting_at_cap(row) and values[2] > 0:
            warnings.append(f"{source}:{number}: raise {values[2]:g} at {R.MAX_BETS} bets played as call")
            values = (values[0], values[1] + values[2], 0.0)
        seen[row] = number
        probs[row] = values
    if not seen.all():
        missing = np.flatnonzero(seen == 0)
        example = " ".join(str(v) for v in _row_key(int(missing[0])))
        raise StrategyFileError(
            source, len(lines) + 1, f"{len(missing)} situations missing (expected {R.N_ROWS}), e.g. '{example}'"
        )
    return ParsedStrategy(Strategy(bets, probs), tuple(warnings))


def _parse_header(line: str, source: str) -> R.BetSizes:
    parts = line.split()
    try:
        bet1, bet2 = (int(p) for p in parts)
        return R.BetSizes(bet1, bet2)
    except ValueError as exc:
        detail = str(exc) if len(parts) == 2 and all(p.lstrip("-").isdigit() for p in parts) else f"got {line!r}"
        expected = "expected 'bet1 bet2' (1 <= bet1 <= 5, bet1 <= bet2 <= 3*bet1)"
        raise StrategyFileError(source, 1, f"{expected}; {detail}") from None


def _parse_row(line: str, number: int, source: str) -> tuple[int, tuple[float, float, float]]:
    parts = line.split()
    tag = parts[0]
    if tag not in _FIELDS:
        raise StrategyFileError(source, number, f"expected ROUND1, DRAW or ROUND2 at the start, got {tag!r}")
    names = _FIELDS[tag]
    if len(parts) != 1 + len(names) + 3:
        layout = " ".join((tag, *names, "p0", "p1", "p2"))
        raise StrategyFileError(source, number, f"expected {len(names) + 4} fields '{layout}', got {len(parts)}")
    key = {}
    for name, text in zip(names, parts[1 : 1 + len(names)], strict=True):
        if not text.isdigit() or int(text) > _RANGES[name]:
            raise StrategyFileError(source, number, f"{name} must be an integer 0..{_RANGES[name]}, got {text!r}")
        key[name] = int(text)
    if key["CARD1"] > key["CARD2"]:
        raise StrategyFileError(source, number, f"expected CARD1 <= CARD2, got {key['CARD1']} {key['CARD2']}")
    values = _parse_probs(parts[1 + len(names) :], number, source)
    return _row_from_key(tag, key, number, source), values


def _parse_probs(texts: list[str], number: int, source: str) -> tuple[float, float, float]:
    try:
        values = tuple(float(t) for t in texts)
    except ValueError:
        raise StrategyFileError(source, number, f"expected three probabilities, got {' '.join(texts)!r}") from None
    if not all(math.isfinite(v) and v >= 0 for v in values):
        raise StrategyFileError(source, number, f"probabilities must be finite and >= 0, got {' '.join(texts)}")
    total = sum(values)
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise StrategyFileError(source, number, f"probabilities must sum to 1 within {SUM_TOLERANCE:g}, got {total!r}")
    return values


def _row_from_key(tag: str, key: dict[str, int], number: int, source: str) -> int:
    hand = R.hand_index(key["CARD1"], key["CARD2"])
    if tag == "ROUND1":
        return R.round1_row(key["BETS"], hand)
    bets = key["BETS"] if tag == "DRAW" else key["BETS1"]
    if bets == 0 and key["FIRST"] != 0:
        raise StrategyFileError(source, number, "FIRST must be 0 when round 1 had no bets")
    history = R.history_index(bets, key["FIRST"])
    if tag == "DRAW":
        return R.draw_row(history, key["DREW"], hand)
    return R.round2_row(history, key["DREW1"], key["DREW2"], key["BETS2"], hand)


def _row_key(row: int) -> tuple:
    """The file's key fields for a flat row index (inverse of the rules.*_row functions)."""
    hand_of = R.HANDS
    if row < R.DRAW_BASE:
        bets, hand = divmod(row, R.N_HANDS)
        return ("ROUND1", *hand_of[hand], bets)
    if row < R.ROUND2_BASE:
        rest, hand = divmod(row - R.DRAW_BASE, R.N_HANDS)
        history, drew = divmod(rest, 3)
        bets, first = R.HISTORIES[history]
        return ("DRAW", *hand_of[hand], bets, first, drew)
    rest, hand = divmod(row - R.ROUND2_BASE, R.N_HANDS)
    rest, bets2 = divmod(rest, R.MAX_BETS + 1)
    rest, drew2 = divmod(rest, 3)
    history, drew1 = divmod(rest, 3)
    bets1, first = R.HISTORIES[history]
    return ("ROUND2", *hand_of[hand], bets1, bets2, first, drew1, drew2)


def _betting_at_cap(row: int) -> bool:
    key = _row_key(row)
    if key[0] == "DRAW":
        return False
    return (key[3] if key[0] == "ROUND1" else key[4]) == R.MAX_BETS


def _format_prob(p: float) -> str:
    return "0" if p == 0 else ("1" if p == 1 else f"{p:.12g}")
