"""The ranged bot's read prior (issue 32): Reads can start from counts made from logged games
(flows/opponents/cg_holdem_prior.py), capped per strength bin, embedded in the exported program."""

import json
import sys

import pytest

from bots.base import ConfigError
from bots.cg_holdem import BOTS
from bots.cg_holdem.export import write_submission
from bots.cg_holdem.reads import AGGRESSIVE, BINS, FOLD, PASSIVE, Reads
from engine.cg_holdem.judge import BotSeat, ProgramSeat, play_game
from engine.cg_holdem.protocol import Setup
from engine.cg_holdem.rules import GameConfig

SPEC = BOTS["ranged"]


def table(fold, passive, aggressive):
    return [list(fold), list(passive), list(aggressive)]


# folds the bottom half, raises the top half: 40 hands a bin seen in bins 0 and 9, 2 in bin 5
PRIOR = {"pre_first": table([40, 0, 0, 0, 0, 1, 0, 0, 0, 0], [0] * BINS, [0, 0, 0, 0, 0, 1, 0, 0, 0, 40])}
# a stealer that folds to every bet: raises any two cards first in, folds any hand facing a bet
STEALER = {"pre_first": table([0] * BINS, [0] * BINS, [40] * BINS),
           "facing": table([40] * BINS, [0] * BINS, [0] * BINS),
           "pre_facing": table([40] * BINS, [0] * BINS, [0] * BINS)}


def test_a_prior_starts_each_bin_worth_at_most_its_weight_and_keeps_its_shares():
    r = Reads(PRIOR, 5.0)
    fold = r.chance("pre_first", FOLD, 3.0)
    assert fold is not None  # read from the first hand on
    assert sum(r.counts["pre_first"][k][0] for k in range(3)) == pytest.approx(5.0)  # 40 seen, capped at 5
    assert sum(r.counts["pre_first"][k][5] for k in range(3)) == pytest.approx(2.0)  # 2 seen stay 2
    assert fold(0.05, 0.5) == pytest.approx((5 + 3 * 0.5) / (5 + 3))
    assert r.chance("pre_first", AGGRESSIVE, 3.0)(0.95, 0.5) == pytest.approx((5 + 1.5) / 8)
    assert r.chance("pre_first", PASSIVE, 3.0)(0.35, 0.2) == pytest.approx(0.2)  # a bin it never saw: the guess
    assert r.chance("facing", FOLD, 3.0) is None  # a situation it has not: the frequency model alone
    r.add("pre_first", AGGRESSIVE, 0.05)  # the game's own hands add to it
    assert r.counts["pre_first"][AGGRESSIVE][0] == pytest.approx(1.0)


def test_every_opponent_starts_from_the_prior_and_without_one_from_nothing():
    with_prior = SPEC.make(SPEC.config_from([f"read_prior={json.dumps(PRIOR)}", "read_prior_weight=2"]))
    with_prior.start(Setup(5, 10, 10, 2, 2400, 1, 3, 0))
    assert all(with_prior.reads[s].counts["pre_first"][FOLD][0] == pytest.approx(2.0) for s in range(3))
    plain = SPEC.make()
    plain.start(Setup(5, 10, 10, 2, 2400, 1, 3, 0))
    assert all(not plain.reads[s].counts for s in range(3))


@pytest.mark.parametrize("text, why", [("{not json", "not JSON"), ('{"pre_first": [[1, 2]]}', "not a read prior"),
                                       ('{"river": [[0], [0], [0]]}', "not a read prior"),
                                       ('{"lead": [[-1, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0], [0]]}', "not a read prior")])
def test_a_malformed_prior_is_refused_in_one_line(text, why):
    with pytest.raises(ConfigError) as err:
        SPEC.config_from([f"read_prior={text}"])
    assert why in str(err.value) and "read_prior" in str(err.value) and "\n" not in str(err.value)


def test_the_export_embeds_the_prior_and_plays_like_the_in_process_bot(tmp_path):
    config = SPEC.config_from([f"read_prior={json.dumps(STEALER)}", "safety_ms=1000", "samples=60"])
    path = write_submission(tmp_path / "ranged.py", SPEC, config)
    limits = GameConfig(players=2, first_turn_ms=5000, turn_ms=2000)
    program = ProgramSeat([sys.executable, str(path)], first_turn_ms=5000, turn_ms=2000)
    exported = play_game([program, BotSeat(BOTS["aggressive"].make())], seed=9, config=limits)
    assert exported.seat_reports[0]["failure"] is None and exported.seat_reports[0]["answers"] > 10
    in_process = play_game([BotSeat(SPEC.make(config)), BotSeat(BOTS["aggressive"].make())], seed=9, config=limits)
    assert exported.history == in_process.history
    plain = play_game([BotSeat(SPEC.make(SPEC.config_from(["samples=60"]))), BotSeat(BOTS["aggressive"].make())],
                      seed=9, config=limits)
    assert plain.history != in_process.history  # the prior changed what the bot did
