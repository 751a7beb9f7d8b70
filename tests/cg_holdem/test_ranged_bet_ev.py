"""bet_ev (issue 32, off by default): heads-up postflop, checked to, check or bet the pot fraction with the most chips
in expectation, a call met with my equity against the part of the range that continues (one Monte Carlo pass)."""

import subprocess
import sys

from bots.cg_holdem import BOTS
from bots.cg_holdem.export import write_submission
from bots.cg_holdem.hands import COMBOS
from bots.cg_holdem.ranged import RangedConfig
from bots.cg_holdem.reads import FOLD, PASSIVE
from bots.cg_holdem.strategies import View
from engine.cg_holdem.protocol import Setup, Turn

SPEC = BOTS["ranged"]
SETUP = Setup(5, 10, 10, 2, 2400, 1, 2, 0)
BOARDS = ((0, 14, 30), (2, 19, 36, 50), (4, 17, 25, 39, 44))  # flop, turn, river (engine ints: suit x 13 + rank)


def checked_to(board, hole, *, folds: bool | None = None, shown: bool = False, **config):
    """(the bot, my view): heads-up, 100 chips each in the pot, checked to me on ``board``, the opponent's range all
    hands; ``folds``: it was seen 1,000 times facing a bet, folding every time (True) or never (False); ``shown``:
    its shown hands facing bets folded the bottom fifth and called the rest (Reads)."""
    b = SPEC.make(RangedConfig(**config))
    b.start(SETUP)
    b.new_game(11)
    if folds is not None:
        for _ in range(1000):
            b.seen[1].count("fold_bet", folds)
    if shown:
        for q in range(20):
            b.reads[1].add("facing", FOLD if q < 4 else PASSIVE, q / 20)
    b.ranges[1] = [1.0] * len(COMBOS)
    turn = Turn(3, 1, (2300, 2300), (100, 100), tuple(board), hole, (), (), ("CHECK", "BET_10", "ALL-IN", "FOLD"))
    return b, View(SETUP, turn, set())


def holes(board):
    dead = set(board)
    return [h for h in COMBOS[::29] if not dead & set(h)]


def test_off_by_default():
    assert RangedConfig().bet_ev == 0.0


def test_a_range_that_never_folds_is_bet_only_with_more_than_half_its_equity():
    bets = 0
    for board in BOARDS:
        for k, hole in enumerate(holes(board)[:10]):
            v = (1.0, 0.8)[k % 2]  # realized before the river: a bet needs eq > 0.5 / v there
            b, view = checked_to(board, hole, folds=False, bet_ev=v)
            answer = b.decide(view)
            twin, same = checked_to(board, hole, folds=False, bet_ev=v)
            eq = twin.range_equity(same)  # the same deals: nothing folds, so the continuing range is all of it
            if answer != "CHECK":
                bets += 1
                assert eq > 0.5 / (v if len(board) < 5 else 1.0) - 0.01, (board, hole, v, eq, answer)
            elif len(board) == 5:
                assert eq < 0.5 + 0.01, (board, hole, eq)  # the river: ahead of a caller, it bets
    assert bets > 5


def test_a_range_that_always_folds_is_bet_into():
    for board in BOARDS:
        for hole in holes(board)[:8]:
            b, view = checked_to(board, hole, folds=True, bet_ev=1.0)
            assert b.decide(view).startswith(("BET", "ALL-IN"))


def test_it_checks_a_hand_ahead_of_the_range_but_behind_its_continuing_part():
    """Against a range that folds its bottom 45%, some hands the default bets for value (whole-range equity over
    value_equity) are checked: against what continues they are behind."""
    board = BOARDS[2]
    checked = 0
    for hole in holes(board):
        b, view = checked_to(board, hole, bet_ev=1.0)
        d, dview = checked_to(board, hole)
        eq = checked_to(board, hole)[0].range_equity(dview)
        if eq >= 0.6 and d.decide(dview).startswith("BET") and b.decide(view) == "CHECK":
            checked += 1
    assert checked > 0


# the default's answers at these views (board, folds, shown): "-" a check, a number a bet of that many chips, from
# ranged.py as committed before bet_ev (c8a4977)
BEFORE = {
    (0, None, False): "111 100 100 100 111 100 100 100 100 100",
    (1, None, False): "100 100 121 100 181 100 100 100 121 121",
    (2, None, False): "100 100 100 100 100 100 100 100 100 100",
    (0, False, False): "111 - - - 111 - - - - -",
    (1, False, False): "- - 121 - 181 - - - 121 121",
    (2, False, False): "- - - - - - - - - -",
    (0, None, True): "111 - - - 111 - - 100 - -",
    (1, None, True): "- - 121 - 181 - - - 121 121",
    (2, None, True): "100 - - 100 - - 100 - - -",
}


def test_off_leaves_the_defaults_answers_as_they_were():
    for (i, folds, shown), before in BEFORE.items():
        board = BOARDS[i]
        views = (checked_to(board, h, folds=folds, shown=shown) for h in holes(board)[:10])
        got = " ".join(a.removeprefix("BET ") if a != "CHECK" else "-" for a in (b.decide(v) for b, v in views))
        assert got == before, (i, folds, shown, got)


def test_the_export_inlines_it_and_answers_as_in_process(tmp_path):
    config = SPEC.config_from(["bet_ev=1", "safety_ms=1000"])
    path = write_submission(tmp_path / "ranged.py", SPEC, config)
    river = (4, 17, 38, 40, 44)
    turn = Turn(3, 1, (2300, 2300), (100, 100), river, (12, 25), ((2, 1, 1, "CHECK", river),), (),
                ("CHECK", "BET_10", "ALL-IN", "FOLD"))
    lines = "\n".join([*SETUP.lines(), *turn.lines()]) + "\n"
    answer = subprocess.run([sys.executable, str(path)], input=lines, capture_output=True, text=True, timeout=30)
    answers = []
    for c in (config, SPEC.default_config()):
        b = SPEC.make(c)
        b.start(SETUP)
        answers.append(b.act(turn))
    assert answer.stdout.strip() == answers[0] != answers[1]  # the option reached the program and changed its bet
