"""Acceptance cases for the referee and two turn inputs, byte for byte (docs/rules/cg_holdem.md#input-format)."""

from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.protocol import board_text
from engine.cg_holdem.rules import GameConfig, card_text
from tests.cg_holdem.helpers import Scripted, min_raise, run

FIRST_TURN_SEED42_N3 = """5
10
10
2
1600
2
3
0
1
1
1595 5
1595 5
1590 10
X_X_X_X_X
QD_KS
0
0
4
CALL
ALL-IN
BET_15
FOLD"""

PLAYER2_ROUND15 = """15
2
2490 10
2685 5
1805 5
2495 5
X_X_X_X_X
6S_3S
6
9 1 2 ALL-IN AC_2D_4H_X_X
10 1 3 CALL AC_2D_4H_X_X
11 1 0 BET_300 AC_2D_4H_X_X
12 1 1 FOLD AC_2D_4H_X_X
13 1 3 FOLD AC_2D_4H_X_X
14 2 1 FOLD X_X_X_X_X
1
1 AC_2D_4H_3S_7C QD_8S_KC_QC_2C_9C_QH_KS
4
CALL
ALL-IN
BET_15
FOLD"""

SCRIPT = {1: "CALL", 2: "CALL", 3: "CALL", 4: "CHECK", 5: "CHECK", 6: "BET 300", 7: "CALL", 8: "CALL",
          9: "ALL-IN", 10: "BET 1000", 11: "BET 300"}


def line(h):
    return f"{h.round} {h.hand} {h.player} {h.action} {board_text(h.board)}"


def test_calling_stations_hit_the_round_cap():
    result, _ = run(3, 42, lambda t: "CALL")
    assert result.rounds == 600
    assert result.hands[-1].hand == 51 and result.hands[-1].cancelled
    assert result.hands[-2].hand == 50 and not result.hands[-2].cancelled
    assert result.scores == (1970, 1790, 1040)


def test_first_turn_input_is_byte_exact():
    shown = []
    run(3, 42, lambda t: "CALL", on_turn=lambda s, turn, a: shown.append((s, turn)))
    seat, turn = shown[0]
    setup_lines = ["5", "10", "10", "2", "1600", "2", "3", "0"]
    assert seat == 0
    assert "\n".join(setup_lines + turn.lines()) == FIRST_TURN_SEED42_N3


def test_check_facing_a_bet_is_a_fold():
    result, _ = run(3, 42, lambda t: "CHECK" if t.round == 1 else "CALL")
    assert line(result.history[0]) == "1 1 0 FOLD X_X_X_X_X"


def test_scripted_short_all_in_hand():
    config = GameConfig(players=4, stacks=(3000, 3000, 500, 3000))
    bots = [Scripted(lambda t: SCRIPT.get(t.round, "FOLD")) for _ in range(4)]
    seen = {}
    from engine.cg_holdem.judge import BotSeat

    result = play_game([BotSeat(b) for b in bots], seed=42, config=config,
                       on_turn=lambda s, turn, a: seen.setdefault(turn.round, (s, turn)))
    hand = result.hands[0]
    assert hand.won[2] == 1810 and hand.won[0] == 110
    assert hand.end_stacks == (2500, 2690, 1810, 2500)
    assert [a[2] for a in hand.actions][8:11] == ["ALL-IN", "CALL", "BET_300"]
    assert seen[10][0] == 3 and seen[10][1].possible == ("CALL", "FOLD")  # P3 locked after the short all-in
    assert seen[11][0] == 0 and seen[11][1].possible == ("CALL", "ALL-IN", "BET_300", "FOLD")
    seat, turn = seen[15]
    assert seat == 2 and "\n".join(turn.lines()) == PLAYER2_ROUND15


def test_none_round_when_nobody_can_act():
    result, _ = run(2, 42, lambda t: "CALL", stacks=(5, 4795))
    assert line(result.history[0]) == "1 1 -1 NONE KS_8S_QC_AC_4H"
    assert result.hands[0].end_stacks == (10, 4790)


