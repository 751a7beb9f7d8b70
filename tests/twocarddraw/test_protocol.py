"""The strategy-file format: round trip, and errors that name the line and what was expected."""

import numpy as np
import pytest

from engine.twocarddraw import rules as R
from engine.twocarddraw.protocol import StrategyFileError, format_strategy, parse_strategy, read_strategy
from engine.twocarddraw.strategy import uniform_over_allowed
from tests.twocarddraw.conftest import random_strategy


def test_round_trip_keeps_every_probability(tmp_path):
    strategy = random_strategy(R.BetSizes(2, 6), 1)
    path = tmp_path / "s.txt"
    path.write_text(format_strategy(strategy))
    parsed = read_strategy(path)
    assert parsed.strategy.bets == R.BetSizes(2, 6) and parsed.warnings == ()
    np.testing.assert_allclose(parsed.strategy.probs, strategy.probs, atol=1e-11)


def test_layout_matches_the_statement():
    lines = format_strategy(uniform_over_allowed(R.BetSizes(1, 2))).splitlines()
    assert lines[0] == "1 2" and len(lines) == 1 + 4155
    tags = [line.split()[0] for line in lines[1:]]
    assert tags.count("ROUND1") == 60 and tags.count("DRAW") == 315 and tags.count("ROUND2") == 3780
    assert lines[1].startswith("ROUND1 0 1 0 0 ")  # cards 0-1, no bets: fold forbidden when calling is free
    draw = next(line for line in lines if line.startswith("DRAW 4 4 "))
    assert draw.split()[-3:] == ["1", "0", "0"]  # 4-4 never draws
    assert len(draw.split()) == 9 and len(lines[-1].split()) == 11


def _text_with(line_no: int, replacement: str) -> str:
    lines = format_strategy(uniform_over_allowed(R.BetSizes(1, 2))).splitlines()
    lines[line_no - 1] = replacement
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("line_no", "replacement", "message"),
    [
        (1, "1 4", "bet2 must be in bet1..3*bet1"),
        (1, "x", "expected 'bet1 bet2'"),
        (3, "ROUND1 0 2 0 0.5 0.5 0.1", "sum to 1 within 1e-06"),
        (3, "ROUND1 0 2 0 0.6 0.6 -0.2", "finite and >= 0"),
        (3, "ROUND1 2 0 0 0 1 0", "CARD1 <= CARD2"),
        (3, "ROUND1 0 2 4 0 1 0", "BETS must be an integer 0..3"),
        (3, "ROUND1 0 2 0 0 1", "expected 7 fields"),
        (3, "ROUND3 0 2 0 0 1 0", "expected ROUND1, DRAW or ROUND2"),
        (3, "DRAW 0 1 0 1 0 1 0 0", "FIRST must be 0 when round 1 had no bets"),
        (3, "ROUND1 0 1 0 0 1 0", "already given on line 2"),
    ],
)
def test_bad_lines_are_named(line_no, replacement, message):
    with pytest.raises(StrategyFileError) as err:
        parse_strategy(_text_with(line_no, replacement), source="s.txt")
    assert f"s.txt:{line_no}: " in str(err.value) and message in str(err.value)


def test_a_sum_off_by_less_than_1e6_is_accepted():
    parsed = parse_strategy(_text_with(3, "ROUND1 0 2 0 0.5 0.5000005 0"))
    assert parsed.strategy.round1[0, 1, 1] == pytest.approx(0.5000005)


def test_missing_situations_and_raise_at_cap():
    text = format_strategy(uniform_over_allowed(R.BetSizes(1, 2)))
    with pytest.raises(StrategyFileError, match="1 situations missing"):
        parse_strategy("\n".join(text.splitlines()[:-1]))
    capped = _text_with(47, "ROUND1 0 1 3 0.2 0.3 0.5")  # bets = 3 rows start at line 47
    parsed = parse_strategy(capped)
    assert len(parsed.warnings) == 1 and "played as call" in parsed.warnings[0]
    np.testing.assert_allclose(parsed.strategy.round1[3, 0], [0.2, 0.8, 0.0])


def test_lines_may_come_in_any_order():
    strategy = random_strategy(R.BetSizes(4, 8), 3)
    header, *rows = format_strategy(strategy).splitlines()
    order = np.random.default_rng(1).permutation(len(rows))
    parsed = parse_strategy("\n".join([header, *(rows[i] for i in order)]))
    np.testing.assert_allclose(parsed.strategy.probs, strategy.probs, atol=1e-11)
