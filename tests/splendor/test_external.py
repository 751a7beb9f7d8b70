"""The per-move runner on tiny external agents: bad output, crashes, CPU and wall limits."""

import sys
import textwrap

import pytest

from engine.splendor import state as st
from engine.splendor.agents import AgentNotFound, ExternalAgent
from engine.splendor.judge import game_deal, play_game
from engine.splendor.protocol import output_tokens
from engine.splendor.rules import SplendorConfig

from .test_protocol import EXAMPLE


def agent(tmp_path, name, body, **limits) -> ExternalAgent:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "agent.py").write_text(textwrap.dedent(body))
    return ExternalAgent(name, f"{sys.executable} {folder / 'agent.py'}", **limits)


def fresh():
    return st.GameState.new(game_deal(2, 0, 2), SplendorConfig(players=2))


def test_agent_runs_in_its_own_directory_reads_stdin_and_kibitzes(tmp_path):
    bot = agent(tmp_path, "echo", """
        import os, sys
        text = sys.stdin.read()
        open("seen.txt", "w").write(text)
        print("kibitz  hello there ", file=sys.stderr)
        print("noise", file=sys.stderr)
        print("1 2\\n0  1")
    """)
    reply = bot.respond(EXAMPLE)
    assert (tmp_path / "echo" / "seen.txt").read_text() == EXAMPLE
    assert output_tokens(reply.stdout) == ["1", "2", "0", "1"] and reply.kibitzes == ("hello there",)


def test_stray_text_makes_the_move_a_pass(tmp_path):
    bot = agent(tmp_path, "chatty", "print('move: 1 0')\n")
    game = fresh()
    event = st.play_tokens(game, output_tokens(bot.respond(EXAMPLE).stdout), name="chatty")
    assert event.move is None and event.message == "Sar peste chatty: Cuvîntul [move:] nu este un întreg."


def test_a_crashed_agent_still_gets_its_printed_move(tmp_path):
    bot = agent(tmp_path, "crash", """
        import sys
        print("1 3 0 1 2", flush=True)
        sys.exit(3)
    """)
    reply = bot.respond(EXAMPLE)
    assert reply.returncode == 3
    event = st.play_tokens(fresh(), output_tokens(reply.stdout))
    assert event.move == st.Move(1, (0, 1, 2))
    strict = agent(tmp_path, "strict", "print('1 0')\nraise SystemExit(1)\n", strict_exit=True)
    assert strict.respond(EXAMPLE).stdout == ""


@pytest.mark.slow  # burns CPU to the limit
def test_cpu_limit_stops_a_spinner_but_keeps_its_output(tmp_path):
    bot = agent(tmp_path, "spin", """
        import sys
        sys.stdout.write("2 4")
        sys.stdout.flush()
        while True:
            pass
    """, cpu_seconds=1, wall_seconds=10)
    reply = bot.respond(EXAMPLE)
    assert reply.limit == "cpu" and output_tokens(reply.stdout) == ["2", "4"]
    # stopped by its CPU (1 s), not by the wall guard (10 s): on a loaded machine 1 s of CPU may take
    # several seconds of wall time, so the CPU it was charged is what tells the two apart
    assert 0.9 <= reply.cpu_seconds < 3


@pytest.mark.slow  # waits out a wall limit
def test_wall_guard_stops_a_sleeper(tmp_path):
    bot = agent(tmp_path, "sleep", """
        import time
        print("1 1 3", flush=True)
        time.sleep(30)
    """, wall_seconds=1.0)
    reply = bot.respond(EXAMPLE)
    assert reply.limit == "wall" and output_tokens(reply.stdout) == ["1", "1", "3"]


def test_a_silent_program_passes_and_the_game_goes_on(tmp_path):
    silent = agent(tmp_path, "silent", "pass\n")
    other = agent(tmp_path, "silent2", "pass\n")
    config = SplendorConfig(players=2, max_rounds=2)
    result = play_game([silent, other], game_deal(4, 0, 2), config=config)
    assert result.rounds == 2 and result.winners == ()
    assert [t.event.message for t in result.turns[:2]] == [
        "Sar peste silent: Acțiunea este prea scurtă.", "Sar peste silent2: Acțiunea este prea scurtă."]


def test_a_missing_program_is_refused_before_the_match(tmp_path):
    # The arbiter will not start with a missing binary (it would otherwise pass every move).
    with pytest.raises(AgentNotFound, match="nope"):
        ExternalAgent("missing", str(tmp_path / "nope"))


def test_kibitz_lines_survive_a_long_stderr(tmp_path):
    bot = agent(tmp_path, "chatter", """
        import sys
        print("kibitz first thought", file=sys.stderr)
        print("x" * 5000, file=sys.stderr)
        print("kibitz last thought", file=sys.stderr)
        print("1 0")
    """)
    assert bot.respond(EXAMPLE).kibitzes == ("first thought", "last thought")
