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
