"""The sweep report renders from real sweeps: the recommendation first, paired differences to
the baseline and the runner-up, the game's panels, replays of the extremes."""

import re

import pytest

from flows.stats import exact_binomial, wilson
from reports.baseline import baseline_match
from reports.sweep_report import build_report
from tests.reports.conftest import connect, make_sweep


def test_holdem_training_report_leads_with_the_recommendation_and_paired_differences(ht_sweep, tmp_path):
    con = connect()
    base = baseline_match(con, ht_sweep)
    pairs = con.execute("SELECT match_a, match_b, mean_diff FROM mart_sweep_pairs WHERE sweep_id = ?",
                        [ht_sweep]).fetchall()
    con.close()
    assert base == f"{ht_sweep}-c0"  # the defaults config
    report = build_report(ht_sweep, out_dir=tmp_path)
    text = report.page.read_text()
    first_section = text.index('id="recommendation"')
    assert first_section < text.index("<table")  # the decision comes before the tables
    assert re.search(r"(Switch to|Keep the baseline)", text)
    assert "(baseline)" in text and "vs baseline (paired, 95% CI)" in text
    for _a, b, diff in pairs:  # the table shows each config's paired difference to the baseline
        if b == base:
            assert f"{diff:+.4f}" in text
    names = {p.name for p in report.plots}
    assert {"profit_per_config.png", "paired_differences.png", "cumulative_difference.png",
            "ht_starting_hands.png", "ht_bob_calls.png", "ht_calibration.png"} <= names
    assert all(p.stat().st_size > 5000 for p in report.plots)
    # The predictions come from a replay of the logged hands, which must agree with the log.
    matched = re.search(r"\(([\d,]+) raises matched the log, ([\d,]+) did not\)", text)
    assert matched and int(matched.group(1).replace(",", "")) > 100 and matched.group(2) == "0"
    assert len(report.replays) == 6 and all(p.exists() for p in report.replays)
    assert all(f"replays/{p.name}" in text for p in report.replays)


def test_codingame_report_has_positions_and_style_and_says_it_has_no_baseline(cg_sweep, tmp_path):
    report = build_report(cg_sweep, out_dir=tmp_path)
    text = report.page.read_text()
    assert "Finishing positions" in text and "VPIP" in text and "PFR" in text
    assert "no baseline config" in text
    replay = report.replays[0].read_text()
    assert "own cards" in replay and "Board:" in replay and "folded" in replay


def test_binomial_intervals_cover_the_rate_and_widen_at_the_edges():
    w, e = wilson(3, 10), exact_binomial(3, 10)
    assert w.low < 0.3 < w.high and e.low < 0.3 < e.high
    assert e.high - e.low > w.high - w.low  # Clopper-Pearson is the conservative one
    assert exact_binomial(0, 20).low == 0.0 and 0.13 < exact_binomial(0, 20).high < 0.18  # rule of three ~3/20


@pytest.mark.parametrize(("game", "bot", "configs", "units", "expect"), [
    ("splendor", "greedy", [(), (("target", "6"),)], 6, ("Win share", "exact 95% CI", "spl_points_by_round.png")),
    ("tractor", "rule", [(), (("dump_points", "false"),)], 4, ("level change", "defenders' points", "tr_levels.png")),
    ("twocarddraw", "learner", [(), (("prior_scale", "2"),)], 2000, ("Learning curve", "tcd_learning_curve.png")),
])
def test_other_games_get_their_panels(game, bot, configs, units, expect, tmp_path):
    sweep_id = make_sweep(game, bot, configs, units=units)
    report = build_report(sweep_id, out_dir=tmp_path)
    text = report.page.read_text()
    assert 'id="recommendation"' in text and "(baseline)" in text
    for needle in expect:
        assert needle in text
    assert all(p.exists() and p.stat().st_size > 5000 for p in report.plots)
    if game != "twocarddraw":  # no replay page for TwoCardDraw
        assert len(report.replays) == 6


def test_profit_and_paired_difference_are_drawn_against_each_numeric_parameter(ht_sweep, tmp_path):
    """A peak between grid values shows only on a plot against the parameter (issue 30 item 6)."""
    from reports.sweep_data import load, param_series

    con = connect()
    data = load(con, ht_sweep)
    con.close()
    (series,) = param_series(data)["future_flop"]
    means = {c.match_id: c.mean for c in data.ranked}
    assert list(series.x) == sorted(series.x) and set(series.x) == {0.2, 0.5, 0.8}  # 0.8: the bot's default
    assert list(series.mean) == [means[m] for m in series.matches]
    for m, d, lo, hi in zip(series.matches, series.diff, series.diff_low, series.diff_high, strict=True):
        expect = data.pair(m, data.baseline) if m != data.baseline else None
        assert (d, lo, hi) == ((expect.mean, expect.low, expect.high) if expect else (0.0, 0.0, 0.0))
    report = build_report(ht_sweep, out_dir=tmp_path)
    text = report.page.read_text()
    assert 'id="shape"' in text and "Profit against each parameter (future_flop)" in text
    for name in ("profit_vs_future_flop.png", "paired_vs_future_flop.png"):
        assert f'src="{name}"' in text and (tmp_path / name).stat().st_size > 5000


def test_costliest_classes_are_only_those_that_lost_and_name_their_metric():
    from reports.panels.holdem_training import costliest

    found = [{"hole_kind": "pair", "high_card": "A", "mean": 3.5, "n": 40},
             {"hole_kind": "offsuit", "high_card": "7", "mean": -1.25, "n": 90},
             {"hole_kind": "suited", "high_card": "K", "mean": 0.5, "n": 30}]
    text = costliest(found)
    assert "mean profit per hand" in text and "offsuit 7-high -1.25 (90 hands)" in text
    assert "pair A-high" not in text and "suited K-high" not in text  # profitable: not costly
    assert costliest([r for r in found if r["mean"] > 0]) == "No class lost on average."
