"""CodinGame Hold'em's all-in luck (engine/cg_holdem/luck.py, flows/games/cg_holdem_luck.py): the board counts
are exact, the correction averages to exactly zero over every board that could be dealt, the value of the
stacks is what the elimination rule and the chip model say, and on logged games the hook settles every all-in
hand to the logged stacks and narrows the finish scores' spread."""

import itertools
import math

import numpy as np
import pytest

from engine.cg_holdem.luck import board_outcomes, finish_value, hand_luck
from engine.cg_holdem.rules import parse_card_text
from engine.core.hand_eval import evaluate_many
from engine.core.stats import luck_check


def _c(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split())


HOLE = [_c("AS KD"), _c("QH QC"), _c("7S 8S")]
FLOP = _c("2S 9S QD")


def test_board_counts_are_the_brute_force_counts_on_the_turn():
    board = FLOP + _c("3C")
    dead = {c for h in HOLE for c in h} | set(board)
    got = board_outcomes(np.array(HOLE), board, dead)
    want: dict = {}
    for river in (c for c in range(52) if c not in dead):
        values = evaluate_many(np.array([list(h) + list(board) + [river] for h in HOLE]))
        places = tuple(int((values > v).sum()) for v in values)
        want[places] = want.get(places, 0) + 1
    assert got == want and sum(got.values()) == 52 - len(dead)


def test_every_flop_completion_is_counted_once():
    dead = {c for h in HOLE for c in h} | set(FLOP)
    got = board_outcomes(np.array(HOLE), FLOP, dead)
    assert sum(got.values()) == math.comb(52 - len(dead), 2)


@pytest.mark.parametrize("folded", [(False, False, False, True), (False, False, True, False)])
def test_the_correction_averages_to_exactly_zero_over_every_board(folded):
    """Three all-in seats of unequal stacks (side pots) and a fourth seat; the luck of each possible turn and
    river, weighted as the deck deals them (uniformly), sums to zero."""
    start, put_in = (300, 800, 1500, 400), (300, 800, 1200, 50)
    hole = [*HOLE, _c("2H 2D")]
    dead = {c for h in hole for c in h} | set(FLOP)
    lucks = []
    for turn, river in itertools.combinations([c for c in range(52) if c not in dead], 2):
        got, after = hand_luck(start=start, put_in=put_in, folded=folded, hole=hole, board=FLOP + (turn, river),
                               shown=3, dealer=0, seat=1, players=4)
        assert sum(after) == sum(start)
        lucks.append(got)
    lucks = np.array(lucks)
    assert lucks.std() > 0.05  # the boards do move the finish score
    assert abs(lucks.mean()) < 1e-12


def test_the_value_of_stacks_follows_the_elimination_rule_and_the_chip_model():
    # busted: behind both survivors and the other bust of the hand that put in more
    assert finish_value((0, 500, 700, 0), (300, 10, 10, 400), 0, 4) == 0.0
    assert finish_value((0, 500, 700, 0), (400, 10, 10, 300), 0, 4) == pytest.approx(1 / 3)
    assert finish_value((0, 1000), (0, 0), 1, 2) == 1.0
    assert finish_value((250, 750), (0, 0), 0, 2) == pytest.approx(0.25)  # heads-up: the chip share
    values = [finish_value((100, 200, 300, 400), (0,) * 4, s, 4) for s in range(4)]
    assert sum(values) == pytest.approx(2.0)  # the finish scores 1, 2/3, 1/3, 0 are all handed out
    assert values == sorted(values)


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    from flows.match import MatchPlan, run_match
    from flows.store import HandLog

    db = str(tmp_path_factory.mktemp("cg-luck") / "h.duckdb")
    with HandLog(db) as store:
        run_match(MatchPlan(game="cg-holdem", bot="aggressive", seed=3, units=96, chunk_size=48), store,
                  match_id="cg-luck", source="test")
        yield store


@pytest.mark.slow  # 96 whole games played, then every all-in board enumerated (about 40 s on the shared VM)
def test_logged_games_settle_to_the_logged_stacks_and_the_spread_narrows(logged):
    from flows.games.cg_holdem_luck import all_in_hands, unit_luck

    got = unit_luck(logged.query, "cg-luck", 96)  # raises where a board settles to other stacks than logged
    hands, _ = all_in_hands(logged.query, "cg-luck", 96)
    assert hands.height > 96  # all-in run-outs are common among these bots
    raw = logged.query("SELECT payoff FROM units WHERE match_id = 'cg-luck' ORDER BY unit")["payoff"].to_numpy()
    check = luck_check(raw, raw - got)
    assert check.factor > 1.1
    low, high = check.shift_interval
    assert low < 0 < high


def test_decided_sweeps_take_the_all_in_luck_out():
    from flows import games
    from flows.decide import make_rule
    from flows.games.cg_holdem_luck import unit_luck

    assert make_rule("cg-holdem").luck and games.get("cg-holdem").luck is unit_luck
