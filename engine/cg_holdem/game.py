"""CodinGame Hold'em through the game contract (engine/core/contract.py): one game (many hands), 2-4 seats.

The referee never refuses an output: it replaces one it cannot play (a short bet becomes the
minimum raise, CHECK facing a bet a FOLD, ...). The contract's actions are the outputs it
plays as given; anything it would replace is refused with IllegalMove, so a bot driven
through the contract plays exactly what it chose. The judge keeps the referee's replacement.
"""

from engine.cg_holdem.judge import java_seed, turn_for
from engine.cg_holdem.protocol import Turn
from engine.cg_holdem.rules import ALL_IN, BET, CALL, CHECK, FOLD, GameConfig
from engine.cg_holdem.state import Action, Game, HistoryLine
from engine.core.contract import MultiSeatPokerBot
from engine.core.errors import IllegalMove
from engine.core.seeds import Purpose, match_key, unit_key

BOT_PROTOCOL = MultiSeatPokerBot
_KINDS = (FOLD, CHECK, CALL, BET, ALL_IN)  # TIMEOUT is the judge's, never an answer


class CgHoldem:
    name = "cg-holdem"
    lists_every_action = True

    def __init__(self, config: GameConfig = GameConfig(players=3)):
        self.config = config
        self.seats = config.players

    def start(self, seed: int) -> Game:
        """Deal 0 of the match `seed`, as the workspace's chunks seed it."""
        return Game(self.config, java_seed(unit_key(match_key(seed), 0, Purpose.DEAL)))

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
        return [*found, Action(FOLD)]

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

    def view(self, state: Game, seat: int) -> Turn:
        """The seat's whole input so far as one turn: its hole cards, the board, all history and showdowns."""
        turn = turn_for(state, seat, 0, 0)
        return turn if seat == state.to_act else turn._replace(possible=())  # the list is the acting seat's

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
