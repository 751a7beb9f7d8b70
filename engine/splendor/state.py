"""The reference Splendor engine: state, validation with the arbiter's messages, apply.

Validation mirrors the arbiter's order of checks token by token (the first failure names
the reason); it never mutates. ``apply`` runs action, returns, then the noble check, and
hands back a frozen ``TurnEvent``. Canonical action codes (shared with the kernels):

  0..25   take different colours: the subsets of 0..4 of size 0, 1, 2, 3 (TAKE_SETS order)
  26..30  take two of colour c
  31..42  reserve the face-up card in slot level*4+slot
  43..45  reserve blind from level 0..2
  46..57  buy the face-up card in slot level*4+slot
  58..60  buy own reserved card at index 0..2
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from engine.core import _rng
from engine.core.errors import IllegalMove
from engine.core.seeds import stream
from engine.splendor import rules
from engine.splendor.protocol import Observation, PlayerView
from engine.splendor.rules import (
    BUY,
    CARDS,
    GEMS,
    GOLD,
    HAND_LIMIT,
    MAX_RESERVED,
    NOBLE_POINTS,
    NOBLES,
    RESERVE,
    TAKE_DIFFERENT,
    TAKE_TWO,
    TAKE_TWO_MIN,
    SplendorConfig,
)

TAKE_SETS = tuple(s for k in range(4) for s in combinations(range(GEMS), k))
CODE_TAKE_TWO = len(TAKE_SETS)  # 26
CODE_RESERVE_UP = CODE_TAKE_TWO + GEMS  # 31
CODE_RESERVE_BLIND = CODE_RESERVE_UP + 12  # 43
CODE_BUY_UP = CODE_RESERVE_BLIND + 3  # 46
CODE_BUY_RESERVED = CODE_BUY_UP + 12  # 58
NUM_CODES = CODE_BUY_RESERVED + MAX_RESERVED  # 61

_INT_TOKEN = re.compile(r"[+-]?(0|[1-9][0-9]*)")
_PHP_INT_MAX = 2**63 - 1


@dataclass(frozen=True)
class Move:
    action: int  # 1 take different, 2 take two, 3 reserve, 4 buy
    colours: tuple[int, ...] = ()  # take: the colours asked for (one for take two)
    card: int = 0  # reserve: id or -level; buy: id
    returns: tuple[int, ...] = ()

    def tokens(self) -> tuple[int, ...]:
        """The move as an agent prints it."""
        if self.action == TAKE_DIFFERENT:
            head = (TAKE_DIFFERENT, len(self.colours), *self.colours)
        elif self.action == TAKE_TWO:
            head = (TAKE_TWO, self.colours[0])
        else:
            head = (self.action, self.card)
        return head + self.returns

    def text(self) -> str:
        return " ".join(map(str, self.tokens()))


PASS = Move(TAKE_DIFFERENT)


@dataclass(frozen=True)
class Deal:
    """The whole chance of one game: each level's order (4 face-up, then the pile top first)."""

    decks: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    nobles: tuple[int, ...]


@dataclass
class PlayerState:
    chips: list[int] = field(default_factory=lambda: [0] * 6)
    cards: list[int] = field(default_factory=list)  # purchase order
    reserve: list[tuple[int, bool]] = field(default_factory=list)  # (id, secret) in order
    nobles: list[int] = field(default_factory=list)
    bonus: list[int] = field(default_factory=lambda: [0] * GEMS)

    @property
    def score(self) -> int:
        return sum(CARDS[c].points for c in self.cards) + NOBLE_POINTS * len(self.nobles)

    def copy(self) -> "PlayerState":
        return PlayerState(list(self.chips), list(self.cards), list(self.reserve), list(self.nobles),
                           list(self.bonus))

    def reserved_ids(self) -> list[int]:
        return [cid for cid, _ in self.reserve]

    def shortfall(self, card_id: int) -> int:
        """Gold needed to buy the card after bonuses and chips of its colours."""
        short = 0
        # a plain loop (a hot path); zip stops at the 5 gem colours, before gold
        for need, bonus, chips in zip(CARDS[card_id].cost, self.bonus, self.chips, strict=False):
            if need > bonus + chips:
                short += need - bonus - chips
        return short

    def can_afford(self, card_id: int) -> bool:
        return self.shortfall(card_id) <= self.chips[GOLD]


