"""Opponent fitting: reach weights against simulation, EM on what the player saw, and the real
Prefect flow once against a temporary DuckDB file and MLflow store."""

import json

import mlflow
import numpy as np
import pytest

from engine.twocarddraw import judge as J
from engine.twocarddraw import rules as R
from engine.twocarddraw.analysis import fit_quality, situation_reach
from engine.twocarddraw.protocol import read_strategy
from flows import events
from flows.games.twocarddraw import SPEC
from flows.opponents import twocarddraw_fit as F
from flows.store import log_judged_match, read_only
from tests.twocarddraw.conftest import RandomBot


class UniformBot(RandomBot):
    """Uniform over legal actions, as situation_reach assumes."""

    def choose_round1(self, hand, bets):
        return int(self.rng.integers(1, 3)) if bets == 0 else int(self.rng.integers(0, 3 if bets < 3 else 2))


@pytest.fixture(scope="module")
def random_match(generated_12):
    result = J.play_match(UniformBot(seed=2), generated_12, seed=11, hands=6_000)
    return {k: np.asarray(v) for k, v in result.record.columns.items()}, result


def test_situation_reach_matches_simulated_frequencies(generated_12, random_match):
    hands, _ = random_match
    visits = np.zeros(R.N_ROWS)
    for n in range(len(hands["hand"])):
        for row, _action in F.server_choices(hands, n):
            visits[row] += 1
    reach = situation_reach(generated_12)
    n = len(hands["hand"])
    for lo, hi in ((0, R.DRAW_BASE), (R.DRAW_BASE, R.ROUND2_BASE), (R.ROUND2_BASE, R.N_ROWS)):
        expected, seen = reach[lo:hi].sum() * n, visits[lo:hi].sum()
        assert abs(seen - expected) < 5 * np.sqrt(expected), (lo, seen, expected)
    busiest = np.argsort(reach)[-20:]  # the most frequent situations, one by one
    assert np.all(np.abs(visits[busiest] - reach[busiest] * n) < 5 * np.sqrt(reach[busiest] * n) + 2)


def test_em_fit_improves_with_hands_and_full_information_is_better(generated_12, random_match):
    hands, _ = random_match
    points, fit = F.quality_curve(hands, generated_12, (200, 6_000), prior="uniform", iterations=3)
    by = {(p.method, p.hands): p for p in points}
    assert by["observed", 6_000].weighted_error < 0.8 * by["observed", 200].weighted_error
    assert by["full_info", 6_000].weighted_error < by["observed", 6_000].weighted_error
    assert by["observed", 6_000].value_lost < by["observed", 200].value_lost
    assert fit_quality(generated_12, generated_12).value_lost == pytest.approx(0.0, abs=1e-12)


@pytest.mark.slow  # the fit flow with MLflow
def test_the_flow_reads_duckdb_writes_a_fit_and_logs_to_mlflow(generated_12, random_match, tmp_path, monkeypatch):
    monkeypatch.setenv("MLFLOW_TRACKING_URI", f"sqlite:///{tmp_path / 'mlflow.db'}")
    monkeypatch.setenv("CARDLAB_FIT_EXPERIMENT", "fit-test")
    _, result = random_match
    db = tmp_path / "hands.duckdb"
    options = {"bet1": "1", "bet2": "2", "steps": "60000", "strategy_seed": "7"}  # as `cardlab match --opt` records
    match_id = log_judged_match(SPEC, bot="uniform", config={}, seed=11, log=events.encode(result.chunk_log(), SPEC),
                                db=db, options=options)
    match_id_read, hands = F.read_hands(db)
    assert match_id_read == match_id and len(hands["hand"]) == 6_000
    assert np.array_equal(F.truth_of_match(db, match_id).probs, generated_12.probs)
    with read_only(str(db)) as con:  # the views decode what the judge logged
        hands_, profit, score = con.execute("SELECT hands, profit, score FROM mart_tcd_matches").fetchone()
        blocks = con.execute("SELECT count(*) FROM mart_tcd_learning_curve").fetchone()[0]
        shown = con.execute("SELECT count(server_shown) FROM stg_tcd_hands").fetchone()[0]
    assert (hands_, profit, score) == (6_000, result.profit, max(0, result.profit + 6_000)) and blocks == 6
    assert shown == sum(o.shown >= 0 for o in F.observations(hands))
    out = F.fit_opponent(db, generated_12, tmp_path / "fit.txt", checkpoints=(500, 6_000), prior="uniform",
                         iterations=2)
    assert out.match_id == match_id
    fitted = read_strategy(out.fit_path).strategy
    assert fitted.bets == R.BetSizes(1, 2) and (tmp_path / "fit.png").stat().st_size > 5_000
    run = mlflow.get_run(out.mlflow_run_id)
    assert run.data.params["match_id"] == match_id
    history = mlflow.MlflowClient().get_metric_history(out.mlflow_run_id, "observed_weighted_error")
    assert sorted(m.step for m in history) == [500, 6_000]
    assert json.dumps(out.as_dict())


def test_hand_posterior_matches_simulated_server_hands(generated_12, random_match):
    """Among hands with the same observed history, the server's dealt hands follow the posterior."""
    from collections import Counter

    from bots.twocarddraw.learner import hand_posterior

    hands, _ = random_match
    obs = F.observations(hands)
    common, count = Counter(o for o in obs if o.shown < 0).most_common(1)[0]
    assert count > 300
    dealt = [R.hand_index(int(hands["s_card1"][n]), int(hands["s_card2"][n])) for n, o in enumerate(obs) if o == common]
    seen = np.bincount(dealt, minlength=R.N_HANDS)
    pre, _ = hand_posterior(generated_12.probs, np.ones(R.N_ROWS), common)
    expected = pre * count
    chi2 = (((seen - expected) ** 2) / np.maximum(expected, 1e-9))[expected > 0].sum()
    assert np.all(seen[expected == 0] == 0) and chi2 < 40, (chi2, seen, expected.round(1))
