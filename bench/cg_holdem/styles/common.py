"""What the style programs share: the contest's input loop and a few plain readings of a turn.

The programs are small standard-library players in the styles the arena's top players describe
(issue 32), used as league opponents. They borrow the project's own stdlib modules (protocol reader,
evaluator, preflop equities) by path, so they neither copy them nor pay for numba at start-up.
"""

import importlib.util
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from engine.cg_holdem.protocol import read_setup, read_turn  # noqa: E402 - after the path is set
from engine.cg_holdem.rules import big_blind  # noqa: E402


def _load(rel: str):
    """A module of bots/cg_holdem by path: its package __init__ would load numba."""
    spec = importlib.util.spec_from_file_location(Path(rel).stem, ROOT / rel)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pure_eval = _load("bots/cg_holdem/pure_eval.py")
chart = _load("bots/cg_holdem/pushfold_chart.py")


class Table:
    """One decision's plain facts."""

    def __init__(self, setup, turn, folded):
        self.setup, self.turn = setup, turn
        me = setup.me
        self.bb = big_blind(turn.hand)
        self.stack, self.mine = turn.stacks[me], turn.chips[me]
        self.pot = sum(turn.chips)
        top = max(turn.chips)
        self.call = (max(top, self.bb) if not turn.board else top) - self.mine
        self.raised = top > self.bb
        self.opponents = [s for s in range(setup.players) if s != me and s not in folded
                          and turn.stacks[s] + turn.chips[s] > 0]
        self.min_bet = next((int(p[4:]) for p in turn.possible if p.startswith("BET_")), 0)
        c0, c1 = turn.cards
        hi, lo = max(c0 % 13, c1 % 13), min(c0 % 13, c1 % 13)
        self.hand_class = hi * 13 + lo if (c0 // 13 == c1 // 13 or hi == lo) else lo * 13 + hi
        self.strength = chart.EQUITY_VS_RANDOM[self.hand_class]  # preflop equity vs one random hand

    def bet(self, chips) -> str:
        if not self.min_bet:
            return "CALL" if self.call else "CHECK"
        chips = max(int(chips), self.min_bet)
        return "ALL-IN" if chips >= 0.7 * self.stack else f"BET {chips}"

    def pot_bet(self, fraction) -> str:
        return self.bet(self.call + fraction * (self.pot + self.call))

    def passive(self) -> str:
        return "CHECK" if self.call == 0 else "FOLD"

    def pot_odds(self) -> float:
        return self.call / (self.pot + self.call) if self.call else 0.0

    def made(self) -> int:
        """The made hand's category counting only hands my cards improve (0 nothing, 1 pair, 2 two
        pair, 3 trips, ...): a pair on the board alone is nothing."""
        board = list(self.turn.board)
        mine = pure_eval.value7(list(self.turn.cards) + board) // pure_eval._CATEGORY
        alone = pure_eval.value7(board) // pure_eval._CATEGORY
        return mine if mine > alone else 0


class Program:
    """One style program's player: the setup, then an answer per turn from ``decide(table, memory,
    rng)``; folds are tracked over the hand. In process (bench/cg_holdem/ranged_paired.py) or under
    ``run``, the same code."""

    def __init__(self, decide, seed: int = 1):
        self.decide, self.seed = decide, seed

    def start(self, setup) -> None:
        self.setup, self.rng = setup, random.Random(self.seed)
        self.memory = {"hand": 0, "folded": set()}

    def act(self, turn) -> str:
        memory = self.memory
        for _, hand, seat, action, _ in turn.actions:
            if hand != memory["hand"]:
                memory.update(hand=hand, folded=set(), raised_pre=False)
            if action in ("FOLD", "TIMEOUT"):
                memory["folded"].add(seat)
        if turn.hand != memory["hand"]:
            memory.update(hand=turn.hand, folded=set(), raised_pre=False)
        return self.decide(Table(self.setup, turn, memory["folded"]), memory, self.rng)


def run(decide, seed: int = 1) -> None:
    """The contest loop: setup once, then a turn per decision; ``decide(table, memory, rng)``."""
    def read():
        line = sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")

    player = Program(decide, seed)
    player.start(read_setup(read))
    while True:
        try:
            turn = read_turn(read, player.setup.players)
        except EOFError:
            return
        print(player.act(turn), flush=True)
