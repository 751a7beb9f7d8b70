"""Bots: the registry, configs, the computed push/fold chart, and full games."""

import pytest

from bots.base import ConfigError
from bots.cg_holdem import BOTS
from bots.cg_holdem import pushfold_chart as chart
from bots.cg_holdem.pushfold import class_name, combo_weights, solve_depth
from engine.cg_holdem.judge import BotSeat, play_game


def share(depths, depth):
    w = combo_weights()
    return sum(w[c] for c in range(169) if depths[c] >= depth) / w.sum()


def test_chart_agrees_with_the_known_heads_up_equilibrium():
    # Heads-up push/fold at 10 BB: the SB pushes about 58% of hands, the BB calls about 37%.
    assert 0.53 < share(chart.PUSH_DEPTH, 10) < 0.63
    assert 0.32 < share(chart.CALL_DEPTH, 10) < 0.43
    named = {class_name(c): c for c in range(169)}
    assert chart.PUSH_DEPTH[named["AA"]] == 40 and chart.CALL_DEPTH[named["AA"]] == 40
    assert chart.PUSH_DEPTH[named["72o"]] <= 3
    assert abs(chart.EQUITY_VS_RANDOM[named["AA"]] - 0.852) < 0.01


def test_solver_reproduces_the_chart_at_one_depth(class_matrix):
    push, call = solve_depth(class_matrix, 10.0)
    w = combo_weights()
    assert abs((w * (push > 0.5)).sum() / w.sum() - share(chart.PUSH_DEPTH, 10)) < 0.05
    assert abs((w * (call > 0.5)).sum() / w.sum() - share(chart.CALL_DEPTH, 10)) < 0.05


def test_configs_parse_and_reject_clearly():
    spec = BOTS["aggressive"]
    assert spec.config_from(["open_size_bb=3", "samples=50"]).samples == 50
    with pytest.raises(ConfigError, match="accepted keys"):
        spec.config_from(["nope=1"])
    with pytest.raises(ConfigError):
        BOTS["montecarlo"].config_from(["samples=0"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_bot_plays_whole_games(players):
    names = list(BOTS)
    for start in range(len(names)):
        seats = [BOTS[names[(start + k) % len(names)]].make() for k in range(players)]
        result = play_game([BotSeat(b) for b in seats], seed=17 + start)
        assert sorted(result.positions)[0] == 1 and result.rounds <= 600
