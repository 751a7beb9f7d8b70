"""`cardlab sql` reads the hand log and nothing else: one statement, no other file, no setting."""

import csv
import io
import json

import pytest

from flows.match import MatchPlan, run_match
from flows.store import HandLog
from tests.cli.test_cli import cardlab


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    import os

    os.environ["CARDLAB_EXTRA_GAMES"] = "toy=tests.flows.toy_game"
    db = tmp_path_factory.mktemp("sql") / "handlog.duckdb"
    with HandLog(db) as store:
        run_match(MatchPlan(game="toy", bot="coin", seed=3, units=120, chunk_size=60), store, match_id="m-sql")
    return db


@pytest.mark.parametrize("query, message", [
    ("COPY units TO '{tmp}/stolen.csv'", "COPY is refused"),
    ("EXPORT DATABASE '{tmp}/dump'", "EXPORT is refused"),
    ("SELECT * FROM read_csv('/etc/passwd')",
     'reads only the hand log: Permission Error: Cannot access file "/etc/passwd"'),
    ("SELECT * FROM glob('/root/*')", 'reads only the hand log: Permission Error: Cannot access file "/root/*"'),
    ("SELECT * FROM read_text('/etc/hostname')", "reads only the hand log"),
    ("SELECT * FROM '/etc/passwd'", "/etc/passwd does not exist"),
    ("ATTACH '{tmp}/other.duckdb' AS other", "ATTACH is refused"),
    ("INSTALL httpfs", "LOAD is refused"),
    ("LOAD httpfs", "LOAD is refused"),
    ("SET enable_external_access = true", "SET is refused"),
    ("RESET lock_configuration", "SET is refused"),
    ("PRAGMA enable_profiling", "PRAGMA is refused"),
    ("CREATE TABLE t AS SELECT 1", "CREATE is refused"),
    ("DELETE FROM units", "DELETE is refused"),
    ("SELECT 1; COPY units TO '{tmp}/x.csv'", "runs exactly one statement; got 2"),
    ("SELECT 1; SELECT 2", "runs exactly one statement; got 2"),
    ("SELEKT 1", "Parser Error"),
    # EXPLAIN ANALYZE runs what it explains, so EXPLAIN is held to the same rule (issue 29)
    ("EXPLAIN ANALYZE CREATE TEMP VIEW v AS SELECT 1", "CREATE is refused"),
    ("EXPLAIN ANALYZE DELETE FROM units", "DELETE is refused"),
    ("explain (format json) INSERT INTO units SELECT * FROM units", "INSERT is refused"),
    ("EXPLAIN COPY units TO '{tmp}/x.csv'", "COPY is refused"),
])
def test_each_escape_is_refused_in_one_line_and_leaves_no_file(capsys, monkeypatch, logged, tmp_path, query, message):
    code, out, err = cardlab(capsys, monkeypatch, "sql", query.format(tmp=tmp_path), "--db", str(logged))
    assert code == 2
    assert message in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1 and "Traceback" not in err
    assert out == ""
    assert list(tmp_path.iterdir()) == []


def test_the_sandbox_holds_inside_the_query_too(capsys, monkeypatch, logged):
    """What a statement cannot do, a query over a table function cannot do either."""
    code, out, _ = cardlab(capsys, monkeypatch, "sql", "SELECT current_setting('enable_external_access') AS ext, "
                           "current_setting('lock_configuration') AS locked", "--db", str(logged), "--format", "json")
    assert code == 0
    assert json.loads(out) == [{"ext": False, "locked": True}]


def test_a_select_still_answers_in_each_format(capsys, monkeypatch, logged):
    query = ("SELECT match_id, count(*) AS n, sum(payoff) AS total FROM units WHERE match_id = 'm-sql' "
             "GROUP BY match_id")
    code, table, _ = cardlab(capsys, monkeypatch, "sql", query, "--db", str(logged))
    assert code == 0 and "m-sql" in table and "120" in table
    code, text, _ = cardlab(capsys, monkeypatch, "sql", query, "--db", str(logged), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    code2, text2, _ = cardlab(capsys, monkeypatch, "sql", query, "--db", str(logged), "--format", "json")
    assert code == code2 == 0
    records = json.loads(text2)
    assert rows[0]["match_id"] == records[0]["match_id"] == "m-sql"
    assert int(rows[0]["n"]) == records[0]["n"] == 120
    assert float(rows[0]["total"]) == records[0]["total"]


def test_csv_and_json_hold_nested_values_and_timestamps(capsys, monkeypatch, logged):
    query = "SELECT [1, 2] AS l, {'a': 'x'} AS s, started_at FROM matches WHERE match_id = 'm-sql'"
    code, text, _ = cardlab(capsys, monkeypatch, "sql", query, "--db", str(logged), "--format", "csv")
    row = next(csv.DictReader(io.StringIO(text)))
    assert code == 0 and json.loads(row["l"]) == [1, 2] and json.loads(row["s"]) == {"a": "x"}
    code, text, _ = cardlab(capsys, monkeypatch, "sql", query, "--db", str(logged), "--format", "json")
    record = json.loads(text)[0]
    assert record["l"] == [1, 2] and record["s"] == {"a": "x"} and record["started_at"][:2] == "20"


def test_more_rows_than_the_limit_are_cut_with_a_note_off_the_data(capsys, monkeypatch, logged):
    code, text, err = cardlab(capsys, monkeypatch, "sql", "SELECT unit FROM units ORDER BY unit", "--db", str(logged),
                              "--format", "json", "--limit", "5")
    assert code == 0 and [r["unit"] for r in json.loads(text)] == [0, 1, 2, 3, 4]
    assert "115 more rows" in err


def test_an_unknown_format_is_one_line(capsys, monkeypatch, logged):
    code, _, err = cardlab(capsys, monkeypatch, "sql", "SELECT 1", "--db", str(logged), "--format", "xml")
    assert code == 2 and "--format 'xml' is not known; accepted: table, csv, json" in err


# ------------------------------------------------------------------ limits: time, memory, signals (issue 29)
ENDLESS = ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10000000000000) "
           "SELECT count(*) FROM r")


