"""A CodinGame Hold'em player that plays a fitted per-situation action model (flows/opponents/cg_holdem.py).

A decision's situation is what the logs let us condition on, since every hand's cards are shown at
its end: the street, whether a bet is faced, a hand-strength bucket, one or several opponents, and
the stack-to-pot ratio. The model gives the chance of each action class there; a raise's size is
drawn from the player's own recorded sizes (a fraction of the pot after calling). The fitter reads
logged decisions through `situation` and `action_class` here, so the fit and the play agree.
"""

import functools
import json
from dataclasses import dataclass

import numpy as np

from bots.base import BotSpec, Ranged, seed_field, validated
from bots.cg_holdem.pure_eval import _CATEGORY, value7
from bots.cg_holdem.pushfold_chart import EQUITY_VS_RANDOM
from bots.cg_holdem.strategies import Player, View
from engine.cg_holdem._kernels import equity_vs_random
from engine.core.seeds import stream

FOLD, PASSIVE, RAISE, ALLIN = "FOLD", "PASSIVE", "RAISE", "ALLIN"
CLASSES = (FOLD, PASSIVE, RAISE, ALLIN)
PREFLOP_STRENGTH = (0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7)  # the hand class's equity vs one random hand
POSTFLOP_STRENGTH = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)  # Monte Carlo equity vs one random hand
PREFLOP_DEPTH = (5.0, 8.0, 12.0, 20.0, 40.0)  # effective stack in big blinds: what push/fold play turns on
POSTFLOP_DEPTH = (1.5, 4.0, 10.0, 25.0)  # stack behind / pot
ODDS_EDGES = (0.15, 0.25, 0.3, 0.35, 0.42)  # facing a bet: the call's share of the pot after calling
STRENGTH_SAMPLES = 256  # deals per postflop strength: a bucket, not a decision, needs few
_STREET = {0: 0, 3: 1, 4: 2, 5: 3}
UNSHOWN = "?"  # the strength part of a situation whose cards were never shown
MADE_TOP = 2  # made-hand categories kept apart: none, a pair, two pair or better


def street_of(board) -> int:
    """0 preflop, 1 flop, 2 turn, 3 river, from the board dealt."""
    return _STREET[len(board)]


def _bucket(x: float, edges: tuple[float, ...]) -> int:
    return sum(x >= e for e in edges)


@functools.lru_cache(maxsize=65536)
def _postflop_strength(cards: tuple[int, ...]) -> float:
    # The stream is keyed by the cards: the same cards get the same bucket in the fit and at the table.
    key = 1469598103934665603
    for c in cards:
        key = (key * 1099511628211 + c + 1) % (1 << 63)
    return float(equity_vs_random(np.array(cards, np.int64), 1, STRENGTH_SAMPLES, stream(key)))


def strength(view: View) -> int:
    """Hand-strength bucket: preflop the class's equity vs a random hand, postflop a Monte Carlo estimate."""
    if view.preflop:
        return _bucket(EQUITY_VS_RANDOM[view.hand_class], PREFLOP_STRENGTH)
    return _bucket(_postflop_strength((*view.turn.cards, *view.turn.board)), POSTFLOP_STRENGTH)


@functools.lru_cache(maxsize=65536)
def _made(cards: tuple[int, ...], board: tuple[int, ...]) -> int:
    mine, alone = value7([*cards, *board]) // _CATEGORY, value7(list(board)) // _CATEGORY
    return min(mine, MADE_TOP) if mine > alone else 0


def made(view: View) -> int:
    """After the flop, the made hand my cards take part in: 0 none (a pair on the board alone is none),
    1 a pair, 2 two pair or better. Equity mixes a draw or high cards with a weak pair, where programs
    that read their made hand (bet it, call with it, fold without it) act differently."""
    return 0 if view.preflop else _made(tuple(view.turn.cards), tuple(view.turn.board))


MADE_ORDERS = ("none", "first", "last")  # where the made hand enters a situation's backoff levels
LINE = "line+"  # an order with this prefix uses the line part (`Line.part`); without, the situation lacks it
ORDERS = (*MADE_ORDERS, *(LINE + o for o in MADE_ORDERS))  # what the fitter chooses from per street|facing