@dataclass(frozen=True)
class TurnEvent:
    """One turn as the record stores it (docs/rules/splendor.md#game-record), plus who and when."""

    seat: int
    round: int
    move: Move | None  # None: the turn was a pass for an invalid move
    tokens: tuple[int, ...]
    returns: tuple[int, ...]
    noble: int
    message: str


@dataclass
class GameState:
    config: SplendorConfig
    board: list[int]
    face_up: list[list[int]]  # [level][slot], 0 = empty slot
    piles: list[list[int]]  # [level], index 0 is the top
    nobles: list[int]  # still on the board, in draw order
    players: list[PlayerState]
    round: int = 1
    seat: int = 0
    over: bool = False

    @classmethod
    def new(cls, deal: Deal, config: SplendorConfig) -> "GameState":
        n = config.players
        return cls(
            config=config,
            board=[rules.GEM_CHIPS[n]] * GEMS + [rules.GOLD_CHIPS],
            face_up=[list(d[: rules.FACE_UP]) + [0] * (rules.FACE_UP - len(d[: rules.FACE_UP])) for d in deal.decks],
            piles=[list(d[rules.FACE_UP:]) for d in deal.decks],
            nobles=list(deal.nobles),
            players=[PlayerState() for _ in range(n)],
        )

    def copy(self) -> "GameState":
        return GameState(self.config, list(self.board), [list(r) for r in self.face_up],
                         [list(p) for p in self.piles], list(self.nobles),
                         [p.copy() for p in self.players], self.round, self.seat, self.over)

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def current(self) -> PlayerState:
        return self.players[self.seat]

    def face_up_slot(self, card_id: int) -> tuple[int, int] | None:
        for level, row in enumerate(self.face_up):
            if card_id in row:
                return level, row.index(card_id)
        return None

    def scores(self) -> list[int]:
        return [p.score for p in self.players]


# -- validation: the arbiter's checks, in its order ------------------------------------------


class _Reader:
    def __init__(self, tokens: Sequence[str]):
        self.tokens = list(tokens)
        self.pos = 0

    def next_int(self, lo: int, hi: int) -> int:
        if self.pos >= len(self.tokens):
            raise IllegalMove("Acțiunea este prea scurtă.")
        word = self.tokens[self.pos]
        self.pos += 1
        if not _INT_TOKEN.fullmatch(word) or not -_PHP_INT_MAX - 1 <= int(word) <= _PHP_INT_MAX:
            raise IllegalMove(f"Cuvîntul [{word}] nu este un întreg.")
        value = int(word)
        if value < lo or value > hi:
            raise IllegalMove(f"Valoarea {word} nu este cuprinsă între {lo} și {hi}.")
        return value

    def rest(self) -> list[str]:
        return self.tokens[self.pos:]


def _gains_take_different(state: GameState, reader: _Reader) -> tuple[list[int], Move]:
    gains = [0] * 6
    colours = []
    for _ in range(reader.next_int(0, 3)):
        colour = reader.next_int(0, GEMS - 1)
        if gains[colour]:
            raise IllegalMove(f"Ai cerut două jetoane de culoarea {colour}.")
        if not state.board[colour]:
            raise IllegalMove(f"Pe masă nu există jetoane de culoarea {colour}.")
        gains[colour] += 1
        colours.append(colour)
    return gains, Move(TAKE_DIFFERENT, tuple(colours))


