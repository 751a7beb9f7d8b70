"""Baseline bots: uniform random legal moves, and a one-ply greedy with a linear evaluation."""

import hashlib
from dataclasses import dataclass
from operator import itemgetter

import numpy as np

from bots.base import Ranged, ranged, seed_field
from bots.splendor.view import determinise
from engine.core.seeds import stream
from engine.splendor import state as st
from engine.splendor.protocol import Observation, render_input
from engine.splendor.rules import CARDS, GEMS, GOLD, HAND_LIMIT, NOBLES


def text_key(obs: Observation, seed: int) -> int:
    """A per-position key for agents run one process per move (no state between moves)."""
    digest = hashlib.blake2b(render_input(obs).encode() + seed.to_bytes(8, "little"), digest_size=8)
    return int.from_bytes(digest.digest(), "little")


class SeededBot:
    """Draws from a per-game stream when the judge gives one, else from the position itself."""

    seed = 0

    def __init__(self):
        self._rng: np.ndarray | None = None
        self.kibitz: list[str] = []

    def new_game(self, key: int) -> None:
        self._rng = stream(key ^ self.seed)

    def rng_for(self, obs: Observation) -> np.ndarray:
        return self._rng if self._rng is not None else stream(text_key(obs, self.seed))


MAX_WEIGHT = 1000.0


@dataclass(frozen=True)
class RandomConfig(Ranged):
    seed: int = seed_field(0)


class RandomBot(SeededBot):
    def __init__(self, config: RandomConfig):
        super().__init__()
        self.seed = config.seed

    def act(self, obs: Observation) -> str:
        return st.random_move(determinise(obs), self.rng_for(obs)).text()


@dataclass(frozen=True)
class GreedyConfig(Ranged):
    # Weights of a linear evaluation: any sign may make sense, the bound only keeps them finite.
    points: float = ranged(20.0, -MAX_WEIGHT, MAX_WEIGHT)  # per point scored (cards and nobles)
    bonus: float = ranged(4.0, -MAX_WEIGHT, MAX_WEIGHT)  # per purchased card (a permanent discount)
    chip: float = ranged(1.0, -MAX_WEIGHT, MAX_WEIGHT)  # per gem chip held
    gold: float = ranged(1.5, -MAX_WEIGHT, MAX_WEIGHT)  # per gold chip held
    reserved: float = ranged(1.0, -MAX_WEIGHT, MAX_WEIGHT)  # penalty per reserved card
    # times the best (points + 1) / (1 + missing chips) over reachable cards
    target: float = ranged(12.0, -MAX_WEIGHT, MAX_WEIGHT)
    noble: float = ranged(1.5, -MAX_WEIGHT, MAX_WEIGHT)  # per bonus card counting towards a noble still on the board


def missing_for(p: st.PlayerState, card_id: int) -> int:
    """Chips still missing to buy the card, after bonuses, chips and gold."""
    return max(0, p.shortfall(card_id) - p.chips[GOLD])


def target_value(game: st.GameState, p: st.PlayerState) -> float:
    """The best (points + 1) / (1 + missing_for) over the face-up cards and p's reserved ones (0 if none)."""
    return best_target(by_worth((*game.face_up, p.reserved_ids())), p.bonus, p.chips)


# Per card id: (points + 1, its cost as (colour, chips) pairs without the colours it does not ask for).
_WORTH_COST = (None, *((c.points + 1, tuple((k, v) for k, v in enumerate(c.cost) if v)) for c in CARDS[1:]))


def by_worth(rows) -> list[tuple[int, tuple[tuple[int, int], ...]]]:
    """The cards in `rows` (0 = an empty slot) as best_target takes them: (points + 1, cost), most points first."""
    return sorted([_WORTH_COST[c] for row in rows for c in row if c], key=itemgetter(0), reverse=True)


def best_target(cards, bonus: list[int], chips: list[int]) -> float:
    """target_value over `cards` (from by_worth) for a player with these bonus and chips.

    It runs for every position each legal move reaches: plain loops, bonus + chips summed once, the cards
    taken by points (a card's value is at most points + 1, so once that cannot beat the best the rest cannot
    either; the best is the same maximum in any order)."""
    have = [b + c for b, c in zip(bonus, chips, strict=False)]  # the 5 gem colours: zip stops at bonus
    gold = chips[GOLD]
    best = 0.0  # every card's value is above 0, so 0.0 only stands when there is no card
    for worth, cost in cards:
        if worth <= best:
            break
        short = -gold
        for colour, need in cost:  # colours a card does not ask for never add (chips and bonus are >= 0)
            if need > have[colour]:
                short += need - have[colour]
        value = worth / (1 + short if short > 0 else 1)
        if value > best:
            best = value
    return best


def noble_count(game: st.GameState, p: st.PlayerState) -> int:
    """Bonus cards of p counting toward the nobles still on the board."""
    count = 0
    for n in game.nobles:
        for need, have in zip(NOBLES[n].requires, p.bonus, strict=True):
            count += need if need < have else have
    return count


def evaluate(game: st.GameState, seat: int, cfg: GreedyConfig) -> float:
    p = game.players[seat]
    return _value(cfg, p.score, len(p.cards), p.chips, len(p.reserve), target_value(game, p), noble_count(game, p))


def _value(cfg: GreedyConfig, score: int, bought: int, chips: list[int], reserved: int, target: float,
           nobles: int) -> float:
    return (cfg.points * score + cfg.bonus * bought + cfg.chip * sum(chips[:GEMS]) + cfg.gold * chips[GOLD]
            - cfg.reserved * reserved + cfg.target * target + cfg.noble * nobles)


def greedy_returns(game: st.GameState, move: st.Move) -> st.Move:
    """Give back the colours held most (lowest index on ties) until at ten chips."""
    chips = st.chips_after(game, move)
    returns = []
    for _ in range(sum(chips) - HAND_LIMIT):
        colour = chips.index(max(chips[:GEMS]))  # index() finds the lowest colour of the most held
        chips[colour] -= 1
        returns.append(colour)
    return st.Move(move.action, move.colours, move.card, tuple(returns))


def greedy_move(game: st.GameState, cfg: GreedyConfig) -> st.Move:
    seat, best, best_value = game.seat, st.PASS, -1e18
    me = game.current
    # A take changes only the mover's chips: unless a noble is already due (its visit would change the
    # score and nobles), its value is written down from the chips rather than played on a copy.
    written = not st.visiting_noble(game)
    cards = by_worth((*game.face_up, me.reserved_ids()))
    score, bought, reserved, nobles = me.score, len(me.cards), len(me.reserve), noble_count(game, me)
    for code in st.legal_codes(game):
        if st.CODE_RESERVE_BLIND <= code < st.CODE_BUY_UP:
            continue  # the hidden card is unknown: nothing to evaluate
        move = greedy_returns(game, st.move_for_code(game, code))
        if written and code < st.CODE_RESERVE_UP:
            chips = st.chips_after(game, move)
            for c in move.returns:
                chips[c] -= 1
            value = _value(cfg, score, bought, chips, reserved, best_target(cards, me.bonus, chips), nobles)
        else:
            after = game.copy()
            st.apply(after, move)
            value = evaluate(after, seat, cfg)
        if value > best_value + 1e-9:
            best, best_value = move, value
    return best


class GreedyBot:
    def __init__(self, config: GreedyConfig):
        self.config = config
        self.kibitz: list[str] = []

    def act(self, obs: Observation) -> str:
        return greedy_move(determinise(obs), self.config).text()
