"""The judge's lines and the parsing of contestant lines, byte for byte as the statement prints them."""

import re
import sys
from pathlib import Path

import pytest

from engine.holdem_training import protocol
from engine.holdem_training.judge import play_external
from engine.holdem_training.rules import Action, View

CONTESTANT = str(Path(__file__).parent / "data" / "contestant.py")


def card(suit: int, value: int) -> int:
    return suit * 13 + value - 1


def test_the_statement_example_lines_render_byte_exact():
    view = View(hand=1, round=1, stack=100, opp_stack=100, pot=10, hole=(card(0, 12), card(2, 1)), board=())
    assert protocol.hand_count_line(1) == "1"
    assert protocol.state_lines(view) == ("STATE 1 1 100 100 10 0", "ALICE 0 12 2 1", "BOARD")
    assert protocol.rates_line(421, 10, 1000) == "RATES 0.421000 0.010000"
    assert protocol.opponent_line("FOLD", 5) == "OPP FOLD"
    assert protocol.opponent_line("CALL", 5) == "OPP CALL 5"
    assert protocol.opponent_line("CHECK", 0) == "OPP CHECK"
    assert protocol.result_line(15) == "RESULT 15"
    assert protocol.result_line(-37) == "RESULT -37"
    assert protocol.score_line(15.0) == "SCORE 15.000000"
    assert protocol.score_line(4.9271) == "SCORE 4.927100"


def test_board_lines_list_cards_in_deal_order():
    board = (card(3, 13), card(0, 1), card(1, 7), card(2, 9), card(0, 13))
    view = View(hand=7, round=4, stack=55, opp_stack=55, pot=100, hole=(card(1, 1), card(1, 2)), board=board)
    assert protocol.state_lines(view) == ("STATE 7 4 55 55 100 5", "ALICE 1 1 1 2",
                                          "BOARD 3 13 0 1 1 7 2 9 0 13")


def test_the_statement_example_commands_parse():
    assert protocol.parse_command("RATE 100") == protocol.RateRequest(100)
    assert protocol.parse_command("ACTION RAISE 5") == Action("RAISE", 5)
    assert protocol.parse_command("ACTION CHECK") == Action("CHECK")
    assert protocol.parse_command("ACTION FOLD") == Action("FOLD")


@pytest.mark.parametrize("line", ["", "ACTION", "ACTION RAISE", "ACTION RAISE five", "ACTION RAISE 5.0",
                                  "ACTION RAISE +5", "ACTION CHECK 3", "ACTION CALL", "action check",
                                  "RATE", "RATE 0", "RATE -4", "RATE 1e3", "RATE 10 20", "HELLO"])
def test_bad_commands_are_rejected(line):
    with pytest.raises(protocol.ProtocolError):
        protocol.parse_command(line)


def test_an_external_match_follows_the_statement_example_shape():
    """One hand with the statement's example moves; our deal differs, so the numbers that
    depend on it are matched by shape and checked against the rules."""
    transcript: list[str] = []
    result = play_external([sys.executable, CONTESTANT, "example", "0"], seed=4, hands=1,
                           transcript=transcript, cpu_seconds=5)
    assert result.complete, result.reason
    shape = [
        r"> 1",
        r"> STATE 1 1 100 100 10 0",
        r"> ALICE [0-3] ([1-9]|1[0-3]) [0-3] ([1-9]|1[0-3])",
        r"> BOARD",
        r"< RATE 100",
        r"> RATES [01]\.[0-9]{6} [01]\.[0-9]{6}",
        r"< ACTION RAISE 5",
        r"> OPP (FOLD|CALL 5)",
    ]
    for pattern, line in zip(shape, transcript, strict=False):
        assert re.fullmatch(pattern, line), (pattern, line)
    if transcript[7] == "> OPP FOLD":  # Bob folds: Alice takes the pot, her raise comes back
        assert transcript[8:] == ["> RESULT 10", "> SCORE 10.000000"]
    else:
        assert transcript[8] == "> STATE 1 2 95 95 20 3"
        assert transcript[-1] == f"> SCORE {result.log.payoffs[0]:.6f}"
        assert transcript[-2] == f"> RESULT {result.log.payoffs[0]}"


GOLDEN = Path(__file__).parent / "data" / "golden_example_seed4.txt"


def test_golden_transcript_of_a_short_match():
    """Every line of a 5-hand match (deals, RATE answers, Bob's answers, results) as last
    accepted. A change in dealing, sampling or formatting shows up here as a diff; if it is
    intended, regenerate with HT_REGENERATE_GOLDEN=1 and review the diff."""
    import os

    transcript: list[str] = []
    result = play_external([sys.executable, CONTESTANT, "example", "0"], seed=4, hands=5, transcript=transcript,
                           cpu_seconds=5)
    assert result.complete
    text = "\n".join(transcript) + "\n"
    if os.environ.get("HT_REGENERATE_GOLDEN"):
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text()


def _commands(lines: list[str], count: int) -> list:
    feed = iter(lines)
    next_token = protocol.token_reader(lambda: next(feed))
    return [protocol.read_command(next_token) for _ in range(count)]


def test_the_judge_reads_tokens_like_the_reference():
    """A command split over lines, two commands on a line, blank lines: all accepted."""
    assert _commands(["ACTION", "", "RAISE", "  7  "], 1) == [Action("RAISE", 7)]
    assert _commands(["RATE 5 ACTION CHECK"], 2) == [protocol.RateRequest(5), Action("CHECK")]
    assert _commands(["", "\t", "RATE\t12\r", "ACTION FOLD"], 2) == [protocol.RateRequest(12), Action("FOLD")]


@pytest.mark.parametrize("line", ["ACTION RAISE 007", "RATE 05", "ACTION RAISE -0", "RATE 00", "ACTION RAISE +5"])
def test_leading_zeros_are_a_presentation_error(line):
    with pytest.raises(protocol.ProtocolError) as caught:
        _commands([line], 1)
    assert caught.value.verdict == protocol.PRESENTATION_ERROR


@pytest.mark.parametrize("line", ["ACTION CALL", "HELLO", "RATE 0", "RATE -4"])
def test_well_formed_but_illegal_commands_are_wrong_answers(line):
    with pytest.raises(protocol.ProtocolError) as caught:
        _commands([line], 1)
    assert caught.value.verdict == protocol.WRONG_ANSWER


def test_a_huge_bad_token_is_cut_in_the_message():
    with pytest.raises(protocol.ProtocolError) as caught:
        _commands(["ACTION RAISE " + "9x" * 1_000_000], 1)
    assert len(str(caught.value)) < 200 and "..." in str(caught.value)


SPLIT_WRITER = """
import sys
first = True
for line in sys.stdin:
    if line.startswith("BOARD"):
        if first:  # a command over three lines, blank line included
            sys.stdout.write("ACTION\\n\\nCHECK\\n")
            first = False
        else:  # two commands on one line
            sys.stdout.write("RATE 10 ACTION CHECK\\n")
        sys.stdout.flush()
"""


def test_an_external_program_may_split_and_join_commands(tmp_path):
    program = tmp_path / "split.py"
    program.write_text(SPLIT_WRITER)
    transcript: list[str] = []
    result = play_external([sys.executable, str(program)], seed=4, hands=3, cpu_seconds=5, transcript=transcript)
    assert result.complete, (result.status, result.reason)
    assert result.rate_used == 10 * (4 * 3 - 1) and transcript[-1].startswith("> SCORE ")