def _gains_take_two(state: GameState, reader: _Reader) -> tuple[list[int], Move]:
    colour = reader.next_int(0, GEMS - 1)
    if state.board[colour] < TAKE_TWO_MIN:
        raise IllegalMove(f"Există doar {state.board[colour]} jetoane de culoarea {colour}.")
    gains = [0] * 6
    gains[colour] = 2
    return gains, Move(TAKE_TWO, (colour,))


def _gains_reserve(state: GameState, reader: _Reader) -> tuple[list[int], Move]:
    card = reader.next_int(-3, rules.NUM_CARDS)
    held = len(state.current.reserve)
    if held == MAX_RESERVED:
        raise IllegalMove(f"Ai deja {held} cărți rezervate.")
    if card == 0:
        raise IllegalMove("ID-ul 0 este ilegal.")
    if card < 0 and not state.piles[-card - 1]:
        raise IllegalMove(f"Pachetul de nivel {-card} este gol.")
    if card > 0 and state.face_up_slot(card) is None:
        raise IllegalMove(f"Cartea #{card} nu este pe masă.")
    gains = [0] * 6
    gains[GOLD] = 1 if state.board[GOLD] else 0
    return gains, Move(RESERVE, card=card)


def _gains_buy(state: GameState, reader: _Reader) -> tuple[list[int], Move]:
    card = reader.next_int(1, rules.NUM_CARDS)
    me = state.current
    if card not in me.reserved_ids() and state.face_up_slot(card) is None:
        raise IllegalMove(f"Cartea #{card} nu este nici pe masă nici rezervată.")
    if not me.can_afford(card):
        raise IllegalMove(f"Nu îți permiți cartea #{card}.")
    return [0] * 6, Move(BUY, card=card)


_ACTIONS = {TAKE_DIFFERENT: _gains_take_different, TAKE_TWO: _gains_take_two,
            RESERVE: _gains_reserve, BUY: _gains_buy}


def validate(state: GameState, tokens: Sequence[str]) -> Move:
    """The move the tokens ask for, or IllegalMove with the arbiter's reason."""
    reader = _Reader(tokens)
    gains, move = _ACTIONS[reader.next_int(1, 4)](state, reader)
    chips = [have + got for have, got in zip(state.current.chips, gains, strict=True)]
    returns = []
    while sum(chips) > HAND_LIMIT:
        colour = reader.next_int(0, GEMS - 1)
        if not chips[colour]:
            raise IllegalMove(f"Nu poți returna un jeton de culoarea {colour}.")
        chips[colour] -= 1
        returns.append(colour)
    extra = reader.rest()
    if extra:
        raise IllegalMove(f"Cuvîntul {extra[0]} este în plus.")
    return Move(move.action, move.colours, move.card, tuple(returns))


def validate_move(state: GameState, move: Move) -> Move:
    return validate(state, [str(t) for t in move.tokens()])


# -- applying ---------------------------------------------------------------------------------


def _remove_face_up(state: GameState, card_id: int) -> None:
    level, slot = state.face_up_slot(card_id)
    pile = state.piles[level]
    state.face_up[level][slot] = pile.pop(0) if pile else 0


def _gain_gold(state: GameState) -> None:
    if state.board[GOLD]:
        state.board[GOLD] -= 1
        state.current.chips[GOLD] += 1


def _do_action(state: GameState, move: Move) -> tuple[int, ...]:
    """Applies the action part and returns the record's tokens for it."""
    me = state.current
    if move.action in (TAKE_DIFFERENT, TAKE_TWO):
        qty = 1 if move.action == TAKE_DIFFERENT else 2
        counts = [0] * GEMS
        for c in move.colours:
            me.chips[c] += qty
            state.board[c] -= qty
            counts[c] += qty
        return (move.action, *counts)
    if move.action == RESERVE:
        if move.card < 0:
            me.reserve.append((state.piles[-move.card - 1].pop(0), True))
        else:
            _remove_face_up(state, move.card)
            me.reserve.append((move.card, False))
        _gain_gold(state)
        return (RESERVE, move.card)
    paid = [0] * 6
    cost = CARDS[move.card].cost
    for c in range(GEMS):
        need = max(0, cost[c] - me.bonus[c])
        paid[c] = min(need, me.chips[c])
        paid[GOLD] += need - paid[c]
    for c in range(6):
        me.chips[c] -= paid[c]
        state.board[c] += paid[c]
    if move.card in me.reserved_ids():
        me.reserve.pop(me.reserved_ids().index(move.card))
    else:
        _remove_face_up(state, move.card)
    me.cards.append(move.card)
    me.bonus[CARDS[move.card].bonus] += 1
    return (BUY, move.card, *paid)


