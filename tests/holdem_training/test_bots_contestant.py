"""Bot configs, the contestant program (statement example, real judge) and the export bundle."""

import io
import json
import os
import sys
import threading
import time

import pytest

from bots.base import ConfigError
from bots.holdem_training import BOTS, bundle, tables
from bots.holdem_training.contestant import play, play_fds
from engine.holdem_training.judge import play_external, play_match
from engine.holdem_training.rules import View

# The statement's example exchange: judge lines, and the lines a contestant answers with.
EXAMPLE_IN = ["1", "STATE 1 1 100 100 10 0", "ALICE 0 12 2 1", "BOARD", "RATES 0.421000 0.010000",
              "OPP FOLD", "RESULT 15", "SCORE 15.000000"]
EXAMPLE_OUT = ["RATE 100", "ACTION RAISE 5"]


@pytest.fixture(scope="module")
def small_tables(tmp_path_factory):
    """Quick, coarse tables (the real ones take a minute to build) in a bundle-style file."""
    path = tmp_path_factory.mktemp("tables") / "tables.npz"
    return str(tables.save(tables.build(boards=60, grid=20), path))


def test_configs_parse_and_reject_clearly():
    spec = BOTS["exploit"]
    config = spec.config_from(["raise_pcts=25/50/100", "runouts_flop=3", "river_lookahead=false"])
    assert config.raise_pcts == (25, 50, 100) and config.runouts_flop == 3 and not config.river_lookahead
    with pytest.raises(ConfigError, match="accepted keys: .*runouts_flop"):
        spec.config_from(["runout_flop=3"])
    with pytest.raises(ConfigError, match="runouts_flop=.*integer"):
        spec.config_from(["runouts_flop=many"])
    with pytest.raises(ConfigError, match=r"runouts_turn=0 is outside the accepted range \[1, 1000\]"):
        spec.config_from(["runouts_turn=0"])
    with pytest.raises(ConfigError, match="raise_fraction"):
        BOTS["rate_equity"].config_from(["raise_fraction=1.5"])
    assert set(BOTS) == {"checker", "rate_equity", "exploit"}


def test_contestant_replays_the_statement_example():
    spec = BOTS["rate_equity"]
    bot = spec.make(spec.config_from(["rollouts=100", "threshold=0.4", "raise_fraction=0.05"]))
    out = io.StringIO()
    finished = play(bot, io.StringIO("\n".join(EXAMPLE_IN) + "\n"), out)
    assert out.getvalue().splitlines() == EXAMPLE_OUT
    assert finished == 1


def test_contestant_exits_on_minus_one():
    out = io.StringIO()
    assert play(BOTS["checker"].make(), io.StringIO("2\nSTATE 1 1 100 100 10 0\nALICE 0 12 2 1\nBOARD\n-1\n"),
                out) == 0
    assert out.getvalue() == "ACTION CHECK\n"


def _play_over_pipes(bot, text: bytes, read_size: int) -> tuple[int, bytes]:
    """The live path: raw descriptors, the judge's bytes already waiting, answers read back."""
    judge_in, bot_out = os.pipe()
    with open(judge_in, "rb") as source_reader, open(bot_out, "wb", buffering=0) as source_writer:
        source_writer.write(text)
        source_writer.close()
        answers_in, answers_out = os.pipe()
        with open(answers_in, "rb") as answers, open(answers_out, "wb", buffering=0) as sink:
            finished = play_fds(bot, source_reader.fileno(), sink.fileno(), read_size=read_size)
            sink.close()
            return finished, answers.read()


@pytest.mark.parametrize("read_size", [1, 7, 65536])
def test_raw_descriptor_path_is_byte_exact_whatever_the_chunking(read_size):
    spec = BOTS["rate_equity"]
    bot = spec.make(spec.config_from(["rollouts=100", "threshold=0.4", "raise_fraction=0.05"]))
    finished, out = _play_over_pipes(bot, ("\n".join(EXAMPLE_IN) + "\n").encode(), read_size)
    assert out == ("\n".join(EXAMPLE_OUT) + "\n").encode()
    assert finished == 1


def test_raw_descriptor_path_stops_at_minus_one_and_at_end_of_input():
    lines = "2\nSTATE 1 1 100 100 10 0\nALICE 0 12 2 1\nBOARD\n"
    assert _play_over_pipes(BOTS["checker"].make(), (lines + "-1\n").encode(), 5) == (0, b"ACTION CHECK\n")
    # No newline after the last line, then end of input: the line still counts, then the match is over.
    assert _play_over_pipes(BOTS["checker"].make(), lines[:-1].encode(), 3) == (0, b"ACTION CHECK\n")


def test_raw_descriptor_path_waits_for_a_slow_judge():
    """Lines that arrive after the short poll gave up are read after sleeping in select()."""
    judge_in, judge_out = os.pipe()
    answers_in, answers_out = os.pipe()
    lines = [b"1\n", b"STATE 1 1 100 100 10 0\n", b"ALICE 0 12 2 1\nBOARD\n", b"OPP CHECK\n", b"-1\n"]

    def slow_judge():
        with open(judge_out, "wb", buffering=0) as out:
            for chunk in lines:
                time.sleep(0.02)  # far longer than the poll
                out.write(chunk)

    writer = threading.Thread(target=slow_judge)
    writer.start()
    with open(judge_in, "rb") as source, open(answers_in, "rb") as answers:
        with open(answers_out, "wb", buffering=0) as sink:
            assert play_fds(BOTS["checker"].make(), source.fileno(), sink.fileno()) == 0
        writer.join()
        assert answers.read() == b"ACTION CHECK\n"


