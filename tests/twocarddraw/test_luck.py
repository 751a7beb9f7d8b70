"""TwoCardDraw's luck correction (engine/twocarddraw/luck.py, flows/games/twocarddraw_luck.py): profit minus the
played policy's exact value has mean zero (exactly, for a fixed policy: its value is the brute-force walk's
expectation), the replay across looks is the uninterrupted test, the hook reads a logged match and refuses one
its replay does not reproduce, and the correction takes out nearly all of the spread."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.simple import SampleBot
from bots.twocarddraw.tracker import policy_table
from engine.core.stats import luck_check
from engine.twocarddraw import exact as X
from engine.twocarddraw.luck import PolicyReplay, luck
from flows.games.twocarddraw_luck import unit_luck
from flows.match import MatchPlan, run_match
from flows.store import HandLog
from tests.twocarddraw.reference import best_response_value


def test_a_fixed_policys_correction_has_exactly_mean_zero(generated_12):
    """value is E[profit] by enumeration of every deal, draw and server action (the reference walk), so
    E[profit - value] = 0 exactly; the dealt profits average to it too."""
    replay = PolicyReplay(SampleBot(), generated_12, seed=11)
    replay.advance(6000)
    enumerated = best_response_value(generated_12.probs, generated_12.bets, policy=policy_table(SampleBot()))
    assert np.allclose(replay.values, enumerated, rtol=0, atol=1e-12)
    got = luck(replay.profits, replay.values)
    assert got.std() > 1  # the cards do move chips
    assert abs(got.mean()) < 4 * got.std() / np.sqrt(len(got))


def test_the_replay_extended_look_by_look_is_the_uninterrupted_test(generated_12):
    whole = X.exact_run(BOTS["learner"].make(), generated_12, seed=5, hands=900)
    replay = PolicyReplay(BOTS["learner"].make(), generated_12, seed=5)
    for look in (250, 250, 600, 900):  # a look that asks for no new hands plays none
        replay.advance(look)
    assert np.array_equal(replay.profits, whole.profits)
    assert np.allclose(replay.values, whole.values, rtol=0, atol=1e-12)
    assert len(set(np.round(replay.values, 12))) > 20  # the learner's policy did change between looks


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A learner's match of 1,500 hands against a generated server, in a scratch hand log."""
    db = str(tmp_path_factory.mktemp("tcd-luck") / "h.duckdb")
    plan = MatchPlan(game="twocarddraw", bot="learner", options=(("steps", "20000"), ("strategy_seed", "3")),
                     seed=8, units=1500, chunk_size=500)
    with HandLog(db) as store:
        run_match(plan, store, match_id="m-learner", source="test")
        yield store


def test_the_hook_gives_profit_minus_the_played_policys_value(logged):
    from engine.twocarddraw import judge

    got = unit_luck(logged.query, "m-learner", 1500)
    server = judge.load_server(judge.MatchOptions(steps=20000, strategy_seed=3))
    run = X.exact_run(BOTS["learner"].make(), server, seed=8, hands=1500)
    assert np.allclose(got, run.profits - run.values, rtol=0, atol=1e-12)
    raw = logged.query("SELECT payoff FROM units WHERE match_id = 'm-learner' ORDER BY unit")["payoff"].to_numpy()
    assert np.array_equal(raw, run.profits)
    check = luck_check(raw, raw - got)
    assert check.factor > 100  # the card luck is nearly all of a hand's spread
    low, high = check.shift_interval
    assert low < 0 < high
    assert np.array_equal(unit_luck(logged.query, "m-learner", 400), got[:400])  # an earlier look


def test_a_log_the_replay_does_not_reproduce_is_refused(logged):
    def tampered(sql, params):
        frame = logged.query(sql, params)
        if "payoff" in frame.columns:
            frame = frame.with_columns(frame["payoff"].scatter(7, frame["payoff"][7] + 1))
        return frame

    with pytest.raises(ValueError, match="differs from the log at hand 7"):
        unit_luck(tampered, "m-learner", 300)


def test_decisions_leave_it_out_and_the_bench_measures_it():
    """A learning bot's corrected payoffs are correlated hand to hand: the SPRT would read them as independent."""
    from bench.luck import correction
    from flows.decide import make_rule

    assert not make_rule("twocarddraw").luck
    assert correction("twocarddraw") is unit_luck
