"""mart_sweep_pairs carries its interval and names the method, like the other marts; where the differences
have no spread it gives no interval rather than a point, and names the statistics module's (never zero width)."""

import duckdb
import numpy as np
import pytest

from flows.games.base import SQL_DIR
from flows.stats import paired_interval, paired_mean_interval


def _sweep(payoffs: dict[str, list[float]]) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute((SQL_DIR / "core.sql").read_text())
    for match_id, values in payoffs.items():
        con.execute("INSERT INTO matches (match_id, game, bot, config, seed, units, sweep_id, source, started_at) "
                    "VALUES (?, 'toy', 'coin', '{}', 1, ?, 's-1', 'sweep', now())", [match_id, len(values)])
        con.executemany("INSERT INTO units VALUES (?, 0, ?, ?)", [(match_id, i, x) for i, x in enumerate(values)])
    return con


def _pair(con, a: str, b: str) -> dict:
    cur = con.execute("SELECT * FROM mart_sweep_pairs WHERE match_a = ? AND match_b = ?", [a, b])
    return dict(zip([c[0] for c in cur.description], cur.fetchone(), strict=True))


def test_the_pairs_interval_is_the_normal_one_on_the_differences():
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.3, 1.0, 200), rng.normal(0.0, 1.0, 200)
    row = _pair(_sweep({"a": list(a), "b": list(b)}), "a", "b")
    d = a - b
    se = d.std(ddof=1) / np.sqrt(len(d))
    assert row["ci_method"] == "normal"
    assert row["mean_diff"] == pytest.approx(d.mean())
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(paired_interval(d.mean(), se))
    assert row["ci_low"] < row["mean_diff"] < row["ci_high"]


def test_tied_configs_get_no_point_interval_and_the_module_gives_one_with_width():
    """Two configs that scored the same on every unit (a CodinGame sweep of 20 games all finishing last)."""
    con = _sweep({"a": [0.0] * 20, "b": [0.0] * 20})
    row = _pair(con, "a", "b")
    assert row["se_diff"] == 0 and row["ci_low"] is None and row["ci_high"] is None
    assert "paired_mean_interval" in row["ci_method"]
    shown = paired_mean_interval(row["units"], row["mean_diff"], row["se_diff"], (-1.0, 1.0))
    assert shown.high - shown.low > 0.1 and shown.method != "normal"
