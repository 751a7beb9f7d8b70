"""Every mart gives the same bits on every read. DuckDB aggregates a table of more than one row group (122,880
rows) on several threads, and a float sum added in another order differs in the last bits: a resumed or retried
job, or a pick by id and the latest pick, would then disagree with a clean run. The tables here are synthetic
(range()), just big enough to be read in parallel, and every mart is read several times on 2 threads."""

import duckdb
import pytest

from flows.games.base import SQL_DIR

ROWS = 160_000  # per match: two matches make 320,000 rows, three row groups read in parallel
READS = 8  # without the ORDER BY, a read differed in 20 of 20 runs (match results) and 19 of 20 (sweep pairs)
MATCHES = ("m0", "m1")


def _connect(*files: str) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(config={"threads": 2})
    for name in ("core.sql", *files):
        con.execute((SQL_DIR / name).read_text())
    con.executemany("INSERT INTO matches (match_id, game, bot, config, seed, units, sweep_id, source, started_at) "
                    "VALUES (?, 'toy', 'coin', '{}', 1, ?, 's-1', 'sweep', now())", [(m, ROWS) for m in MATCHES])
    return con


def _same_bits_on_every_read(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    """The rows, after checking that every read gave them to the bit (repr tells every double apart)."""
    first = con.execute(sql).fetchall()
    for read in range(1, READS):
        assert repr(con.execute(sql).fetchall()) == repr(first), f"read {read} differs from read 0: {sql}"
    return first


@pytest.fixture(scope="module")
def units():
    con = _connect()
    # Payoffs with full mantissas (sevenths), interleaved so every row group holds both matches.
    con.execute("INSERT INTO units SELECT 'm' || (i % 2), 0, i // 2, ((i * 7919) % 1000) / 7.0 - 70 "
                "FROM range(?) t(i)", [ROWS * len(MATCHES)])
    yield con
    con.close()


def test_the_match_results_are_the_same_bits_on_every_read(units):
    rows = _same_bits_on_every_read(units, "SELECT match_id, units, mean, sd, ci_low, ci_high "
                                           "FROM mart_match_results ORDER BY match_id")
    assert [r[:2] for r in rows] == [(m, ROWS) for m in MATCHES]
    assert all(r[3] > 0 for r in rows)


def test_the_sweep_pairs_are_the_same_bits_on_every_read(units):
    rows = _same_bits_on_every_read(units, "SELECT match_a, match_b, units, mean_diff, se_diff, ci_low, ci_high "
                                           "FROM mart_sweep_pairs ORDER BY match_a")
    assert [r[:3] for r in rows] == [("m0", "m1", ROWS), ("m1", "m0", ROWS)]
    assert rows[0][3] == -rows[1][3] and rows[0][4] > 0



def test_the_cumulative_curve_is_the_same_bits_on_every_read(units):
    """A window sum over floats whose frame order is total (unit is unique in a match) adds in that order."""
    rows = _same_bits_on_every_read(units, "SELECT count(*), sum(hash(match_id, unit, cumulative)::HUGEINT) "
                                           "FROM mart_cumulative")  # every value's bits, without fetching them
    assert rows[0][0] == ROWS * len(MATCHES)

# The games' marts, each over a table of that game's shape filled from range() with two matches interleaved:
# unit i of the table is unit i // 2 of match m<i % 2>. Integer payoffs matter too: a standard deviation of
# integers is a float sum.
GAMES = {
    "twocarddraw.sql": (
        ["INSERT INTO tcd_hands SELECT 'm' || (i % 2), 0, i // 2, 1, 2, i % 13, i // 13 % 13, i // 7 % 13, i // 3 % 13,"
         " 0, 0, 0, 0, 0, 0, 'kk', '', 0, -1, 0, ['showdown', 'player_fold', 'server_fold'][i % 3 + 1],"
         " (i * 7919) % 61 - 30 FROM range(?) t(i)"],
        ["SELECT match_id, hands, profit, mean_profit, ci_low, ci_high FROM mart_tcd_matches ORDER BY match_id",
         "SELECT * FROM mart_tcd_learning_curve ORDER BY match_id, block"]),
    "splendor.sql": (  # win shares of 0, 1, 1/2 and 1/3: the thirds make the sum's order show
        ["INSERT INTO spl_games SELECT 'm' || (i % 2), 0, i // 2, 3, i % 3, 30, 1 + i % 2,"
         " [0.0, 1.0, 0.5, 1 / 3][(i * 7919) % 4 + 1], i % 16, 12, i % 15, 0 FROM range(?) t(i)"],
        ["SELECT * FROM mart_spl_results ORDER BY match_id"]),
    "holdem_training.sql": (  # outcome: showdown + 1, end code, 1 round, profit + 512 at bit 17
        ["INSERT INTO ht_packed_hands SELECT 'm' || (i % 2), 0, i // 2 + 1, i, i, i * 2654435761 % (1::BIGINT << 54),"
         " i % 3 + (i % 3 << 2) + (1 << 4) + ((i * 7919) % 400 + 312 << 17), 0, 0, 0, 0 FROM range(?) t(i)"],
        ["SELECT * FROM mart_ht_profit ORDER BY match_id",
         "SELECT * FROM mart_ht_starting_hands ORDER BY match_id, hole_kind, high_card"]),
    "cg_holdem.sql": (  # heads-up games of one hand each, both seats dealt in; big blinds of 10 to 30
        ["INSERT INTO cgh_games SELECT 'm' || (i % 2), 0, i // 2, i // 4, i // 2 % 2, i, 2, i // 2 % 2, 1, 1, false,"
         " 1, 0 FROM range(? // 2) t(i)",
         "INSERT INTO cgh_seats SELECT 'm' || (i // 2 % 2), 0, i // 4, i % 2, 'b' || (i % 2), 0,"
         " 1 + ((i * 7919) % 5 < 2)::INTEGER, -1, 0 FROM range(?) t(i)",
         "INSERT INTO cgh_hands SELECT 'm' || (i % 2), 0, i // 2, 1, 10 * (1 + i % 3), 0, 0, 1, 'X', 0, i % 2 = 0,"
         " false, 1, 1 FROM range(? // 2) t(i)",
         "INSERT INTO cgh_hand_seats SELECT 'm' || (i // 2 % 2), 0, i // 4, 1, i % 2, 'AS_KD', 100, 0,"
         " (i * 7919) % 97, (i * 104729) % 193, 100, false FROM range(?) t(i)"],
        ["SELECT * FROM mart_cgh_positions ORDER BY match_id, bot",
         "SELECT * FROM mart_cgh_style ORDER BY match_id, bot"]),
}


@pytest.mark.parametrize("sql_file", list(GAMES))
def test_the_game_marts_are_the_same_bits_on_every_read(sql_file):
    fills, marts = GAMES[sql_file]
    con = _connect(sql_file)
    for fill in fills:
        con.execute(fill, [ROWS * len(MATCHES)])
    try:
        for mart in marts:
            rows = _same_bits_on_every_read(con, mart)
            assert {r[0] for r in rows} == set(MATCHES), mart  # both matches made it through the joins
    finally:
        con.close()


def _cost(matches: int = 30, units: int = 100_000, reads: int = 5) -> None:
    """What the order costs: mart_match_results over a sweep of `matches` configs x `units` (3M rows), read on
    2 threads with fd2dc09's ORDER BY and without it; median wall seconds and CPU seconds of a read."""
    import statistics
    import time

    ordered = (SQL_DIR / "core.sql").read_text()
    unordered = ordered.replace("avg(payoff ORDER BY unit) AS mean, stddev_samp(payoff ORDER BY unit) AS sd",
                                "avg(payoff) AS mean, stddev_samp(payoff) AS sd")
    assert unordered != ordered, "core.sql's mart_match_results changed: update this measurement"
    for name, sql in (("unordered", unordered), ("ordered", ordered)):
        con = duckdb.connect(config={"threads": 2})
        con.execute(sql)
        con.execute("INSERT INTO matches (match_id, game, bot, config, seed, units, sweep_id, source, started_at) "
                    "SELECT 'm' || i, 'toy', 'coin', '{}', 1, ?, 's-1', 'sweep', now() FROM range(?) t(i)",
                    [units, matches])
        con.execute("INSERT INTO units SELECT 'm' || (i % ?), 0, i // ?, ((i * 7919) % 1000) / 7.0 - 70 "
                    "FROM range(?) t(i)", [matches, matches, matches * units])
        walls, cpus = [], []
        for _ in range(reads):
            wall, cpu = time.perf_counter(), time.process_time()
            con.execute("SELECT * FROM mart_match_results").fetchall()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"{name}: {statistics.median(walls):.3f} s wall, {statistics.median(cpus):.3f} s CPU a read "
              f"({matches} x {units:,} units, 2 threads, median of {reads})")
        con.close()


if __name__ == "__main__":  # nice -n 15 .venv/bin/python -m tests.flows.test_mart_bits
    _cost()
