"""Move validation: the arbiter's checks in its order, with its messages
(docs/rules/splendor.md#output-and-validation)."""

import pytest

from engine.core.errors import IllegalMove
from engine.splendor import state as st
from engine.splendor.rules import SplendorConfig

from .test_protocol import example_state


def fresh() -> st.GameState:
    return st.GameState.new(st.deal_from_key(7, 2), SplendorConfig(players=2))


def reason(game, text):
    with pytest.raises(IllegalMove) as bad:
        st.validate(game, text.split())
    return bad.value.reason


@pytest.mark.parametrize(("text", "why"), [
    ("", "Acțiunea este prea scurtă."),
    ("1 3 0 1", "Acțiunea este prea scurtă."),
    ("01 0", "Cuvîntul [01] nu este un întreg."),
    ("1.0", "Cuvîntul [1.0] nu este un întreg."),
    ("x", "Cuvîntul [x] nu este un întreg."),
    ("5", "Valoarea 5 nu este cuprinsă între 1 și 4."),
    ("+5", "Valoarea +5 nu este cuprinsă între 1 și 4."),
    ("1 4", "Valoarea 4 nu este cuprinsă între 0 și 3."),
    ("1 1 5", "Valoarea 5 nu este cuprinsă între 0 și 4."),
    ("1 2 3 3", "Ai cerut două jetoane de culoarea 3."),
    ("3 0", "ID-ul 0 este ilegal."),
    ("3 -4", "Valoarea -4 nu este cuprinsă între -3 și 90."),
    ("4 0", "Valoarea 0 nu este cuprinsă între 1 și 90."),
    ("1 1 0 0", "Cuvîntul 0 este în plus."),
    ("9223372036854775808", "Cuvîntul [9223372036854775808] nu este un întreg."),  # past PHP_INT_MAX
    ("-9223372036854775808", "Valoarea -9223372036854775808 nu este cuprinsă între 1 și 4."),
    ("-00", "Cuvîntul [-00] nu este un întreg."),
])
def test_messages(text, why):
    assert reason(fresh(), text) == why


def test_signed_zero_and_plus_are_integers():
    game = fresh()
    assert st.validate(game, ["+1", "-0"]) == st.Move(1)
    assert st.validate(game, ["1", "+2", "+0", "4"]) == st.Move(1, (0, 4))


def test_empty_pile_take_two_reserve_and_buy_checks():
    game = example_state()  # board 2 3 4 2 3 5; seat 2 to move; row 1 is 29 14 23 37
    game.board[0] = 0
    assert reason(game, "1 1 0") == "Pe masă nu există jetoane de culoarea 0."
    assert reason(game, "2 1") == "Există doar 3 jetoane de culoarea 1."
    assert st.validate(game, "2 2".split()) == st.Move(2, (2,))
    assert reason(game, "3 6") == "Cartea #6 nu este pe masă."
    assert reason(game, "4 50") == "Cartea #50 nu este nici pe masă nici rezervată."
    assert reason(game, "4 14") == "Nu îți permiți cartea #14."
    game.players[1].reserve = [(1, False), (2, False), (3, True)]
    assert reason(game, "3 0") == "Ai deja 3 cărți rezervate."


def test_returns_are_required_above_ten_and_gold_cannot_be_returned():
    game = fresh()
    game.players[0].chips = [2, 2, 2, 2, 0, 1]  # 9 chips
    assert reason(game, "1 3 0 1 2") == "Acțiunea este prea scurtă."
    assert reason(game, "1 3 0 1 2 5 5") == "Valoarea 5 nu este cuprinsă între 0 și 4."
    assert reason(game, "1 3 0 1 2 4 0") == "Nu poți returna un jeton de culoarea 4."
    move = st.validate(game, "1 3 0 1 4 4 0".split())  # a colour just taken may go back
    assert move == st.Move(1, (0, 1, 4), returns=(4, 0))
    assert reason(game, "1 3 0 1 2 0 0 0") == "Cuvîntul 0 este în plus."


def test_reserve_without_gold_is_legal_and_gives_none():
    game = fresh()
    game.board[5] = 0
    card = game.face_up[0][0]
    event = st.apply(game, st.validate(game, ["3", str(card)]))
    assert event.tokens == (3, card) and game.players[0].chips[5] == 0


def test_buy_pays_bonus_then_colour_then_gold_and_refills_the_same_slot():
    game = fresh()
    card = game.face_up[0][2]
    top = game.piles[0][0]
    me = game.players[0]
    cost = st.CARDS[card].cost
    me.chips = [max(0, c - 1) for c in cost] + [5]
    game.board[5] = 0
    missing = sum(1 for c in cost if c > 0)
    event = st.apply(game, st.validate(game, ["4", str(card)]))
    assert event.tokens == (4, card, *[max(0, c - 1) for c in cost], missing)
    assert game.face_up[0][2] == top and me.cards == [card] and me.chips[5] == 5 - missing


def test_first_noble_in_board_order_and_only_one_per_turn():
    game = fresh()
    game.nobles = [4, 9, 3]
    me = game.players[0]
    me.bonus = [3, 0, 0, 4, 4]  # qualifies for 4 (white+black) and 9 (red, white, black)
    event = st.apply(game, st.validate(game, ["1", "0"]))
    assert event.noble == 4 and game.nobles == [9, 3] and me.nobles == [4]
    assert event.message == " primește nobilul #4."


def test_pass_changes_nothing_and_skips_the_noble_check():
    game = fresh()
    game.players[0].bonus = [4, 4, 0, 0, 0]
    game.nobles = [1]
    before = game.copy()
    event = st.play_tokens(game, ["9"], name="bob")
    assert event.message == "Sar peste bob: Valoarea 9 nu este cuprinsă între 1 și 4."
    assert event.tokens == (1, 0, 0, 0, 0, 0) and game.nobles == [1]
    assert game.players == before.players and game.board == before.board and game.seat == 1
