"""Hands and boards for the ranged bot: the 1326 two-card combos, their preflop classes and percentiles, board
strength percentiles and texture, ICM, and the referee's listing of an answer.

Standard library only: the export inlines it before ranged.py."""

import math
from bisect import bisect

from bots.cg_holdem.pure_eval import value7
from bots.cg_holdem.pushfold_chart import EQUITY_VS_RANDOM

COMBOS = tuple((a, b) for a in range(52) for b in range(a))  # every two-card hand, once


def combo_class(a: int, b: int) -> int:
    """The preflop class index of the push/fold chart (a > b suited, a < b offsuit, a == b pair)."""
    hi, lo = max(a % 13, b % 13), min(a % 13, b % 13)
    return hi * 13 + lo if (a // 13 == b // 13 or hi == lo) else lo * 13 + hi


def _class_percentiles() -> tuple[float, ...]:
    """Share of the 1326 combos a class beats on equity vs a random hand (ties count half)."""
    count = [0] * 169
    for a, b in COMBOS:
        count[combo_class(a, b)] += 1
    pct = []
    for c in range(169):
        below = sum(count[d] for d in range(169) if EQUITY_VS_RANDOM[d] < EQUITY_VS_RANDOM[c])
        pct.append((below + count[c] / 2) / len(COMBOS))
    return tuple(pct)


CLASS_PCT = _class_percentiles()
COMBO_CLASS = tuple(combo_class(a, b) for a, b in COMBOS)
CLASS_COMBOS = tuple(sum(1 for k in COMBO_CLASS if k == c) for c in range(169))


def above(x: float, cut: float, width: float) -> float:
    """A soft step: about 0 well below ``cut``, 1 well above."""
    z = (x - cut) / width
    return 1.0 if z > 30 else 0.0 if z < -30 else 1.0 / (1.0 + math.exp(-z))


def icm(stacks, payouts) -> list[float]:
    """Malmuth-Harville: each stack's expected payout when places go in proportion to chips."""
    n = len(stacks)
    out = [0.0] * n

    def place(left, prob, k):
        total = sum(stacks[i] for i in left)
        if k >= len(payouts) or prob < 1e-9 or total <= 0:
            return
        for i in left:
            p = prob * stacks[i] / total
            out[i] += p * payouts[k]
            place([j for j in left if j != i], p, k + 1)

    place([i for i in range(n) if stacks[i] > 0], 1.0, 0)
    return out


def texture(board) -> float:
    """How wet the board is, 0 (dry, rainbow, disconnected) to 1 (suited and connected)."""
    if not board:
        return 0.0
    suits = [0] * 4
    mask = 0
    for c in board:
        suits[c // 13] += 1
        mask |= 1 << (c % 13)
    flush = min(1.0, max(0.0, (max(suits) - 1) / 2))
    connected = max(bin((mask >> lo) & 0x1F).count("1") for lo in range(9))  # most ranks in a 5-wide window
    straight = min(1.0, max(0.0, (connected - 1) / 2))
    paired = len(board) - bin(mask).count("1")
    return max(0.0, min(1.0, 0.55 * flush + 0.45 * straight - 0.2 * paired))


def _has_draw(a: int, b: int, board) -> bool:
    """A flush draw or an open-ended straight draw using a hole card (flop and turn)."""
    cards = (a, b, *board)
    for s in range(4):
        n = sum(1 for c in cards if c // 13 == s)
        if n == 4 and (a // 13 == s or b // 13 == s):
            return True
    mask = 0
    for c in cards:
        mask |= 1 << (c % 13)
    mine = (1 << (a % 13)) | (1 << (b % 13))
    for lo in range(0, 9):
        run = 0xF << lo
        if mask & run == run and mine & run and not (mask >> (lo + 4)) & 1 and (lo == 0 or not mask >> (lo - 1) & 1):
            return True
    return False


def board_percentiles(board) -> list[float]:
    """Per combo, the share of combos (off the board) its hand on this board beats; draws lifted
    to 0.7 before the river; combos that touch the board get 0."""
    dead = set(board)
    board = list(board)
    values = [-1] * len(COMBOS)
    live = []
    for i, (a, b) in enumerate(COMBOS):
        if a not in dead and b not in dead:
            values[i] = value7([a, b, *board])
            live.append(values[i])
    live.sort()
    n = len(live)
    pct = [0.0] * len(COMBOS)
    for i, v in enumerate(values):
        if v >= 0:
            lo, hi = bisect(live, v - 1), bisect(live, v)
            pct[i] = (lo + (hi - lo) / 2) / n
            if len(board) < 5 and pct[i] < 0.7 and _has_draw(*COMBOS[i], board):
                pct[i] = 0.7
    return pct


def range_quantile(weights, share: float) -> float:
    """The preflop percentile below which ``share`` of a range's weight lies."""
    per_class = [0.0] * 169
    for x, c in zip(weights, COMBO_CLASS, strict=True):
        per_class[c] += x
    total = sum(per_class)
    if total <= 0:
        return share
    acc = 0.0
    for c in sorted(range(169), key=CLASS_PCT.__getitem__):
        acc += per_class[c]
        if acc >= share * total:
            return CLASS_PCT[c]
    return 1.0


def as_listed(answer: str, possible) -> str:
    """The answer in the form the referee plays as given: a call that takes the whole stack is
    listed as ALL-IN, a raise that is not allowed is a call."""
    if answer in possible or answer.startswith("BET"):
        return answer
    if answer in ("CALL", "ALL-IN"):
        return next((a for a in ("CALL", "ALL-IN") if a in possible), "FOLD")
    return "FOLD"


def combo_index(a: int, b: int) -> int:
    """The index in COMBOS of the hand (a, b), either order."""
    hi, lo = (a, b) if a > b else (b, a)
    return hi * (hi - 1) // 2 + lo
