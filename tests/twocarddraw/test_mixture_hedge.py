"""The mixture's hedge (issue 31): two readings of the same evidence, the banks' prior strength and a
weaker one, and the best response of the two that gives up less if the other reading is right."""

import numpy as np

from bots.twocarddraw import BOTS
from engine.twocarddraw import best_response as B
from engine.twocarddraw import exact as X
from engine.twocarddraw import rules as R

SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the test fast to build
BETS = R.BetSizes(1, 2)


def _trained(settings: dict, hands: int):
    server = B.generate(BETS, steps=300_000, seed=41).strategy
    bot = BOTS["mixture"].make(BOTS["mixture"].config_from({**SMALL, **settings}))
    X.exact_run(bot, server, seed=5, hands=hands)
    return bot


def test_the_hedge_plays_the_best_response_with_the_smaller_worst_regret():
    bot = _trained({"hedge_scale": "0.2", "gate_draws": "0"}, 300)  # the hedge alone, without the gate
    bot.refresh()
    ev = B.Evaluator(BETS)
    strong, weak = np.ascontiguousarray(bot.means), np.ascontiguousarray(bot._posterior_means(0.2))
    br_strong, br_weak = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64), np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    v_strong, v_weak = ev.solve(strong, policy=br_strong), ev.solve(weak, policy=br_weak)
    assert not np.array_equal(br_strong, br_weak)  # the two readings disagree somewhere after 300 hands
    bot.resolve()
    regret_of_strong = v_weak - ev.follow(weak, br_strong)
    regret_of_weak = v_strong - ev.follow(strong, br_weak)
    expected = br_weak if regret_of_weak < regret_of_strong else br_strong
    assert np.array_equal(bot.current_policy(), expected)


def test_with_no_data_the_hedge_changes_nothing():
    spec = BOTS["mixture"]
    plain, hedged = spec.make(spec.config_from(SMALL)), spec.make(spec.config_from({**SMALL, "hedge_scale": "0.2"}))
    plain.init(BETS.bet1, BETS.bet2)
    hedged.init(BETS.bet1, BETS.bet2)
    assert np.array_equal(plain.current_policy(), hedged.current_policy())