def visiting_noble(state: GameState) -> int:
    """The first noble on the board, in draw order, that the mover's bonuses satisfy (0: none)."""
    bonus = state.current.bonus
    for noble in state.nobles:
        if all(need <= have for need, have in zip(NOBLES[noble].requires, bonus, strict=True)):
            return noble
    return 0


def _advance(state: GameState) -> None:
    state.seat = (state.seat + 1) % state.n
    if state.seat == 0:
        state.round += 1
        if any(p.score >= state.config.win_points for p in state.players) or state.round > state.config.max_rounds:
            state.over = True


def apply(state: GameState, move: Move, *, name: str = "") -> TurnEvent:
    """Plays a move already validated (see ``validate``); mutates the state."""
    seat, rnd = state.seat, state.round
    tokens = _do_action(state, move)
    me = state.current
    message = ""
    for colour in move.returns:
        me.chips[colour] -= 1
        state.board[colour] += 1
    if move.returns:
        message = f"{name} a returnat jetoane de culorile {', '.join(map(str, move.returns))}."
    noble = visiting_noble(state)
    if noble:
        state.nobles.remove(noble)
        me.nobles.append(noble)
        message = f"{name} primește nobilul #{noble}."
    _advance(state)
    return TurnEvent(seat, rnd, move, tokens, move.returns, noble, message)


def apply_pass(state: GameState, reason: str, *, name: str = "") -> TurnEvent:
    """An invalid move: nothing changes, no noble check, the turn still counts."""
    seat, rnd = state.seat, state.round
    _advance(state)
    return TurnEvent(seat, rnd, None, (TAKE_DIFFERENT, 0, 0, 0, 0, 0), (), 0, f"Sar peste {name}: {reason}")


def play_tokens(state: GameState, tokens: Sequence[str], *, name: str = "") -> TurnEvent:
    """Validate then apply, or pass with the arbiter's message: one whole turn."""
    try:
        move = validate(state, tokens)
    except IllegalMove as bad:
        return apply_pass(state, bad.reason, name=name)
    return apply(state, move, name=name)


# -- results ----------------------------------------------------------------------------------


def winners(state: GameState) -> list[int]:
    """Seats that win: best score, then fewest purchased cards; none if nobody reached the target."""
    keys = [(-p.score, len(p.cards)) for p in state.players]
    best = min(keys)
    if -best[0] < state.config.win_points:
        return []
    return [seat for seat, key in enumerate(keys) if key == best]


# -- canonical action codes -------------------------------------------------------------------


