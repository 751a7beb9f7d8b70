"""The player's safe strategy: an approximate equilibrium of the two-player game, by CFR+.

The server is held to the generator's constraints (rules.allowed_actions: 4-4 never folds, draws
are sensible, ...), since every server a test can meet keeps them; the player may do anything
legal. Behavioural strategies are (rows, 3) probability tables in the rules.py layouts (server
4155 rows, player 3945 rows). Exploitability is measured with exact best responses both ways.
"""

from dataclasses import dataclass

import numpy as np

from engine.twocarddraw import _cfr_kernels as K
from engine.twocarddraw import rules as R


def player_mask() -> np.ndarray:
    """(N_PLAYER_ROWS, 3) 0/1: no fold when nothing is owed, no raise at the cap; any draw."""
    mask = np.ones((R.N_PLAYER_ROWS, 3), dtype=np.int64)
    for hand in range(R.N_HANDS):
        mask[R.player_round1_row(0, hand), R.FOLD] = 0
        mask[R.player_round1_row(R.MAX_BETS, hand), R.RAISE] = 0
        for o in range(R.N_HISTORIES):
            for dp in range(3):
                for ds in range(3):
                    mask[R.player_round2_row(o, dp, ds, 0, hand), R.FOLD] = 0
                    mask[R.player_round2_row(o, dp, ds, R.MAX_BETS, hand), R.RAISE] = 0
    return mask


PLAYER_MASK = player_mask()
SERVER_MASK = R.allowed_actions()


@dataclass(frozen=True, eq=False)
class Equilibrium:
    bets: R.BetSizes
    player: np.ndarray  # (N_PLAYER_ROWS, 3) the player's average strategy
    server: np.ndarray  # (N_ROWS, 3) the server's average strategy
    iterations: int
    player_br: float  # the player's best-response value against `server` (>= the game value)
    server_br: float  # the player's value when the server best-responds to `player` (<= the game value)

    @property
    def exploitability(self) -> float:
        """Upper minus lower bound on the game value; 0 at an exact equilibrium."""
        return self.player_br - self.server_br

    @property
    def value(self) -> float:
        """The game value's midpoint estimate (within exploitability / 2)."""
        return 0.5 * (self.player_br + self.server_br)


class Solver:
    """CFR+ state for one bet pair; run() continues where the last call stopped."""

    def __init__(self, bets: R.BetSizes):
        self.bets = bets
        self.iterations = 0
        self.reg_p = np.zeros((R.N_PLAYER_ROWS, 3))
        self.reg_s = np.zeros((R.N_ROWS, 3))
        self.avg_p = np.zeros((R.N_PLAYER_ROWS, 3))
        self.avg_s = np.zeros((R.N_ROWS, 3))
        self.sp = np.zeros((R.N_PLAYER_ROWS, 3))
        self.ss = np.zeros((R.N_ROWS, 3))

    def run(self, iterations: int) -> "Solver":
        K.cfr_plus(R.DEAL_PROB, R.DRAW_TRANSITION, self.bets.bet1, self.bets.bet2, PLAYER_MASK, SERVER_MASK,
                   iterations, self.iterations, self.reg_p, self.reg_s, self.avg_p, self.avg_s, self.sp, self.ss)
        self.iterations += iterations
        return self

    def average(self) -> tuple[np.ndarray, np.ndarray]:
        return normalised(self.avg_p, PLAYER_MASK), normalised(self.avg_s, SERVER_MASK)

    def result(self) -> Equilibrium:
        player, server = self.average()
        return Equilibrium(self.bets, player, server, self.iterations, player_best_response(self.bets, server),
                           server_best_response(self.bets, player))


class BiasedSolver(Solver):
    """CFR+ on a data-biased game (Johanson & Bowling 2009, data-biased robust counter-strategies): at each
    server row the server plays a model's probabilities with weight w[row] and is free (adversarial, held to
    the generator's constraints) otherwise. The player's average strategy is the data-biased response: a best
    response to the model where w is 1, the safe strategy where w is 0. run_biased() keeps the regrets of
    earlier calls (a warm start when the model moves) and restarts the average."""

    def __init__(self, bets: R.BetSizes):
        super().__init__(bets)
        self.ss_play = np.zeros((R.N_ROWS, 3))  # the server as played: the model mixed into the free part

    def run_biased(self, model: np.ndarray, w: np.ndarray, iterations: int) -> "BiasedSolver":
        self.avg_p[:] = 0.0
        self.avg_s[:] = 0.0
        K.dbr_plus(R.DEAL_PROB, R.DRAW_TRANSITION, self.bets.bet1, self.bets.bet2, PLAYER_MASK, SERVER_MASK,
                   np.ascontiguousarray(model, dtype=float), np.ascontiguousarray(w, dtype=float), iterations, 0,
                   self.reg_p, self.reg_s, self.avg_p, self.avg_s, self.sp, self.ss, self.ss_play)
        self.iterations += iterations
        return self

    def response(self) -> np.ndarray:
        """The player's average strategy over the last run_biased call."""
        return normalised(self.avg_p, PLAYER_MASK)


def normalised(weights: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Rows of accumulated weights as distributions; rows never reached are uniform over the allowed."""
    total = weights.sum(axis=1, keepdims=True)
    uniform = mask / mask.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.ascontiguousarray(np.where(total > 0, weights / np.where(total > 0, total, 1.0), uniform))


def solve(bets: R.BetSizes, *, iterations: int = 1000) -> Equilibrium:
    return Solver(bets).run(iterations).result()


def _traverse(bets, player, server, mode):
    dummy_p = np.zeros((R.N_PLAYER_ROWS, 3))
    dummy_s = np.zeros((R.N_ROWS, 3))
    return K.traverse(R.DEAL_PROB, R.DRAW_TRANSITION, bets.bet1, bets.bet2, np.ascontiguousarray(player, dtype=float),
                      np.ascontiguousarray(server, dtype=float), PLAYER_MASK, SERVER_MASK, mode, 0, 0.0, dummy_p,
                      dummy_s, dummy_p, dummy_s)


def value(bets: R.BetSizes, player: np.ndarray, server: np.ndarray) -> float:
    """The player's expected profit per hand, both playing the given behavioural strategies."""
    return float(_traverse(bets, player, server, 0)[0])


def player_best_response(bets: R.BetSizes, server: np.ndarray) -> float:
    """The player's best-response value against a server strategy."""
    uniform = PLAYER_MASK / PLAYER_MASK.sum(axis=1, keepdims=True)
    return float(_traverse(bets, uniform, server, 1)[0])


def server_best_response(bets: R.BetSizes, player: np.ndarray) -> float:
    """The player's value when a constrained server best-responds to the player's strategy."""
    uniform = SERVER_MASK / SERVER_MASK.sum(axis=1, keepdims=True)
    return -float(_traverse(bets, player, uniform, 2)[1])


def one_hot(policy: np.ndarray) -> np.ndarray:
    """A pure player policy (action codes) as a behavioural table."""
    table = np.zeros((len(policy), 3))
    table[np.arange(len(policy)), np.asarray(policy, dtype=np.int64)] = 1.0
    return table