def levels(key: str, order: str = LINE + "first") -> tuple[str, ...]:
    """The situation's backoff levels, coarsest first: street|facing, + line, + strength, then the made
    hand and the rest (opponents, depth, lead) in `order`: the made hand first, last, or not at all
    (the finest level is then the situation without it). Preflop, where there is no made hand, the
    rest follows strength. The line comes right after street|facing: facing a re-raise is not facing an
    open raise of the same pot odds, whatever the rest. An order without the LINE prefix leaves the line
    out of every level, as a key without one (a model fitted before it) has none. The fitter picks
    the order per player and street|facing (flows/opponents/cg_holdem.py `_orders`)."""
    parts = key.split("|")
    if not order.startswith(LINE):
        parts = parts[:7]
        key = "|".join(parts)
    chain = ["|".join(parts[:2])]
    if len(parts) > 7:
        chain.append(f"{chain[0]}|{parts[7]}")
    strength = f"{chain[-1]}|{parts[2]}"
    rest = "|".join(parts[:3] + parts[4:])
    if parts[0] == "0":
        return *chain, strength, rest
    made_order = order.removeprefix(LINE)
    finer = {"first": (f"{strength}|{parts[3]}", key), "last": (rest, key), "none": (rest,)}[made_order]
    return *chain, strength, *finer


def spot(key: str) -> str:
    """street|facing: where the fitter chooses the made hand's place and reports calibration."""
    return "|".join(key.split("|")[:2])


def raised(action: str) -> bool:
    """A history line's action that bets or raises (an all-in counts, whatever it covered)."""
    return action.startswith("BET") or action == "ALL-IN"


class Line:
    """A hand's betting so far, as a player's line reads it: who raised last, the raises on the current
    street, and who raised preflop. Fed every action of the hand in order (seat, street, the referee's
    word), by the fitter from the referee's or a history's actions and by the clone from its turns."""

    def __init__(self):
        self.hand, self.last, self.street, self.raises, self.preflop = -1, -1, 0, 0, frozenset()

    def add(self, hand: int, seat: int, street: int, action: str) -> None:
        self.at(hand, street)
        if raised(action):
            self.last, self.raises = seat, self.raises + 1
            if street == 0:
                self.preflop |= {seat}

    def at(self, hand: int, street: int) -> None:
        """Now in `hand` on `street`: a new hand starts clean, a new street counts its raises afresh."""
        if hand != self.hand:
            self.hand, self.last, self.street, self.raises, self.preflop = hand, -1, street, 0, frozenset()
        elif street != self.street:
            self.street, self.raises = street, 0

    def part(self, me: int, street: int, facing: bool) -> str:
        """Preflop: the raises faced (0 blinds only, 1 one raise, 2 re-raised), which pot odds alone do
        not tell (a small blind completing and a raiser facing a re-raise can be offered the same).
        After: the raises faced on this street (0, 1 a bet, 2 raised again) and whether I raised
        preflop (the line a program may follow to the river). With nothing to call no raise is faced."""
        raises = min(self.raises, 2) if self.street == street and facing else 0
        if street == 0:
            return str(raises)
        return f"{max(raises, int(facing))}{int(me in self.preflop)}"


def situation(view: View, line: Line) -> str:
    """street|facing|strength|made|opponents|depth|lead|line; facing 0 (nothing to call) or 1-6 by the
    pot odds offered; made the made-hand category after the flop (`made`); lead 1 after the flop when
    the hand's last raise was mine (the spot for a continuation bet); line `Line.part`. Strength and
    made are UNSHOWN when the cards are not known (a hand history where they were never shown)."""
    street = street_of(view.turn.board)
    line.at(view.turn.hand, street)
    facing = 1 + _bucket(view.pot_odds(), ODDS_EDGES) if view.call > 0 else 0
    depth = (_bucket(view.effective_bb, PREFLOP_DEPTH) if view.preflop
             else _bucket(view.stack / max(view.pot, 1), POSTFLOP_DEPTH))
    band, hand = (strength(view), made(view)) if view.turn.cards else (UNSHOWN, UNSHOWN)
    lead = int(line.last == view.me and street > 0)
    return (f"{street}|{facing}|{band}|{hand}|{min(len(view.opponents), 2)}|{depth}|{lead}"
            f"|{line.part(view.me, street, facing > 0)}")


def size_keys(key: str) -> tuple[str, ...]:
    """Where a raise's size is looked up, most specific first: street group (0 preflop, 1 after),
    opening or raising (0 nothing to call, 1 facing a bet), the line (`Line.part`: an open is not a
    re-raise), made hand, strength; then fewer of them. The fitter keeps a player's sizes under every
    key where it raised often enough; keys holding UNSHOWN parts are never kept."""
    parts = key.split("|")
    street, facing, band, hand = parts[:4]
    group, bet = str(int(street != "0")), str(int(facing != "0"))
    lined = tuple(f"{group}|{bet}|L{line}{rest}" for line in parts[7:8] for rest in (f"|{hand}|{band}", f"|{hand}", ""))
    return (*lined, f"{group}|{bet}|{hand}|{band}", f"{group}|{bet}|{hand}", f"{group}|{bet}", f"{group}|{band}",
            group)


def shown(key: str) -> bool:
    """Whether a situation knows the cards' strength."""
    return key.split("|")[2] != UNSHOWN


