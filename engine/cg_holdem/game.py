"""CodinGame Hold'em through the game contract (engine/core/contract.py): one game (many hands), 2-4 seats.

The referee never refuses an output: it replaces one it cannot play (a short bet becomes the
minimum raise, CHECK facing a bet a FOLD, ...). The contract's actions are the outputs it
plays as given; anything it would replace is refused with IllegalMove, so a bot driven
through the contract plays exactly what it chose. An output it reads as TIMEOUT is played as
one (the seat's stack leaves the game), so TIMEOUT is always listed.

What a seat is shown (`SeatTurn`): the 8 setup lines, its whole input so far as one turn, and
the referee's replacement for an output now (`played`, a query on the public position), through
which `CgSeat` turns a bot's output line into the action the judge plays. Unit u of a match is
game u // players (the judge's duplicate format: seat its line-up with referee.rotation), so
through the referee loop the registered bots get exactly the judge's finish scores.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.cg_holdem.judge import java_seed, setup_for, turn_for
from engine.cg_holdem.protocol import Setup, Turn, parse_output
from engine.cg_holdem.rules import ALL_IN, BET, CALL, CHECK, FOLD, TIMEOUT, GameConfig
from engine.cg_holdem.state import Action, Game, HistoryLine
from engine.core.contract import MultiSeatPokerBot
from engine.core.errors import IllegalMove
from engine.core.seats import BotSeat
from engine.core.seeds import Purpose, match_key, unit_key

BOT_PROTOCOL = MultiSeatPokerBot
_KINDS = (FOLD, CHECK, CALL, BET, ALL_IN, TIMEOUT)


@dataclass(frozen=True)
class SeatTurn:
    """One seat's view: its setup lines, its whole input so far as one turn (`possible` only for the
    acting seat), and `played(action)`: the action the referee plays for that output now (not compared)."""

    setup: Setup
    turn: Turn
    played: Callable[[Action], Action] | None = field(default=None, compare=False, repr=False)


class CgHoldem:
    name = "cg-holdem"
    lists_every_action = True

    def __init__(self, config: GameConfig = GameConfig(players=3)):
        self.config = config
        self.seats = config.players

    def start(self, seed: int) -> Game:
        return self.start_unit(seed, 0)

    def start_unit(self, seed: int, unit: int) -> Game:
        """Unit `unit` of the match `seed`: game unit // players, as the judge's chunks deal it
        (the referee loop's optional hook; the judge rotates the line-up unit % players seats)."""
        return Game(self.config, java_seed(unit_key(match_key(seed), unit // self.seats, Purpose.DEAL)))

    def to_act(self, state: Game) -> int | None:
        return None if state.over else state.to_act

    def legal(self, state: Game) -> list[Action]:
        if state.over:
            return []
        s = state.to_act
        stack, call = state.stack[s], state.call_amount(s)
        may_raise = not state.capped() and s != state.last_raiser
        found = [Action(CHECK)] if call == 0 else [Action(CALL)] if call < stack else []
        if may_raise or call >= stack:
            found.append(Action(ALL_IN))
        if may_raise:
            found += [Action(BET, x) for x in range(max(call + 1, state.min_raise(s)), stack)]
        return [*found, Action(FOLD), Action(TIMEOUT)]

    def check(self, state: Game, action: Action) -> None:
        if state.over:
            raise IllegalMove("the game is over")
        if not isinstance(action, Action) or action.kind not in _KINDS or type(action.amount) is not int:
            raise IllegalMove(f"expected an Action of {', '.join(_KINDS)}, got {action!r}")
        played = state.replace(action)
        if played != action:
            raise IllegalMove(f"{action.kind} {action.amount} is not playable as given; the referee plays {played}")

    def apply(self, state: Game, action: Action) -> HistoryLine:
        self.check(state, action)
        return state.apply(action)

    def view(self, state: Game, seat: int) -> SeatTurn:
        """The seat's setup and whole input so far as one turn: its hole cards, the board, all history
        and showdowns."""
        turn = turn_for(state, seat, 0, 0)
        if seat != state.to_act:
            turn = turn._replace(possible=())  # the list is the acting seat's

        def played(action: Action) -> Action:  # a function, so the seat is not handed the game
            return state.replace(action)

        return SeatTurn(setup_for(state, seat), turn, played)

    def hidden(self, state: Game, seat: int) -> frozenset[int]:
        """The other seats' hole cards until their hand ends (every seat's cards are then shown),
        and the board cards not dealt yet."""
        cards = set(state.full_board[len(state.board):])
        if not (state.showdowns and state.showdowns[-1].hand == state.hand_nb):
            cards |= {c for s, hole in enumerate(state.hole) if s != seat and hole is not None for c in hole}
        return frozenset(cards)

    def returns(self, state: Game) -> tuple[float, ...]:
        """The finish score the workspace pays: 1 for first, 0 for last, shared places shared."""
        return tuple((state.n - p) / (state.n - 1) for p in state.positions())


GAME = CgHoldem()


class CgSeat(BotSeat):
    """Line-up member `entrant` of the judge's play_chunk: a new bot from `make()` each game, told
    new_game(key) with the judge's key for (unit, entrant) if it takes one, start(setup) before its
    first decision, then act(turn) with the input since its previous decision (the judge's turns);
    its output line is read and replaced as the referee does."""

    def __init__(self, make: Callable[[], MultiSeatPokerBot], entrant: int):
        super().__init__(None)
        self.make, self.entrant = make, entrant
        self.last_round, self.seen = 0, 0

    def begin(self, game, seat: int, unit_seed: int) -> None:
        self.bot = self.make()
        if hasattr(self.bot, "new_game"):
            self.bot.new_game(unit_key(unit_seed, self.entrant, Purpose.BOT))
        self.last_round, self.seen = 0, 0

    def act(self, view: SeatTurn, legal: Sequence) -> Action:
        whole = view.turn
        if self.last_round == 0:
            self.bot.start(view.setup)
        since = self.last_round - 1 if self.last_round else 0
        turn = whole._replace(actions=whole.actions[since:], showdowns=whole.showdowns[self.seen:])
        self.last_round, self.seen = whole.round, len(whole.showdowns)
        kind, amount, _ = parse_output(self.bot.act(turn))
        return view.played(Action(kind, amount))
