"""`cardlab sweep GAME --until-decided --json`: the interface scripts rely on, on the toy coin game."""

import json
import os

import pytest

from tests.cli.test_cli import cardlab


@pytest.fixture(scope="module", autouse=True)
def hand_log(tmp_path_factory):
    os.environ["CARDLAB_EXTRA_GAMES"] = "toy=tests.flows.toy_game"
    old = os.environ.get("CARDLAB_DB")
    os.environ["CARDLAB_DB"] = str(tmp_path_factory.mktemp("decide-cli") / "handlog.duckdb")
    yield
    if old is None:
        os.environ.pop("CARDLAB_DB")
    else:
        os.environ["CARDLAB_DB"] = old


@pytest.mark.slow  # a decided sweep through the CLI
def test_until_decided_prints_one_json_object_with_the_decision(capsys, monkeypatch):
    code, out, err = cardlab(capsys, monkeypatch, "sweep", "toy", "--grid", "edge=0.35,0.65", "--hands", "2000",
                             "--seed", "3", "--until-decided", "--json")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert len(lines) == 1  # stdout holds the answer alone; the words go to stderr
    got = json.loads(lines[-1])
    assert got["decision"] == "switch" and got["best"] == {"edge": "0.65"}
    assert got["hands"] == got["selection_units"] + got["confirm_units"] > 0
    c = got["confirmed"]
    assert c["low"] < c["mean"] < c["high"] and c["low"] > 0  # the true difference is 2 (0.65 - 0.5) = 0.3
    assert got["deals"]["confirmation"]["seed"] != got["deals"]["selection"]["seed"] == 3
    assert "decision: switch to edge=0.65" in err
    code, out, _ = cardlab(capsys, monkeypatch, "pick", "toy")
    assert code == 0 and '{"edge": 0.65}' in out and "confirmed on fresh deals" in out
    code, out, _ = cardlab(capsys, monkeypatch, "sql", "SELECT decision, hands FROM decisions", "--format", "csv")
    assert code == 0 and f"switch,{got['hands']}" in out


@pytest.mark.slow  # a decided sweep and its report
def test_the_report_opens_with_the_decision_and_the_confirmation(capsys, monkeypatch, tmp_path):
    code, out, err = cardlab(capsys, monkeypatch, "sweep", "toy", "--grid", "edge=0.3,0.45", "--hands", "2000",
                             "--seed", "4", "--until-decided", "--json")
    assert code == 0, err
    got = json.loads(out.strip().splitlines()[-1])
    code, _, err = cardlab(capsys, monkeypatch, "report", got["sweep_id"], "--out", str(tmp_path))
    assert code == 0, err
    text = "".join(p.read_text() for p in tmp_path.rglob("*.html"))
    headline = {"keep": "Keep the baseline", "switch": "Switch to", "undecided": "Undecided"}[got["decision"]]
    assert headline in text and f"seed {got['deals']['confirmation']['seed']}" in text


@pytest.mark.parametrize("args, message", [
    (("--json",), "--json: only with --until-decided"),
    (("--until-decided", "--alpha", "0.7"), "--alpha 0.7: accepted: a probability between 0 and 0.5"),
    (("--until-decided", "--d1", "-1"), "--d1 -1.0 must exceed --d0 0.0"),
])
def test_bad_decision_flags_get_one_line(capsys, monkeypatch, args, message):
    code, _, err = cardlab(capsys, monkeypatch, "sweep", "toy", "--hands", "200", *args)
    assert code == 2
    assert message in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1