def _lines(street: int, facing: int) -> tuple[str, ...]:
    """The line parts a situation can have: with nothing to call no raise is open on the street."""
    raises = ("1", "2") if facing else ("0",)
    if street == 0:
        return ("0", *raises) if facing else raises
    return tuple(f"{r}{pre}" for r in raises for pre in (0, 1))


def all_situations() -> list[str]:
    found = []
    for street in range(4):
        strengths, depths = (PREFLOP_STRENGTH, PREFLOP_DEPTH) if street == 0 else (POSTFLOP_STRENGTH, POSTFLOP_DEPTH)
        found += [f"{street}|{f}|{h}|{m}|{o}|{d}|{lead}|{line}" for f in range(len(ODDS_EDGES) + 2)
                  for h in range(len(strengths) + 1) for m in (range(MADE_TOP + 1) if street else (0,))
                  for o in (1, 2) for d in range(len(depths) + 1) for lead in ((0, 1) if street else (0,))
                  for line in _lines(street, f)]
    return found


def legal_classes(view: View) -> tuple[bool, ...]:
    """Which action classes the referee's list of possible actions offers now."""
    possible = view.turn.possible
    short = view.call >= view.stack
    return ("FOLD" in possible,
            "CHECK" in possible or "CALL" in possible or (short and "ALL-IN" in possible),
            any(p.startswith("BET_") for p in possible),
            not short and "ALL-IN" in possible)


def action_class(action: str, chips: int, call: int) -> str | None:
    """The class of a played (replaced) action; None for a timeout, which no model predicts."""
    if action == "FOLD":
        return FOLD
    if action in ("CHECK", "CALL"):
        return PASSIVE
    if action.startswith("BET"):
        return RAISE
    if action == "ALL-IN":
        return PASSIVE if chips <= call else ALLIN
    return None


def raise_fraction(view: View, chips: int) -> float:
    """A raise's size: chips past the call as a fraction of the pot after calling."""
    return (chips - view.call) / max(view.pot + view.call, 1)


def restricted(probs, legal) -> list[float]:
    """The model's chances over the legal classes only (uniform over them if it gives them none)."""
    masked = [p if ok else 0.0 for p, ok in zip(probs, legal, strict=True)]
    total = sum(masked)
    if total <= 0:
        n = sum(legal)
        return [1.0 / n if ok else 0.0 for ok in legal]
    return [p / total for p in masked]


def _check_model(text: str) -> str | None:
    if not text:
        return "empty: a clone needs a fitted model (`cardlab fit cg-holdem`)"
    try:
        model = parsed(text)
    except ValueError:
        return "not JSON"
    return None if isinstance(model, dict) and "probs" in model else "not a fitted model's params"


@functools.lru_cache(maxsize=64)
def parsed(text: str) -> dict:
    """The model's params, parsed once per process (a clone is made for every game)."""
    return json.loads(text)


@dataclass(frozen=True)
class CloneConfig(Ranged):
    model: str = validated("", _check_model, "the params of a fitted model, as JSON")
    seed: int = seed_field(0)


class CloneBot(Player):
    """Samples each action class from the fitted chances of its situation; raise sizes from the player's own."""

    def __init__(self, config: CloneConfig):
        super().__init__(config)
        model = parsed(config.model)
        self.probs = model["probs"]
        self.sizes = model["sizes"]
        self.line = Line()

    def act(self, turn) -> str:
        for _, hand, player, action, board in turn.actions:  # the rounds since my previous decision, mine included
            self.line.add(hand, player, street_of(board), action)
        return super().act(turn)

    def decide(self, view: View) -> str:
        legal = legal_classes(view)
        key = situation(view, self.line)
        if key not in self.probs:  # a model fitted before the line part (then the made hand): its situations lack it
            key = key.rsplit("|", 1)[0]
        if key not in self.probs:
            key = "|".join(p for i, p in enumerate(key.split("|")) if i != 3)
        probs = restricted(self.probs[key], legal)
        x, kind = self.rng.random(), CLASSES[-1]
        for name, p in zip(CLASSES, probs, strict=True):
            if p > 0 and x < p:
                kind = name
                break
            x -= p
        if kind == FOLD:
            return "FOLD"
        if kind == PASSIVE:
            return "CHECK" if view.call == 0 else "CALL" if view.call < view.stack else "ALL-IN"
        if kind == ALLIN:
            return "ALL-IN"
        sizes = next(s for k in size_keys(key) if (s := self.sizes.get(k)) is not None)
        frac = sizes[int(self.rng.random() * len(sizes))] if sizes else 1.0
        chips = max(int(round(view.call + frac * (view.pot + view.call))), view.min_bet)
        return "ALL-IN" if chips >= view.stack else f"BET {chips}"


CLONE = BotSpec("clone", CloneConfig, CloneBot, "plays a fitted opponent model (cardlab fit cg-holdem)")
