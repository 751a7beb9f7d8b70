"""Splendor through the game contract (engine/core/contract.py): one game, every seat a player.

An action is a canonical `Move`: colours ascending as `move_for_code` builds them, returns
ascending. The arbiter also accepts other spellings of the same move (colours or returns in
another order); the contract lists one spelling per move and refuses the others, so "listed"
and "accepted" are the same set.
"""

from itertools import combinations_with_replacement

from engine.core.contract import TurnBot
from engine.core.errors import IllegalMove
from engine.splendor import state as st
from engine.splendor.judge import game_deal
from engine.splendor.protocol import Observation
from engine.splendor.rules import GEMS, HAND_LIMIT, SplendorConfig

BOT_PROTOCOL = TurnBot


def _returns_for(chips: list[int]) -> list[tuple[int, ...]]:
    """Every ascending sequence of gem colours that brings the chips back to the hand limit."""
    excess = sum(chips) - HAND_LIMIT
    if excess <= 0:
        return [()]
    return [r for r in combinations_with_replacement(range(GEMS), excess)
            if all(r.count(c) <= chips[c] for c in set(r))]


class Splendor:
    name = "splendor"
    lists_every_action = True

    def __init__(self, config: SplendorConfig = SplendorConfig()):
        self.config = config
        self.seats = config.players

    def start(self, seed: int) -> st.GameState:
        return self.start_unit(seed, 0)

    def start_unit(self, seed: int, unit: int) -> st.GameState:
        """Game `unit` of the match `seed`, as the judge deals it (the referee loop's optional hook)."""
        return st.GameState.new(game_deal(seed, unit, self.config.players), self.config)

    def to_act(self, state: st.GameState) -> int | None:
        return None if state.over else state.seat

    def legal(self, state: st.GameState) -> list[st.Move]:
        if state.over:
            return []
        moves = []
        for code in st.legal_codes(state):
            move = st.move_for_code(state, code)
            after = st.chips_after(state, move)
            moves += [st.Move(move.action, move.colours, move.card, r) for r in _returns_for(after)]
        return moves

    def check(self, state: st.GameState, action: st.Move) -> None:
        if state.over:
            raise IllegalMove("the game is over")
        if not isinstance(action, st.Move):
            raise IllegalMove(f"expected a Move, got {type(action).__name__}")
        move = st.validate_move(state, action)  # the arbiter's checks, its reason on refusal
        if move != action or list(move.colours) != sorted(move.colours) or list(move.returns) != sorted(move.returns):
            raise IllegalMove(f"{action} is not the canonical spelling (colours and returns ascending)")

    def apply(self, state: st.GameState, action: st.Move) -> st.TurnEvent:
        self.check(state, action)
        return st.apply(state, action)

    def view(self, state: st.GameState, seat: int) -> Observation:
        return st.observe(state, seat)

    def hidden(self, state: st.GameState, seat: int) -> frozenset[int]:
        """The face-down piles and the other seats' blind reservations."""
        piles = {cid for pile in state.piles for cid in pile}
        blind = {cid for other, p in enumerate(state.players) if other != seat for cid, secret in p.reserve if secret}
        return frozenset(piles | blind)

    def returns(self, state: st.GameState) -> tuple[float, ...]:
        """Each seat's share of the win (ties share it; nobody wins a game capped below the target)."""
        winners = st.winners(state)
        return tuple(1.0 / len(winners) if seat in winners else 0.0 for seat in range(state.n))


GAME = Splendor()
