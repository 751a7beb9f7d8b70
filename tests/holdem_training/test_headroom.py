"""The headroom study's variants: a planner told Bob's cards, and the flop turn-lookahead."""

import math

import numpy as np
from typer.testing import CliRunner

from bench.holdem_training.headroom import SeerBot, flop_values, paired_difference
from bots.holdem_training import _kernels as K
from bots.holdem_training.exploit import ExploitBot, ExploitConfig
from bots.holdem_training.simple import CheckerBot, CheckerConfig
from cardlab.cli import app
from engine.core.errors import BadValue
from engine.core.stats import Z95
from engine.holdem_training.judge import dealt_cards, play_match
from engine.holdem_training.rules import view_of

FAST = ExploitConfig(preflop_runouts=4)


def card(rank: int, suit: int) -> int:
    """Engine card int from rank 0..12 (2..A) and suit 0..3."""
    return 13 * suit + rank


def test_dealt_cards_are_the_cards_the_judge_logged():
    result = play_match(CheckerBot(CheckerConfig()), seed=7, hands=25)
    logged = result.log.events["hands"]
    dealt = dealt_cards(7, 25)
    names = ["alice_c0", "alice_c1", "bob_c0", "bob_c1", *(f"board_c{j}" for j in range(5))]  # dealt_cards' order
    for j, name in enumerate(names):
        assert np.array_equal(logged[name], dealt[:, j]), name


def test_the_seer_holds_a_point_mass_on_bobs_real_cards_and_wins_far_more():
    bob = dealt_cards(3, 300)[:, 2:4]
    seer = SeerBot(FAST, bob)
    view = view_of(5, 1, 100, 100, 10, (0, 1), ())
    seer.new_hand(view)
    assert np.flatnonzero(seer.posterior).tolist() == [K.pair_index(int(bob[4, 0]), int(bob[4, 1]))]
    seen = play_match(seer, seed=3, hands=300).log.payoffs
    blind = play_match(ExploitBot(FAST), seed=3, hands=300).log.payoffs
    diff, half = paired_difference(seen, blind)
    assert diff - half > 3.0  # knowing Bob's cards is worth ~11 chips a hand


def test_flop_values_pay_the_pot_when_bob_surely_folds():
    """Bob holds 2c 3d on A-K-9: he rates himself far behind a random hand, so he folds to an
    all-in and the raise is worth exactly stack + pot - 100."""
    bot = ExploitBot(FAST)
    hole, board = (card(12, 0), card(11, 0)), (card(12, 1), card(11, 2), card(7, 3))
    view = view_of(1, 2, 95, 95, 20, hole, board)
    bot.new_hand(view)
    bot.reveal(K.pair_index(card(0, 0), card(1, 1)))
    options, values, active = flop_values(bot, view, bot.street(view))
    assert options[0] == 0 and options[-1] == 95 and len(values) == len(options)
    assert active.tolist() == [K.pair_index(card(0, 0), card(1, 1))]
    assert abs(values[-1] - (95 + 20 - 100)) < 1e-6
    assert np.all(np.isfinite(values)) and values[0] > 0  # AK against 23 checked down still wins the pot


def test_a_sample_of_turn_cards_estimates_the_same_values_and_every_card_is_the_full_lookahead():
    """All 47 cards drawn is the full lookahead (no draw from the stream); a sample of them is an
    estimate of the same values, scaled to all 47, and the fold is worth the pot either way."""
    hole, board = (card(12, 0), card(12, 1)), (card(12, 2), card(5, 3), card(1, 0))
    view = view_of(1, 2, 95, 95, 20, hole, board)

    def values(turn_cards: int) -> np.ndarray:
        bot = ExploitBot(FAST)
        bot.new_hand(view)
        street = bot.street(view)
        return flop_values(bot, view, street, turn_cards)[1]

    every, sampled = values(47), values(8)
    assert np.array_equal(every, values(47)) and not np.array_equal(every, sampled)
    assert np.allclose(sampled, every, atol=5.0)  # a set of aces: 50-65 chips per option either way
    assert every.min() > 20


def test_paired_difference_is_the_mean_and_normal_half_width():
    diff, half = paired_difference(np.array([3, 4, 8]), np.array([1, 1, 1]))
    assert diff == 4.0
    assert math.isclose(half, Z95 * np.std([2, 3, 7], ddof=1) / math.sqrt(3))


def test_headroom_bench_command_reports_each_variant_against_exploit():
    out = CliRunner().invoke(app, ["bench", "holdem-training", "headroom", "--hands", "12", "--seeds", "1"])
    assert out.exit_code == 0, out.output
    lines = out.output.strip().splitlines()
    assert lines[1].startswith("exploit ") and "W =" in lines[1]
    assert [line.split()[0] for line in lines[2:]] == ["turn-lookahead", "seer"]
    assert all("vs exploit" in line and "paired over 12 hands" in line for line in lines[2:])


def test_headroom_changed_variant_is_the_exploit_bot_with_the_varied_settings():
    same = CliRunner().invoke(app, ["bench", "holdem-training", "headroom", "--hands", "10", "--seeds", "1",
                                    "--variants", "changed", "--set", "preflop_runouts=4"])
    assert same.exit_code == 0, same.output
    assert "vs exploit +0.000 +- 0.000" in same.output.splitlines()[2]  # no --vary: the same bot, same hands
    checker_like = CliRunner().invoke(app, ["bench", "holdem-training", "headroom", "--hands", "30", "--seeds", "1",
                                            "--variants", "changed", "--set", "preflop_runouts=4",
                                            "--vary", "raise_pcts=1", "--vary", "preflop_max_pct=1"])
    assert checker_like.exit_code == 0, checker_like.output
    assert "variants also: raise_pcts=1 preflop_max_pct=1" in checker_like.output.splitlines()[0]
    assert "+- 0.000" not in checker_like.output.splitlines()[2]  # the varied bot plays other hands


def test_bench_commands_name_a_bad_variant_or_bot_in_one_line():
    out = CliRunner().invoke(app, ["bench", "holdem-training", "headroom", "--variants", "seer,oracle"])
    assert isinstance(out.exception, BadValue) and "unknown variant 'oracle'" in str(out.exception)
    out = CliRunner().invoke(app, ["bench", "holdem-training", "strength", "--bots", "exploit,shark"])
    assert out.exit_code == 2 and "unknown bot 'shark'" in out.output and "rate_equity" in out.output
