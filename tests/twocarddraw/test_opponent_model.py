"""The TwoCardDraw server as an opponent model (issue 27): fitted from a logged match, shrunk toward
the prior, scored on held-out hands, written as a strategy file, seated as its best response."""

import numpy as np
import pytest

from engine.core.errors import BadValue, NotFound
from engine.twocarddraw import judge as J
from engine.twocarddraw import rules as R
from engine.twocarddraw.analysis import fit_quality
from engine.twocarddraw.best_response import best_response, policy_value
from engine.twocarddraw.protocol import read_strategy
from flows import events
from flows.games.twocarddraw import SPEC
from flows.opponents import model_id
from flows.opponents import twocarddraw as M
from flows.opponents import twocarddraw_fit as F
from flows.store import log_judged_match, read_only
from tests.twocarddraw.test_fit import UniformBot

SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the test fast to build


def _log_match(strategy, db):
    """A 3,000-hand match against the (1, 2) server, logged into `db`: (match id, the hands' columns)."""
    result = J.play_match(UniformBot(seed=5), strategy, seed=21, hands=3_000)
    options = {"bet1": "1", "bet2": "2", "steps": "60000", "strategy_seed": "7"}
    match_id = log_judged_match(SPEC, bot="uniform", config={}, seed=21, log=events.encode(result.chunk_log(), SPEC),
                                db=db, options=options)
    return match_id, {k: np.asarray(v) for k, v in result.record.columns.items()}


@pytest.fixture(scope="module")
def logged(generated_12, tmp_path_factory):
    db = tmp_path_factory.mktemp("opp") / "hands.duckdb"
    return db, *_log_match(generated_12, db)


@pytest.fixture(autouse=True)
def small_prior(monkeypatch):
    monkeypatch.setattr(M, "PRIOR_SETTINGS", SMALL)


def test_fit_is_the_prior_without_hands_and_moves_by_evidence(generated_12, logged):
    _, _, hands = logged
    obs = F.observations(hands)
    prior = F.fit_posterior([], generated_12.bets, settings=SMALL)
    assert np.allclose(F.fit_server([], generated_12.bets, settings=SMALL).probs, prior.probs)
    posterior = F.fit_posterior(obs, generated_12.bets, settings=SMALL)
    fitted = F.fit_server(obs, generated_12.bets, settings=SMALL, shrink_hands=1_000)
    assert np.allclose(fitted.probs, 0.75 * posterior.probs + 0.25 * prior.probs)  # 3,000 / (3,000 + 1,000)
    # The per-situation error falls with data, and more data moves the fit further from the prior.
    errors = [fit_quality(F.fit_server(obs[:n], generated_12.bets, settings=SMALL), generated_12).weighted_error
              for n in (0, 300, 3_000)]
    assert errors[2] < errors[1] < errors[0], errors


def test_fit_from_the_hand_log_scores_held_out_hands_and_seats_the_best_response(generated_12, logged, tmp_path,
                                                                               monkeypatch):
    db, match_id, hands = logged
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "log" / "hands.duckdb"))  # where model files go
    with read_only(str(db)) as con:
        model = M.fit(con, "server", seed=3, holdout=0.25)
        again = M.fit(con, "gen:1-2-60000-7", matches=[match_id], seed=3, holdout=0.25)
        other_split = M.fit(con, "server", seed=4, holdout=0.25)
    assert model.sources == (match_id,) and model.game == "twocarddraw" and model.method == M.METHOD
    assert again.params == model.params and again.heldout_decisions == model.heldout_decisions
    assert other_split.heldout_decisions != model.heldout_decisions  # the split follows the seed
    total = sum(len(F.server_choices(hands, n)) for n in range(len(hands["hand"])))
    assert 0.15 * total < model.heldout_decisions < 0.35 * total
    assert model.heldout_logloss < model.uniform_logloss
    assert {c.situation for c in model.calibration} >= {"round1 bets=0", "draw", "round2 bets=0"}
    # The model file makes a strategy file that reads back as the fit, and the seat best-responds to it.
    fitted = M.strategy_of(model.params)
    path = M.server_file(model.params)
    assert path == M.server_file(model.params) and np.allclose(read_strategy(path).strategy.probs, fitted.probs,
                                                               atol=1e-6)
    spec, config = M.seat(model.params)
    bot = spec.make(config)
    bot.init(1, 2)
    assert np.array_equal(bot.current_policy(), best_response(fitted).policy)
    assert policy_value(generated_12, bot.current_policy()) > best_response(generated_12).value - 0.5


def test_the_same_hands_logged_again_fit_the_same_server(generated_12, logged, tmp_path):
    """The held-out hands follow each hand's deal (match seed, hand), not the match id, new each time a
    match is logged: the same hands in a second hand log fit the same model with the same figures."""
    db, match_id, _ = logged
    again = tmp_path / "again.duckdb"
    assert _log_match(generated_12, again)[0] != match_id
    fits = []
    for path in (db, again):
        with read_only(str(path)) as con:
            fits.append(M.fit(con, "server", seed=3, holdout=0.25))
    figures = [(f.params, f.decisions, f.heldout_decisions, f.heldout_logloss, f.baseline_logloss,
                f.uniform_logloss, f.calibration) for f in fits]
    assert fits[0].heldout_decisions > 0 and figures[0] == figures[1]
    assert fits[0].sources != fits[1].sources and model_id(fits[0]) == model_id(fits[1])  # the id ignores match ids


def test_bad_requests_get_one_line(logged):
    db, _, _ = logged
    with read_only(str(db)) as con:
        with pytest.raises(NotFound, match="accepted: server"):
            M.fit(con, "no-such-server.txt")
        with pytest.raises(NotFound, match="no twocarddraw match 'nope'"):
            M.fit(con, "server", matches=["nope"])
        with pytest.raises(BadValue, match="accepted: no files"):
            M.fit(con, "server", files=("a.phh",))
    with pytest.raises(BadValue, match="accepted: bet1, bet2"):
        M.strategy_of({"bet1": 1, "bet2": 2, "probs": [[1.0, 0.0, 0.0]]})
    assert M.server_name({"strategy": "/x/y/s9302.txt"}) == "s9302.txt"
    assert R.N_ROWS == len(M.strategy_of(M.params_of(F.fit_server([], R.BetSizes(1, 2), settings=SMALL))).probs)
