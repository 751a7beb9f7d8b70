"""The one contract every game meets, and the bot shapes a judge talks to.

A game is a small object with plain hooks over a state it creates (OpenSpiel's shape, kept
minimal): who acts, what is legal, apply -> a frozen event, what a seat sees, the returns.
Each contest meets it in engine/<game>/game.py as a thin adapter over its own state class;
the judges keep playing the contest exactly as before, and tests/test_conformance.py drives
every registered game through this contract alone. Chance (deals, draws, the house player's
answers) happens inside `start` and `apply`, from the seed, so a seed replays the same events.

Every refusal is `engine.core.errors.IllegalMove`; `can` is `apply`'s check in a try.

Optional, beyond the protocol below (the referee loop, engine/core/referee.py, uses them):

- `start_unit(seed, unit) -> S`: unit `unit` of the match `seed`, dealt as the judge deals it
  (`start(seed)` is then unit 0). Every built-in adapter has it, so the judge's play and the
  loop's play of the same (seed, unit) are the same game; tests/core/test_referee_builtin.py
  shows each judge's payoffs equal the loop's with the seats its game.py declares.
- A view may carry a contest's queries as callables not compared with the view: Hold'em
  Training's RATE (`rate(t)`, which draws on the hand's chance stream exactly as the contest's
  RATE does, so it changes the house's later answers) and CodinGame's replacement of an output
  (`played(action)`, a function of the public position). They are the only way a seat reaches
  the state, and they hand it no state object.
"""

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from engine.core.errors import IllegalMove

S = TypeVar("S")  # the game's own state object (mutable; only `apply` changes it)
A = TypeVar("A")  # an action as the game's state accepts it
E = TypeVar("E", covariant=True)  # a frozen event (frozen dataclass or tuple)
V = TypeVar("V", covariant=True)  # what one seat sees


@runtime_checkable
class Game(Protocol[S, A, E, V]):
    name: str  # the registry's name (flows/games)
    seats: int  # seats that take decisions (a house player that answers by rule is not a seat)
    lists_every_action: bool  # False when `legal` gives a sample (Tractor's leads and hidden cards)

    def start(self, seed: int) -> S:
        """The first unit (hand, game, round) of the match `seed`, dealt as the judge deals it."""

    def to_act(self, state: S) -> int | None:
        """The seat whose decision is pending, or None once the unit is over."""

    def legal(self, state: S) -> Sequence[A]:
        """The actions `apply` accepts now (every one of them unless `lists_every_action` is False)."""

    def check(self, state: S, action: A) -> None:
        """IllegalMove naming why, if `apply` would refuse the action now; nothing changes."""

    def apply(self, state: S, action: A) -> E:
        """Play the pending seat's action and what follows by rule; IllegalMove (state unchanged) if refused."""

    def view(self, state: S, seat: int) -> V:
        """What `seat` may see now, as its bot would be shown it."""

    def hidden(self, state: S, seat: int) -> frozenset[int]:
        """Cards (the game's own card ints) that exist now and `seat` may not see: empty without hidden information."""

    def returns(self, state: S) -> tuple[float, ...]:
        """Each seat's result once the unit is over (the house's side is not a seat)."""


def can(game: Game, state: Any, action: Any) -> bool:
    """Whether `apply` would accept the action: `check` in a try."""
    try:
        game.check(state, action)
    except IllegalMove:
        return False
    return True


# -- bot shapes, one per kind of game: what the judge calls, whatever the bot does inside ----------------

@runtime_checkable
class HeadsUpPokerBot(Protocol):
    """Heads-up poker against the house (Hold'em Training, TwoCardDraw): asked at each of its own
    decisions with what the contest shows (plus the contest's query hooks, e.g. a RATE meter)."""

    def act(self, view, *context) -> Any: ...


@runtime_checkable
class MultiSeatPokerBot(Protocol):
    """One seat at a multi-seat poker game (CodinGame Hold'em): told the game's setup once, then
    asked each turn; answers the contest's output line."""

    def start(self, setup) -> None: ...

    def act(self, turn) -> Any: ...


@runtime_checkable
class TurnBot(Protocol):
    """A seat of a turn-based board or card game (Splendor, Tractor): asked on its turn with its
    own view (and its seeded generator where the judge hands one), answers its move."""

    def act(self, view, *context) -> Any: ...
