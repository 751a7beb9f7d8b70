"""The data-biased response (issue 31): CFR+ on a game where the server plays a model with weight w per row.

The kernel's twins are the code written apart from it: with w = 0 the game is the plain constrained game
(cfr_plus's safe strategy, bit for bit, and its guaranteed value), with w = 1 the server is the model and
the response must earn the best-response kernel's value against it. Exact throughout."""

import numpy as np
import pytest

from bots.twocarddraw import BOTS
from bots.twocarddraw.dbr import evidence_weight
from bots.twocarddraw.robust import load_equilibrium
from engine.core.errors import BadValue
from engine.twocarddraw import best_response as B
from engine.twocarddraw import equilibrium as E
from engine.twocarddraw import exact as X
from engine.twocarddraw import rules as R

BETS = R.BetSizes(1, 2)
SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the bot tests fast to build


@pytest.fixture(scope="module")
def model():
    return B.generate(BETS, steps=50_000, seed=3).strategy


def test_with_no_weight_on_the_model_it_is_the_safe_strategy(model):
    solver = E.Solver(BETS).run(200)
    biased = E.BiasedSolver(BETS).run_biased(model.probs, np.zeros(R.N_ROWS), 200)
    assert np.array_equal(biased.response(), solver.average()[0])
    eq = solver.result()
    # it guarantees the game value against any constrained server, the model included
    assert E.server_best_response(BETS, biased.response()) == pytest.approx(eq.server_br, abs=1e-12)
    assert E.value(BETS, biased.response(), model.probs) < B.best_response(model).value - 0.05


def test_with_full_weight_it_best_responds_to_the_model(model):
    best = B.best_response(model).value
    solver = E.BiasedSolver(BETS)
    cold = E.value(BETS, solver.run_biased(model.probs, np.ones(R.N_ROWS), 100).response(), model.probs)
    warm = E.value(BETS, solver.run_biased(model.probs, np.ones(R.N_ROWS), 200).response(), model.probs)
    assert best - 1e-3 < warm <= best + 1e-12  # 300 iterations: within 1e-3 per hand of the best response
    assert warm > cold  # the warm start continues from the first call's regrets


def test_partial_weight_lies_between_exploiting_and_guarding(model):
    """Half the weight: the response earns less than the best response against the model and more than
    the safe strategy, and its worst case (a free server) sits between theirs."""
    safe = E.BiasedSolver(BETS).run_biased(model.probs, np.zeros(R.N_ROWS), 300).response()
    half = E.BiasedSolver(BETS).run_biased(model.probs, np.full(R.N_ROWS, 0.5), 300).response()
    full = E.BiasedSolver(BETS).run_biased(model.probs, np.ones(R.N_ROWS), 300).response()
    against_model = [E.value(BETS, p, model.probs) for p in (safe, half, full)]
    worst = [E.server_best_response(BETS, p) for p in (safe, half, full)]
    assert against_model[0] < against_model[1] < against_model[2]
    assert worst[0] > worst[1] > worst[2]


def test_evidence_weight_grows_with_the_counts():
    w = evidence_weight(np.array([0.0, 5.0, 20.0, 1e9]), 0.8, 20.0)
    assert w == pytest.approx([0.0, 0.8 * 5 / 25, 0.4, 0.8], rel=1e-6)
    assert evidence_weight(np.array([0.0, 0.5]), 1.0, 0.0).tolist() == [0.0, 1.0]
    assert evidence_weight(np.array([0.0, 20.0]), 1.0, 20.0, 0.5) == pytest.approx([0.5, 0.75])
    with pytest.raises(BadValue, match="dbr_wmin <= dbr_wmax"):
        BOTS["dbr"].config_from({"dbr_wmin": "0.9", "dbr_wmax": "0.5"})


def test_the_bot_plays_safe_before_data_and_exploits_an_exploitable_server():
    """A server of 3,000 generator steps is far from equilibrium: after a few re-solves trusting every counted
    decision (dbr_k small) the bot's hands are worth well above the safe strategy's; with the model never
    trusted (dbr_k huge) they are not."""
    server = B.generate(BETS, steps=3_000, seed=4).strategy
    safe_value = E.value(BETS, load_equilibrium(BETS).player, server.probs)
    best = B.best_response(server).value
    spec = BOTS["dbr"]
    # always responding, no trust without counts (the defaults respond only near equilibrium, trusting half)
    settings = {**SMALL, "dbr_every": "100", "dbr_iterations": "100", "dbr_top": "0", "dbr_wmin": "0"}
    run = X.exact_run(spec.make(spec.config_from({**settings, "dbr_k": "0.5"})), server, seed=2, hands=500)
    guarded = X.exact_run(spec.make(spec.config_from({**settings, "dbr_k": "1e9"})), server, seed=2, hands=500)
    early, late = run.values[:100].mean(), run.values[-100:].mean()
    assert abs(early - safe_value) < 0.15 * (best - safe_value)  # the first 100 hands: draws from the safe strategy
    assert late > safe_value + 0.3 * (best - safe_value), (late, safe_value, best)  # measured: 0.62 of the way
    assert abs(guarded.values[-100:].mean() - safe_value) < 0.15 * (best - safe_value)


def test_with_dbr_top_it_plays_as_the_mixture_until_the_sharpest_bucket_holds_the_posterior():
    """A 3,000-step server is nowhere near the sharpest step bucket: the bot never responds and every hand is
    worth exactly what the mixture's is."""
    server = B.generate(BETS, steps=3_000, seed=4).strategy
    dbr, mixture = BOTS["dbr"], BOTS["mixture"]
    banks = {"bucket_count": "3"}  # four step buckets: with two, the sharper one spans 45,000-200,000 steps
    # the bucket test alone (dbr_lean, which may open the response too, off)
    bot = dbr.make(dbr.config_from({**banks, "dbr_top": "0.9", "dbr_every": "50", "dbr_lean": "0"}))
    run = X.exact_run(bot, server, seed=2, hands=200)
    plain = X.exact_run(mixture.make(mixture.config_from(banks)), server, seed=2, hands=200)
    assert not bot.responding() and bot.solver.iterations == 0
    assert np.array_equal(run.values, plain.values)
