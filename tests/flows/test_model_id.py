"""A model's id names what determines the fit, not where it was logged (issue 27): the same games logged
again under new match ids give the same id, other games another one."""

import pytest

from flows import opponents
from flows.match import MatchPlan, run_match
from flows.opponents.base import FittedModel
from flows.store import HandLog
from tests.scratch import scratch_home


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """Three short heads-up matches of pushfold against station: two on the same deals, one on others."""
    with scratch_home(tmp_path_factory, "model_id"):
        with HandLog() as store:
            ids = [run_match(MatchPlan(game="cg-holdem", bot="pushfold", options=(("opponents", "station"),
                                                                                  ("players", "2")),
                                       seed=seed, units=6, chunk_size=6), store).match_id for seed in (21, 21, 22)]
        yield ids


def _fit(matches, seed=1):
    return opponents.fit("cg-holdem", "pushfold", matches=matches, seed=seed)


def test_the_same_games_logged_again_keep_the_id(logged):
    first, again, _ = logged
    assert first != again  # a new match id for the same deals
    a, b = _fit([first]), _fit([again])
    assert a.sources != b.sources and a.data == b.data != ""
    assert opponents.model_id(a) == opponents.model_id(b)


def test_other_games_or_another_split_get_another_id(logged):
    first, _, other = logged
    base = opponents.model_id(_fit([first]))
    assert opponents.model_id(_fit([other])) != base
    assert opponents.model_id(_fit([first, other])) != base
    assert opponents.model_id(_fit([first], seed=2)) != base


def test_a_fitter_without_a_digest_is_named_by_its_fit_not_its_sources():
    model = FittedModel(game="toy", player="p", method="m", params={"a": 1}, decisions=10, heldout_decisions=2,
                        heldout_logloss=0.5, baseline_logloss=0.6, uniform_logloss=0.7, sources=("match-1",))
    relogged = FittedModel(**{**model.__dict__, "sources": ("match-2",)})
    refit = FittedModel(**{**model.__dict__, "heldout_logloss": 0.4})
    assert opponents.model_id(relogged) == opponents.model_id(model) != opponents.model_id(refit)
