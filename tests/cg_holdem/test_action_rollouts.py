"""bench/cg_holdem/action_rollouts.py: a copied referee replays the game, the alternatives and the values."""

import copy

import pytest

from bench.cg_holdem import action_rollouts as ar
from bench.cg_holdem.ranged_paired import maker
from engine.cg_holdem import judge
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Game
from engine.core.seeds import match_key

HEADS_UP = ["ranged", "style:tracker"]


def _played(entries, seed, unit):
    seats, _, _, game_seed = judge.unit_seats([maker(e) for e in entries], key=match_key(seed), unit=unit)
    return judge.play_game(seats, seed=game_seed, config=GameConfig(players=len(entries)))


def test_a_copy_played_on_with_the_same_answer_is_the_game_and_rollouts_leave_it_alone():
    copies = []

    def keep(referee, s, turn, answer):
        if len(copies) < 1 and referee.game.hand_nb >= 2:
            copies.append((copy.deepcopy(referee), s, turn, answer))
            copies.append(referee)

    rows, score = ar.play_unit(HEADS_UP, seed=5, unit=1, sample=0.3, on_decision=keep)
    snapshot, s, turn, answer = copies[0]
    real = copies[1].game
    assert rows and any(r["gain"] != 0 for r in rows)  # alternatives were played from copies
    # the real game, rolled out all along, is the game play_chunk's seating plays without rollouts
    plain = _played(HEADS_UP, 5, 1)
    assert real.history == list(plain.history) and real.hands == list(plain.hands)
    assert score == (2 - plain.positions[judge.unit_seats([maker(e) for e in HEADS_UP], key=match_key(5),
                                                          unit=1)[1][0]]) / 1
    snapshot.play(s, turn, answer)
    ar.play_out(snapshot, hands=None)
    assert snapshot.game.history == real.history and snapshot.game.hands == real.hands
    assert snapshot.game.positions() == real.positions()


def test_alternatives_are_what_turn_possible_allows_as_the_referee_plays_them():
    game = Game(GameConfig(players=4), 12345)
    s = game.to_act
    alts = ar.alternatives(game)
    assert set(alts) == {"fold", "call", "half", "pot", "allin"}  # first to act preflop, a big blind owed
    call, pot = game.call_amount(s), sum(game.total)
    assert alts["call"].kind == "CALL" and alts["fold"].kind == "FOLD" and alts["allin"].kind == "ALL-IN"
    assert alts["half"].amount == int(call + 0.5 * (pot + call)) and alts["pot"].amount == call + pot + call
    game.play("CALL")
    while game.call_amount(game.to_act):
        game.play("CALL")
    game.play("CHECK")  # the big blind checks: the flop, nothing owed
    assert "fold" not in ar.alternatives(game) and ar.alternatives(game)["call"].kind == "CHECK"


def test_values_at_a_hand_end_split_the_payouts():
    """Every seat's worth at a hand's end (ICM for the live, the place taken for a bust) adds up to the payouts."""
    entries = ["ranged", "style:tracker", "style:lag", "aggressive"]
    seats, _, _, game_seed = judge.unit_seats([maker(e) for e in entries], key=match_key(7), unit=0)
    referee = judge.Referee(seats, Game(GameConfig(players=4), game_seed))
    checked = busts = 0
    while not referee.game.over and checked < 60:
        hands = len(referee.game.hands)
        ar.play_out(referee, hands=hands)
        values = [ar.value(referee.game, s, hands) for s in range(4)]
        assert sum(values) == pytest.approx(1 + 2 / 3 + 1 / 3)
        busts += sum(r is not None for r in referee.game.rank)
        checked += 1
    assert checked >= 10 and busts > 0


def test_clustered_gains():
    rows = [{"unit": 0, "gain": 0.1}, {"unit": 0, "gain": 0.3}, {"unit": 1, "gain": -0.1}, {"unit": 3, "gain": 0.2}]
    c = ar.clustered(rows, [0, 1, 2, 3], sample=0.5)
    assert c["n"] == 4 and c["games"] == 3 and c["per_game"] == pytest.approx(2.0)
    assert c["gain"] == pytest.approx(0.125)
    assert c["game"] == pytest.approx(c["gain"] * c["per_game"])  # gain x decisions a game
    assert c["game_lo"] < c["game"] < c["game_hi"] and c["gain_lo"] < c["gain"] < c["gain_hi"]
    # game totals scaled by 1 / sample: 0.8, -0.2, 0, 0.4
    assert c["game"] == pytest.approx(0.25)