def test_raise_cap_after_ten_min_raises():
    shown = {}
    rule = lambda t: min_raise(t) if t.round <= 10 else "CALL"  # noqa: E731
    result, _ = run(3, 42, rule, on_turn=lambda s, t, a: shown.setdefault(t.round, t.possible))
    assert all(any(p.startswith("BET_") for p in shown[r]) for r in range(1, 11))
    assert [h.action.startswith("BET_") for h in result.history[:10]] == [True] * 10
    assert shown[11] == ("CALL", "FOLD") and shown[12] == ("CALL", "FOLD")
    shown.clear()
    result, _ = run(3, 42, rule, stacks=(1600, 105, 1600),
                    on_turn=lambda s, t, a: shown.setdefault(t.round, t.possible))
    assert shown[11] == ("FOLD",)
    assert result.history[10].player == 1 and result.history[10].action == "ALL-IN"


def test_odd_chips_go_to_the_first_winner_after_the_dealer():
    result, _ = run(3, 54, lambda t: "ALL-IN", stacks=(101, 1000, 3699))
    hand = result.hands[0]
    assert hand.dealer == 0 and hand.won[0] == 151 and hand.won[2] == 152 + 2 * 899 + 2699
    result, _ = run(3, 59, lambda t: "ALL-IN", stacks=(101, 1000, 3699))
    hand = result.hands[0]
    assert hand.dealer == 1 and hand.won[0] == 152 and hand.won[1] == 151 + 2 * 899


def test_timeout_at_round_one():
    from engine.cg_holdem.judge import BotSeat

    class Silent:
        def decide(self, setup, turn):
            return None

        def close(self):
            return {}

    result = play_game([Silent(), BotSeat(Scripted(lambda t: "CALL")), BotSeat(Scripted(lambda t: "CALL"))], seed=42)
    assert line(result.history[0]) == "1 1 0 TIMEOUT X_X_X_X_X"
    assert result.scores[0] == -3 and result.ranks[0] == 0
    assert sum(result.final_stacks) == 4800 - 1595  # the timed-out stack left the game


def test_dealt_hands_seed_42():
    def dealt(players):
        result, _ = run(players, 42, lambda t: "FOLD")
        hand = result.hands[0]
        cards = [" ".join(card_text(c) for c in pair) for pair in hand.cards]
        return hand.dealer, hand.sb_seat, hand.bb_seat, cards

    assert dealt(3) == (0, 1, 2, ["QD KS", "2C KC", "QH 9C"])
    assert dealt(2) == (0, 0, 1, ["QH KC", "2C QD"])
    assert dealt(4) == (1, 2, 3, ["QD 8S", "KC QC", "2C 9C", "QH KS"])


def test_none_round_past_the_cap_ends_the_game_flagged():
    """docs/rules/cg_holdem.md#differences: the Java referee would overflow its history here; we cancel and flag it."""
    config = GameConfig(players=2, stacks=(10, 4790), round_cap=1)
    result = play_game([BotSeat(Scripted(lambda t: "FOLD")) for _ in range(2)], seed=42, config=config)
    assert result.overflow and result.rounds == 1
    assert result.hands[-1].hand == 2 and result.hands[-1].cancelled
    assert result.final_stacks == (5, 4795)
    uncapped = play_game([BotSeat(Scripted(lambda t: "FOLD")) for _ in range(2)], seed=42,
                         config=GameConfig(players=2, stacks=(10, 4790)))
    assert line(uncapped.history[1]).startswith("2 2 -1 NONE ")


def test_dealt_board_seed_42_three_players():
    result, _ = run(3, 42, lambda t: "ALL-IN")
    assert " ".join(card_text(c) for c in result.hands[0].board[:4]) == "QC JD AC 4H"
