"""Count, seed and other numeric options take ASCII digits only: typer's parsing would read '1_000', ' 5' or
'5.0' as an int and gave a box without the accepted form; every int and float option now answers in one line."""

import pytest

from tests.cli import test_validation
from tests.cli.test_validation import refused, run

handlog = test_validation.handlog  # a hand log path that does not exist yet: any play would create it


@pytest.mark.parametrize("value", ["\uff11", "\u0665", "1_000", " 5", "5.0", "0x10", "abc"])
def test_a_count_in_other_than_ascii_digits_is_refused_in_one_line(handlog, value):
    line = refused(run("match", "holdem-training", "--hands", value, "--seed", "1"), "--hands", repr(value),
                   "ASCII digits", "accepted: digits 0-9")
    assert "such as" in line
    assert not handlog.exists()


@pytest.mark.parametrize(("option", "value"), [("--seed", "\uff17"), ("--chunk", "\u0968\u0966")])
def test_seeds_and_chunks_take_ascii_digits_only(handlog, option, value):
    refused(run("match", "holdem-training", "--hands", "2", option, value), option, "ASCII digits")
    assert not handlog.exists()


def test_a_float_option_takes_ascii_digits_only(handlog):
    refused(run("sweep", "holdem-training", "--until-decided", "--d0", "\uff10.1"), "--d0", "ASCII digits",
            "0.25")
    assert not handlog.exists()


def test_ascii_counts_and_signed_seeds_still_pass_the_check():
    from types import SimpleNamespace

    from cardlab import checks

    for kind, text in ((int, "20000"), (int, "-7"), (int, "+3"), (float, "0.25"), (float, "1e-3"), (float, ".5")):
        param = SimpleNamespace(type_descriptor=SimpleNamespace(annotation=kind), opts=["--x"], name="x")
        assert checks.ascii_number(param, text) is None, text


def test_each_value_of_a_repeatable_number_option_takes_ascii_digits_only(handlog):
    refused(run("cg-holdem", "tournament", "--players", "2", "--players", "\uff13"), "--players", "'\uff13'",
            "ASCII digits")
    assert not handlog.exists()
