"""Splendor through the game contract (engine/core/contract.py): one game, every seat a player.

An action is a canonical `Move` (colours ascending as `move_for_code` builds them, returns
ascending) or `PASS_TURN`, the arbiter's pass. The arbiter also accepts other spellings of the
same move (colours or returns in another order); the contract lists one spelling per move and
refuses the others, so "listed" and "accepted" are the same set. An agent's text reaches the
contract through `read_move`, which spells any accepted move the canonical way, with the same
effect (the order changes only the record's wording).

The judge's play through the referee loop (engine/core/referee.py), exactly: `bot_seat(bot)` asks
the bot with the stdin text it would be shown and reads its stdout as the arbiter does; an
invalid move is a fault whose rule (`INVALID_MOVE_PASSES`) plays PASS_TURN, as the arbiter
passes it; and `candidate_seating` seats a chunk as the judge's play_chunk does.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement

from engine.core.contract import TurnBot
from engine.core.errors import IllegalMove
from engine.core.seats import DEFAULT_ACTION, BadOutputRule, BotSeat
from engine.splendor import state as st
from engine.splendor.judge import game_deal
from engine.splendor.protocol import Observation, output_tokens, parse_input, render_input
from engine.splendor.rules import BUY, GEMS, HAND_LIMIT, RESERVE, TAKE_DIFFERENT, TAKE_TWO, SplendorConfig

BOT_PROTOCOL = TurnBot


@dataclass(frozen=True)
class Pass:
    """The arbiter's pass: the turn counts and nothing else happens (no noble visits). The arbiter
    plays it for any move it refuses, so a seat can always choose it."""


PASS_TURN = Pass()


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
        return [*moves, PASS_TURN]

    def check(self, state: st.GameState, action: st.Move) -> None:
        if state.over:
            raise IllegalMove("the game is over")
        if action == PASS_TURN:
            return
        if not isinstance(action, st.Move):
            raise IllegalMove(f"expected a Move or PASS_TURN, got {type(action).__name__}")
        move = st.validate_move(state, action)  # the arbiter's checks, its reason on refusal
        if move != action or list(move.colours) != sorted(move.colours) or list(move.returns) != sorted(move.returns):
            raise IllegalMove(f"{action} is not the canonical spelling (colours and returns ascending)")

    def apply(self, state: st.GameState, action: st.Move | Pass) -> st.TurnEvent:
        self.check(state, action)
        if action == PASS_TURN:
            return st.apply_pass(state, "invalid move")
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


# -- an agent's text as the arbiter reads it, and the judge's seats ---------------------------------------

_INT = re.compile(r"[+-]?(0|[1-9][0-9]*)")  # the arbiter's integers (engine.splendor.state reads them alike)


def _int(word: str) -> int:
    if not _INT.fullmatch(word):
        raise IllegalMove(f"[{word}] is not an integer")
    return int(word)


def read_move(stdout: str) -> st.Move:
    """The move an agent's stdout asks for, spelled the contract's way (colours and returns
    ascending), or IllegalMove if the tokens cannot spell a move. The contract accepts the result
    exactly when the arbiter accepts the text; then both play the same move. Every token after the
    action's own is read as a return, as the arbiter reads a correct move (more is refused)."""
    words = [_int(w) for w in output_tokens(stdout)]
    if len(words) < 2 or words[0] not in (TAKE_DIFFERENT, TAKE_TWO, RESERVE, BUY):
        raise IllegalMove("expected an action 1..4 and its arguments")
    action, arg = words[:2]
    if action == TAKE_DIFFERENT:
        if not 0 <= arg <= 3 or len(words) < 2 + arg:
            raise IllegalMove("take different: expected a count 0..3 and that many colours")
        return st.Move(action, tuple(sorted(words[2:2 + arg])), returns=tuple(sorted(words[2 + arg:])))
    if action == TAKE_TWO:
        return st.Move(action, (arg,), returns=tuple(sorted(words[2:])))
    return st.Move(action, card=arg, returns=tuple(sorted(words[2:])))


def answer(bot, view: Observation, legal: Sequence, rng) -> st.Move:
    """A BotSeat `ask`: the bot answers the stdin text the judge renders, read as the arbiter reads it."""
    return read_move(bot.act(parse_input(render_input(view))))


def new_game(bot, seat: int, key: int) -> None:
    """A BotSeat `on_begin`: the judge's new_game(key) for bots that take one."""
    if hasattr(bot, "new_game"):
        bot.new_game(key)


def pass_turn(legal: Sequence) -> Pass:
    return PASS_TURN


INVALID_MOVE_PASSES = BadOutputRule(DEFAULT_ACTION, fallback=pass_turn)  # the arbiter's rule


def bot_seat(bot) -> BotSeat:
    """A text bot (the judge's in-process agents) seated as the judge seats it."""
    return BotSeat(bot, ask=answer, on_begin=new_game, rule=INVALID_MOVE_PASSES)


def candidate_seating(players: int) -> Callable[[int], tuple[int, ...]]:
    """The judge's play_chunk seating for play_match: entrant 0 (the candidate) at seat unit % players,
    entrants 1.. (the opponents) in the other seats in order."""
    def seating(unit: int) -> tuple[int, ...]:
        order = list(range(1, players))
        order.insert(unit % players, 0)
        return tuple(order)
    return seating
