"""A contestant's simulator program, run under the contest's limits and compared case by case."""

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.tractor.judge import run_program
from tests.tractor.helpers import typer_app

DATA = Path(__file__).parent / "data"
CASE = DATA / "core" / "21_multi_case_4cases.in"


def py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_our_exported_bundle_is_accepted_and_its_cpu_is_counted(tmp_path):
    CliRunner().invoke(typer_app(), ["export", "--out", str(tmp_path / "sim")], catch_exceptions=False)
    text, expected = CASE.read_text(), CASE.with_suffix(".out").read_text()
    verdict = run_program([sys.executable, str(tmp_path / "sim" / "simulate.py")], text, expected)
    assert (verdict.verdict, verdict.matched, verdict.cases) == ("accepted", 4, 4)
    assert verdict.cpu_seconds > 0  # the program ended on its own; its CPU time is still known


def test_wrong_answers_name_the_first_bad_case():
    expected = CASE.with_suffix(".out").read_text()
    wrong = expected.replace("375", "376")
    verdict = run_program(py(f"import sys; sys.stdin.read(); sys.stdout.write({wrong!r})"), CASE.read_text(), expected)
    assert (verdict.verdict, verdict.matched, verdict.first_mismatch) == ("wrong answer", 1, 2)
    assert verdict.expected.splitlines()[1] == "375" and verdict.got.splitlines()[1] == "376"


def test_trailing_spaces_are_forgiven_but_crashes_are_not():
    expected = CASE.with_suffix(".out").read_text()
    spaced = expected.replace("\n", " \n")
    verdict = run_program(py(f"import sys; sys.stdin.read(); sys.stdout.write({spaced!r})"), CASE.read_text(), expected)
    assert verdict.verdict == "accepted"
    crash = run_program(py(f"import sys; sys.stdin.read(); sys.stdout.write({expected!r}); sys.exit(3)"),
                        CASE.read_text(), expected)
    assert crash.verdict == "runtime error" and crash.matched == 4


@pytest.mark.slow  # burns CPU to the limit
def test_cpu_limit():
    verdict = run_program(py("while True: pass"), CASE.read_text(), CASE.with_suffix(".out").read_text(),
                          cpu_seconds=1.0)
    assert verdict.verdict == "time limit" and verdict.matched == 0
