"""Output parsing (docs/rules/cg_holdem.md#reading-an-answer) and the replacement table, on
states built by the real referee."""

import pytest

from engine.cg_holdem.protocol import parse_output, read_turn
from engine.cg_holdem.state import Action
from tests.cg_holdem.helpers import run


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("RAISE 20", ("FOLD", 0)), ("BET  20", ("FOLD", 0)), ("BET", ("FOLD", 0)), ("CALL 10", ("FOLD", 0)),
        ("", ("FOLD", 0)), ("BET 99999999999", ("FOLD", 0)), ("call", ("CALL", 0)), ("all_in", ("ALL-IN", 0)),
        ("BET_240", ("BET", 240)), ("bet_240", ("BET", 240)), ("BET +20", ("BET", 20)), ("BET -5", ("BET", -5)),
        ("  check \t", ("CHECK", 0)), ("TIMEOUT", ("TIMEOUT", 0)), ("ALL-IN", ("ALL-IN", 0)),
        ("BET 2147483647", ("BET", 2147483647)), ("BET 2147483648", ("FOLD", 0)), ("BET 1e3", ("FOLD", 0)),
    ],
)
def test_parse_output(line, expected):
    assert parse_output(line)[:2] == expected


def test_message_is_only_the_second_part():
    assert parse_output("CALL;hello;world") == ("CALL", 0, "hello")
    assert parse_output("FOLD") == ("FOLD", 0, "")


def first_turn_game():
    """Seed 42, N=3, paused at round 1 (p0 faces the BB with 1595 behind; min raise 15)."""
    from engine.cg_holdem.rules import GameConfig
    from engine.cg_holdem.state import Game

    return Game(GameConfig(players=3), 42)


@pytest.mark.parametrize(
    ("action", "played"),
    [
        (Action("CALL"), Action("CALL")), (Action("CHECK"), Action("FOLD")), (Action("BET", 0), Action("FOLD")),
        (Action("BET", 5), Action("CALL")), (Action("BET", 6), Action("BET", 15)),
        (Action("BET", 15), Action("BET", 15)),
        (Action("BET", 40), Action("BET", 40)), (Action("BET", 1595), Action("ALL-IN")),
        (Action("BET", 9999), Action("ALL-IN")), (Action("ALL-IN"), Action("ALL-IN")), (Action("FOLD"), Action("FOLD")),
    ],
)
def test_replacement_table(action, played):
    assert first_turn_game().replace(action) == played


def test_big_blind_option_call_becomes_check():
    game = first_turn_game()
    game.apply(Action("CALL"))
    game.apply(Action("CALL"))
    assert game.to_act == 2 and game.possible_actions() == ("ALL-IN", "BET_10", "CHECK", "FOLD")
    assert game.replace(Action("CALL")) == Action("CHECK")


def test_rendered_turns_read_back_identically():
    shown = []
    run(4, 1234, lambda t: "CALL" if t.round % 3 else t.possible[0], on_turn=lambda s, t, a: shown.append(t))
    for turn in shown[:200]:
        assert read_turn(iter(turn.lines()).__next__, 4) == turn


def test_locked_raiser_and_short_all_in_reopening():
    """docs/rules/cg_holdem.md#betting example: flop bet 300, two calls, a short all-in to 490: the bettor may only call
    (ALL-IN and BET become CALL), while a caller may re-raise by the old minimum (BET_300)."""
    from engine.cg_holdem.rules import GameConfig
    from engine.cg_holdem.state import Game

    game = Game(GameConfig(players=4, stacks=(3000, 3000, 500, 3000)), 42)
    for text in ("CALL", "CALL", "CALL", "CHECK", "CHECK"):
        game.apply(Action(text))
    for action in (Action("BET", 300), Action("CALL"), Action("CALL"), Action("ALL-IN")):
        game.apply(action)
    assert game.to_act == 3 and game.possible_actions() == ("CALL", "FOLD")
    assert game.replace(Action("ALL-IN")) == Action("CALL")
    assert game.replace(Action("BET", 1000)) == Action("CALL")
    game.apply(Action("CALL"))
    assert game.to_act == 0 and game.possible_actions() == ("CALL", "ALL-IN", "BET_300", "FOLD")
    assert game.replace(Action("BET", 250)) == Action("BET", 300)  # above the call, below the minimum
    assert game.replace(Action("BET", 190)) == Action("CALL")  # not above the call