@pytest.mark.parametrize("name, settings", [("checker", []), ("rate_equity", ["rollouts=20"])])
def test_contestant_through_the_real_judge_matches_in_process(name, settings):
    argv = [sys.executable, "-m", "bots.holdem_training.contestant", "--bot", name]
    for item in settings:
        argv += ["--set", item]
    external = play_external(argv, seed=5, hands=30)
    spec = BOTS[name]
    internal = play_match(spec.make(spec.config_from(settings)), seed=5, hands=30)
    assert external.status == "ok", external.reason
    assert external.average_profit == internal.average_profit
    if name == "checker":
        assert set(external.log.payoffs.tolist()) <= {0, 5, 10}


@pytest.mark.slow  # exports and runs the exploit bundle
def test_exported_exploit_bundle_plays_like_the_in_process_bot(tmp_path, small_tables):
    settings = [f"tables_path={small_tables}", "preflop_runouts=2", "runouts_flop=2", "runouts_turn=2",
                "equity_runouts_flop=4", "equity_runouts_turn=8"]
    made = bundle.write(tmp_path / "bundle", "exploit", settings)
    assert made.warm_status == "ok" and made.run.exists()
    frozen = json.loads((tmp_path / "bundle" / "config.json").read_text())
    assert frozen["bot"] == "exploit" and frozen["config"]["runouts_flop"] == 2
    assert frozen["config"]["cpu_budget"] == bundle.CONTEST_CPU_BUDGET == 9.0  # paced to the contest's 10 s
    assert frozen["config"]["tables_path"] == str(tmp_path / "bundle" / "tables.npz")
    external = play_external([str(made.run)], seed=9, hands=25)
    spec = BOTS["exploit"]
    internal = play_match(spec.make(spec.config_from(settings)), seed=9, hands=25)
    assert external.status == "ok", external.reason
    assert external.average_profit == internal.average_profit
    assert "exploit: 0 of 25 hands decided lean (2 completions) to keep a 9 s CPU pace" in external.stderr_tail


def test_export_rejects_unknown_bots_and_keys(tmp_path):
    with pytest.raises(KeyError, match="accepted: checker, exploit, rate_equity"):
        bundle.write(tmp_path, "nope")
    with pytest.raises(ConfigError, match="unknown key"):
        bundle.write(tmp_path, "checker", ["x=1"])


def test_the_exploit_bot_behind_its_cpu_pace_decides_with_lean_runouts(small_tables):
    spec = BOTS["exploit"]

    def payoffs(settings, clock=None):
        bot = spec.make(spec.config_from([f"tables_path={small_tables}", "preflop_runouts=2", *settings]))
        if clock is not None:
            bot.clock = clock
        return play_match(bot, seed=4, hands=40).log.payoffs.tolist()

    full, lean = payoffs([]), payoffs(["runouts_flop=1", "runouts_turn=1"])
    assert full != lean  # the completions matter on these hands
    paced = ["cpu_budget=5", "lean_runouts=1"]
    ticks = iter([0.0] + [100.0] * 10_000)  # 0 s at the start, then far behind 5 s / 40 hands
    assert payoffs(paced, lambda: next(ticks)) == lean
    assert payoffs(paced, lambda: 0.0) == full  # on pace: the configured completions
    now = [1.0]
    bot = spec.make(spec.config_from([f"tables_path={small_tables}", "preflop_runouts=2", "cpu_budget=5"]))
    bot.clock = lambda: now[0]
    bot.start_match(40, 0)  # the pace: 1 s spent at the start, then (5 - 1) / 40 = 0.1 s per hand
    for hand, spent, behind in ((1, 1.26, True), (2, 1.34, False), (3, 1.46, True)):
        now[0] = spent
        bot.act(View(hand=hand, round=1, stack=100, opp_stack=100, pot=10, hole=(0, 1), board=()))
        assert bot.lean == behind  # allowed before hand h: 1 + 0.1 * (h - 1) + 5% of 5 s
        bot.end_hand(hand, 0)
    with pytest.raises(ValueError, match="cpu_budget"):
        spec.config_from(["cpu_budget=-1"])


def test_tables_of_an_older_evaluator_layout_are_refused_in_one_line(tmp_path, small_tables):
    # A v2 bundle's tables carry the hash multiplier today's kernels no longer apply: they
    # would rank hands wrongly without a word, so loading them must fail and say what to do.
    import numpy as np

    with np.load(small_tables) as data:
        arrays = {name: data[name] for name in data.files}
    assert int(arrays["multiplier"][0]) == 1 << 16
    arrays["multiplier"] = np.array([0x9E3779B97F4A7C15], np.uint64)
    old = tables.save(arrays, tmp_path / "old.npz")
    with pytest.raises(tables.StaleTables, match="older evaluator layout.*export the bundle again"):
        tables.load(old)
