"""One league game through the contest's judge (no Prefect, no database)."""

import sys

import pytest

from flows.games.tractor import league_cases
from flows.league_play import plan_games, play
from flows.league_spec import build


def test_tractor_credits_the_leading_cases_a_wrong_answer_agreed_on(tmp_path):
    spec = build(name="t", game="tractor", programs=[("x", "cat")], games=1, options={"cases": 3})
    _, _, expected = league_cases(spec, 0)
    first_case = expected[:expected.index("Case #2:")]
    answer = tmp_path / "answer.txt"
    answer.write_text(first_case + "Case #2:\nnonsense\n")
    script = tmp_path / "partial.py"
    script.write_text(f"import sys\nsys.stdin.read()\nprint(open({str(answer)!r}).read(), end='')\n")
    partial = f"{sys.executable} {script}"
    spec = build(name="t", game="tractor", games=1, options={"cases": 3},
                 programs=[("partial", partial), ("burner", f"{sys.executable} -c while\\ 1:pass")])
    outcomes = {o.plan.seats[0].name: o for o in (play(spec, p) for p in plan_games(spec))}
    assert outcomes["partial"].payoffs == (1 / 3,) and outcomes["partial"].faults == ("",)
    assert list(outcomes["partial"].log.payoffs) == [1.0, 0.0, 0.0] and outcomes["partial"].units == 3
    assert outcomes["burner"].payoffs == (0.0,) and outcomes["burner"].faults == ("time limit",)
    assert outcomes["burner"].cpu_seconds[0] >= 1.0  # the contest's 1 s, charged to the program itself


USER_CLASS = """
class Bot:  # checks, calls and never draws: never raises, so it never faults
    def init(self, bet1, bet2): return 0
    def new_hand(self, card1, card2, winnings): return 0
    def round1(self, card1, card2, bets): return 1
    def draw(self, card1, card2, bets): return 0
    def round2(self, card1, card2, bets1, bets2, drew): return 1
    def showdown(self, card1, card2, opp1, opp2): return 0
"""


def test_twocarddraw_bots_face_the_same_server_on_the_same_seed(tmp_path):
    (tmp_path / "mine.py").write_text(USER_CLASS)
    spec = build(name="t", game="twocarddraw", games=1, options={"hands": 300},
                 programs=[("sample", "bot:sample"), ("oracle", "bot:oracle"), ("mine", f"{tmp_path}/mine.py:Bot")])
    plans = plan_games(spec)
    assert len({p.seed for p in plans}) == 1
    outcomes = {o.plan.seats[0].name: o for o in (play(spec, p) for p in plans)}
    for o in outcomes.values():
        assert o.log.count == 300 and o.faults == ("",)
        assert o.payoffs[0] == float(o.log.payoffs.sum()) / 300
    cards = [o.log.tables["tcd_hands"]["p_card1"].tolist() for o in outcomes.values()]
    assert cards[0] == cards[1] == cards[2]  # common deals: the difference is the bots'
    assert outcomes["mine"].cpu_seconds[0] is not None  # the class ran in its own process, its CPU charged


@pytest.mark.slow  # two leagues of whole games at 120 ms a decision
def test_cg_holdem_league_turn_limit_is_an_option(tmp_path):
    """A program answering in ~120 ms loses games to the arena's 50 ms limit and plays them whole
    when the league gives 2 s (`--opt turn_ms=2000`), as a loaded machine may need. Its
    opponent folds every hand it is asked, so games are short."""
    from pathlib import Path

    caller = Path(__file__).resolve().parents[1] / "cg_holdem" / "data" / "caller.py"
    slow = f"{sys.executable} {caller} 0.12 2"
    fast = f"{sys.executable} {caller} 0 1 FOLD"
    arena = build(name="t", game="cg-holdem", programs=[("slow", slow), ("fast", fast)], games=1)
    faults = [f for o in (play(arena, p) for p in plan_games(arena)) for f in o.faults]
    assert any(f for f in faults), faults
    roomy = build(name="t", game="cg-holdem", programs=[("slow", slow), ("fast", fast)], games=1,
                  options={"turn_ms": "2000"})
    assert all(not f for o in (play(roomy, p) for p in plan_games(roomy)) for f in o.faults)
