"""The fit-quality curve keeps the prior at 0 hands and has error bars over disjoint windows."""

import numpy as np

from engine.twocarddraw import judge as J
from flows.opponents import twocarddraw_fit as F
from tests.twocarddraw.test_fit import UniformBot


def test_curve_points_have_error_bars_and_the_plot_keeps_the_prior(generated_12, tmp_path):
    result = J.play_match(UniformBot(seed=3), generated_12, seed=12, hands=1_200)
    hands = {k: np.asarray(v) for k, v in result.record.columns.items()}
    points, _ = F.quality_curve(hands, generated_12, (0, 100, 400, 1_200), prior="uniform", iterations=2,
                                repeats=4)
    by = {(p.method, p.hands): p for p in points}
    assert by["observed", 0].windows == 1 and by["observed", 0].weighted_error_se == 0.0
    assert by["observed", 100].windows == 4 and by["observed", 100].weighted_error_se > 0
    assert by["observed", 400].windows == 3 and by["observed", 1_200].windows == 1
    # One window reproduces the single fit the curve made before windows existed.
    single, _ = F.quality_curve(hands, generated_12, (100,), prior="uniform", iterations=2)
    first = F.fit_quality(F.fit_observed(F.observations(hands)[:100], F.bets_of(hands),
                                         F.prior_counts(F.bets_of(hands), "uniform"), iterations=2), generated_12)
    assert single[0].weighted_error == first.weighted_error
    path = F.plot_curve(points, tmp_path / "fit.png", title="t")
    assert path.stat().st_size > 10_000