def one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err
    return lines[0]


def test_a_query_past_its_timeout_is_stopped_in_one_line(capsys, monkeypatch, logged):
    import time

    started = time.monotonic()
    code, out, err = cardlab(capsys, monkeypatch, "sql", ENDLESS, "--db", str(logged), "--timeout", "1")
    assert code == 2 and out == ""
    assert "stopped the query after --timeout 1 s" in one_line(err)
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("signum, code", [(2, 130), (15, 143)])
def test_ctrl_c_and_sigterm_interrupt_a_running_query(capsys, monkeypatch, logged, signum, code):
    """The signal comes while the main thread waits on DuckDB (the case a Python handler alone
    cannot serve): it is sent once cardlab sql's own handler is in place, i.e. the query runs."""
    import os
    import signal
    import threading
    import time

    before = signal.getsignal(signum)

    def send() -> None:
        deadline = time.monotonic() + 30
        while signal.getsignal(signum) is before and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)  # well inside the query
        os.kill(os.getpid(), signum)

    sender = threading.Thread(target=send)
    sender.start()
    started = time.monotonic()
    try:
        got, out, err = cardlab(capsys, monkeypatch, "sql", ENDLESS, "--db", str(logged), "--timeout", "600")
    finally:
        sender.join()
    assert got == code and out == ""
    assert f"stopped by {signal.Signals(signum).name}" in one_line(err)
    assert time.monotonic() - started < 30
    assert signal.getsignal(signum) is before  # the command's handler is gone again


def test_a_query_over_its_memory_limit_is_one_line(capsys, monkeypatch, logged):
    code, out, err = cardlab(capsys, monkeypatch, "sql", "SELECT string_agg(range::VARCHAR, ',') FROM range(30000000)",
                             "--db", str(logged), "--memory-mb", "64", "--format", "csv")
    assert code == 2 and out == ""
    assert "needs more than --memory-mb 64 MiB" in one_line(err)


def test_explain_analyze_of_a_read_still_answers(capsys, monkeypatch, logged):
    code, out, _ = cardlab(capsys, monkeypatch, "sql", "EXPLAIN ANALYZE SELECT count(*) FROM units", "--db",
                           str(logged), "--format", "csv")
    assert code == 0 and "explain_value" in out


def test_a_huge_limit_is_one_line(capsys, monkeypatch, logged):
    code, _, err = cardlab(capsys, monkeypatch, "sql", "SELECT 1", "--db", str(logged), "--limit",
                           "99999999999999999999")
    assert code == 2 and "--limit 99999999999999999999 is outside the accepted range" in one_line(err)


def test_the_rows_past_the_limit_are_counted(capsys, monkeypatch, logged):
    code, out, err = cardlab(capsys, monkeypatch, "sql", "SELECT range AS n FROM range(3000000)", "--db", str(logged),
                             "--format", "csv", "--limit", "2")
    assert code == 0 and out.split() == ["n", "0", "1"] and "2999998 more rows" in err


def test_json_keeps_infinities_and_nan_apart_as_strings(capsys, monkeypatch, logged):
    query = ("SELECT 'inf'::DOUBLE AS a, '-inf'::FLOAT AS b, 'nan'::DOUBLE AS c, NULL::DOUBLE AS d, 1.5::DOUBLE AS e, "
             "[2.0, 'inf'::DOUBLE] AS l, {'x': 'nan'::DOUBLE} AS s")
    code, out, _ = cardlab(capsys, monkeypatch, "sql", query, "--db", str(logged), "--format", "json")
    assert code == 0
    record = json.loads(out, parse_constant=lambda token: pytest.fail(f"non-standard JSON token {token}"))[0]
    assert record == {"a": "inf", "b": "-inf", "c": "nan", "d": None, "e": 1.5, "l": [2.0, "inf"], "s": {"x": "nan"}}