def legal_codes(state: GameState) -> list[int]:
    """Codes whose action part is legal now, ascending (returns are chosen separately)."""
    me, board = state.current, state.board
    codes = [i for i, s in enumerate(TAKE_SETS) if all(board[c] for c in s)]
    codes += [CODE_TAKE_TWO + c for c in range(GEMS) if board[c] >= TAKE_TWO_MIN]
    if len(me.reserve) < MAX_RESERVED:
        codes += [CODE_RESERVE_UP + i for i in range(12) if state.face_up[i // 4][i % 4]]
        codes += [CODE_RESERVE_BLIND + lv for lv in range(3) if state.piles[lv]]
    codes += [CODE_BUY_UP + i for i in range(12)
              if state.face_up[i // 4][i % 4] and me.can_afford(state.face_up[i // 4][i % 4])]
    codes += [CODE_BUY_RESERVED + i for i, (cid, _) in enumerate(me.reserve) if me.can_afford(cid)]
    return codes


def move_for_code(state: GameState, code: int, returns: tuple[int, ...] = ()) -> Move:
    if code < CODE_TAKE_TWO:
        return Move(TAKE_DIFFERENT, TAKE_SETS[code], returns=returns)
    if code < CODE_RESERVE_UP:
        return Move(TAKE_TWO, (code - CODE_TAKE_TWO,), returns=returns)
    if code < CODE_RESERVE_BLIND:
        i = code - CODE_RESERVE_UP
        return Move(RESERVE, card=state.face_up[i // 4][i % 4], returns=returns)
    if code < CODE_BUY_UP:
        return Move(RESERVE, card=-(code - CODE_RESERVE_BLIND + 1), returns=returns)
    if code < CODE_BUY_RESERVED:
        i = code - CODE_BUY_UP
        return Move(BUY, card=state.face_up[i // 4][i % 4], returns=returns)
    return Move(BUY, card=state.current.reserve[code - CODE_BUY_RESERVED][0], returns=returns)


def chips_after(state: GameState, move: Move) -> list[int]:
    """The mover's chips after the action's gains, before any returns."""
    chips = list(state.current.chips)
    if move.action == TAKE_DIFFERENT:
        for c in move.colours:
            chips[c] += 1
    elif move.action == TAKE_TWO:
        chips[move.colours[0]] += 2
    elif move.action == RESERVE and state.board[GOLD]:
        chips[GOLD] += 1
    return chips


# -- dealing and what a seat sees -------------------------------------------------------------


def deal_from_key(key: int, players: int) -> Deal:
    """A game's deal from its unit key: each level shuffled in full, then the nobles drawn.

    The kernels deal with the same stream calls in the same order, so both engines agree.
    """
    rng = stream(key)
    decks = []
    for lo, hi in rules.LEVEL_RANGES:
        ids = np.arange(lo, hi + 1, dtype=np.int64)
        _rng.shuffle_prefix(rng, ids, len(ids), len(ids))
        decks.append(tuple(int(c) for c in ids))
    nobles = np.arange(1, rules.NUM_NOBLES + 1, dtype=np.int64)
    count = rules.NOBLES_IN_PLAY[players]
    _rng.shuffle_prefix(rng, nobles, len(nobles), count)
    return Deal(tuple(decks), tuple(int(x) for x in nobles[:count]))


def observe(state: GameState, seat: int) -> Observation:
    """What the seat's stdin shows: others' blind reservations appear as -level."""
    views = []
    for other, p in enumerate(state.players):
        reserved = tuple(-CARDS[cid].level if secret and other != seat else cid for cid, secret in p.reserve)
        views.append(PlayerView(tuple(p.chips), tuple(p.cards), reserved, tuple(p.nobles)))
    return Observation(
        players=state.n, me=seat, round=state.round, board=tuple(state.board),
        piles=tuple(len(p) for p in state.piles), face_up=tuple(tuple(r) for r in state.face_up),
        nobles=tuple(state.nobles), seats=tuple(views),
    )


def random_move(state: GameState, rng: np.ndarray) -> Move:
    """Uniform over legal codes, then each needed return uniform over held gem colours.

    The kernels' random playout makes the same draws in the same order (tested)."""
    codes = legal_codes(state)
    move = move_for_code(state, codes[_rng.below(rng, len(codes))])
    chips = chips_after(state, move)
    returns = []
    while sum(chips) > HAND_LIMIT:
        held = [c for c in range(GEMS) if chips[c]]
        colour = held[_rng.below(rng, len(held))]
        chips[colour] -= 1
        returns.append(colour)
    return Move(move.action, move.colours, move.card, tuple(returns))
