"""High card against the house, declared as a cardlab game from outside cardlab.

The whole declaration: the rules as a contract game, one bot, the line protocol a program
speaks, and the GameSpec. The referee loop plays it (flows.games.referee_play), so judge,
match, sweep, league, report and replay come with no code of cardlab's changed.
"""

from dataclasses import dataclass
from pathlib import Path

from bots.base import BotSpec, Ranged, ranged
from engine.core.errors import IllegalMove
from engine.core.seats import BadOutput, BadOutputRule, ProgramLimits
from engine.core.seeds import generator
from flows.games.base import HOUSE, GameSpec
from flows.games.referee_play import bot_chunks, house_league, program_chunks

HERE = Path(__file__).resolve().parent
ACTIONS = ("BET", "FOLD")


@dataclass
class Hand:
    card: int  # 0..51; rank = card // 4
    house: int
    action: str | None = None


@dataclass(frozen=True)
class View:
    rank: int


@dataclass(frozen=True)
class Played:
    action: str
    card: int
    house: int
    payoff: float


def payoff(action: str, card: int, house: int) -> float:
    if action == "FOLD":
        return -1.0
    mine, theirs = card // 4, house // 4
    return 2.0 if mine > theirs else -2.0 if mine < theirs else 0.0


class HighCard:
    name = "highcard"
    seats = 1
    lists_every_action = True

    def start(self, seed: int) -> Hand:
        card, house = generator(seed).choice(52, size=2, replace=False)
        return Hand(int(card), int(house))

    def to_act(self, hand: Hand) -> int | None:
        return None if hand.action else 0

    def legal(self, hand: Hand) -> list[str]:
        return [] if hand.action else list(ACTIONS)

    def check(self, hand: Hand, action) -> None:
        if hand.action:
            raise IllegalMove("the hand is over")
        if action not in ACTIONS:
            raise IllegalMove(f"expected one of {', '.join(ACTIONS)}, got {action!r}")

    def apply(self, hand: Hand, action) -> Played:
        self.check(hand, action)
        hand.action = action
        return Played(action, hand.card, hand.house, payoff(action, hand.card, hand.house))

    def view(self, hand: Hand, seat: int) -> View:
        return View(hand.card // 4)

    def hidden(self, hand: Hand, seat: int) -> frozenset[int]:
        return frozenset() if hand.action else frozenset({hand.house})

    def returns(self, hand: Hand) -> tuple[float, ...]:
        return (payoff(hand.action, hand.card, hand.house),)


class Lines:
    """The program's protocol: `CARD r` in, `BET` or `FOLD` out."""

    def opening(self, game, seat: int) -> list[str]:
        return []

    def turn(self, view: View, legal) -> list[str]:
        return [f"CARD {view.rank}"]

    def parse(self, line: str, legal):
        word = line.strip()
        if word not in legal:
            raise BadOutput(f"expected BET or FOLD, got {word[:40]!r}")
        return word


@dataclass(frozen=True)
class ThresholdConfig(Ranged):
    min_rank: int = ranged(6, 0, 13)  # bet from this rank up (13: never bet)


class ThresholdBot:
    def __init__(self, config: ThresholdConfig):
        self.config = config

    def act(self, view: View) -> str:
        return "BET" if view.rank >= self.config.min_rank else "FOLD"


GAME = HighCard()
SPEC = GameSpec(
    name="highcard",
    title="High card against the house (a plug-in game)",
    unit="hand",
    bots={"threshold": BotSpec("threshold", ThresholdConfig, ThresholdBot, "bets from a rank up")},
    default_bot="threshold",
    play_chunk=bot_chunks(GAME),
    play_program=program_chunks(GAME, Lines(), rule=BadOutputRule("forfeit_unit", forfeit=-2.0),
                                limits=ProgramLimits(turn_seconds=2.0, first_turn_seconds=10.0, cpu_seconds=20.0)),
    sql_file=str(HERE / "highcard.sql"),
    default_grid={"min_rank": ("4", "8")},
    default_units=400,
    payoff_label="chips per hand",
    payoff_kind=HOUSE,
    league=house_league(default_units=200),
    rules_doc=str(HERE / "RULES.md"),
)
