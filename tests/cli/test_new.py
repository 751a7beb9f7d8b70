"""`cardlab new`: every game's starter in every language it offers is written, built, and judged
by the commands it prints, and plays legally (what "legally" shows is each judge's own output)."""

import shlex
import subprocess

import pytest

from flows.games import specs
from tests.cli.test_signals import CARDLAB

BUILT_IN = ("cg-holdem", "holdem-training", "splendor", "tractor", "twocarddraw")
STARTERS = [(s.name, lang) for s in specs() if s.name in BUILT_IN for lang in s.starters]

# What each judge prints when the program read every input and every answer was accepted.
PLAYED_LEGALLY = {
    "holdem-training": lambda out, rc: rc == 0 and "status ok" in out and "SCORE" in out,
    "cg-holdem": lambda out, rc: rc == 0 and "TIMEOUT" not in out,
    "splendor": lambda out, rc: rc == 0 and out.count("crashes 0; passes 0") == 2,
    # the starter reads every case and answers in the contest's shape but scores nothing yet
    "tractor": lambda out, rc: rc == 1 and "wrong answer: 0/3 cases match" in out and "case 1: expected" in out,
    "twocarddraw": lambda out, rc: rc == 0,
}


def new(env, tmp_path, *args):
    return subprocess.run([CARDLAB, "new", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180)


def test_every_built_in_game_has_a_python_starter_and_a_check():
    assert {g for g, lang in STARTERS if lang == "python"} == set(BUILT_IN)
    assert set(PLAYED_LEGALLY) == set(BUILT_IN)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "lang"), STARTERS)
def test_a_new_bot_builds_and_its_printed_commands_judge_it(env, tmp_path, game, lang):
    made = new(env, tmp_path, game, "--lang", lang, "--dir", "mine")
    assert made.returncode == 0, made.stderr
    lines = made.stdout.splitlines()
    commands = [line.strip() for line in lines[lines.index("try it:") + 2:] if line.startswith("  cardlab ")]
    assert commands, made.stdout
    for command in commands:
        argv = shlex.split(command)
        done = subprocess.run([CARDLAB, *argv[1:]], cwd=tmp_path / "mine", env=env, capture_output=True, text=True,
                              timeout=300)
        if command != commands[-1]:  # a step that prepares the judging (a server file) must succeed
            assert done.returncode == 0, done.stdout + done.stderr
    assert PLAYED_LEGALLY[game](done.stdout + done.stderr, done.returncode), done.stdout + done.stderr


def test_a_language_the_game_does_not_offer_gets_one_line(env, tmp_path):
    done = new(env, tmp_path, "twocarddraw", "--lang", "cpp")
    assert done.returncode == 2
    assert done.stderr.strip() == "error: twocarddraw has no 'cpp' starter; accepted: python"


def test_an_existing_folder_is_never_overwritten(env, tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "bot.py").write_text("my work\n")
    done = new(env, tmp_path, "holdem-training", "--dir", "mine")
    assert done.returncode == 2 and "not an empty folder" in done.stderr
    assert (tmp_path / "mine" / "bot.py").read_text() == "my work\n"


def test_a_missing_compiler_is_named(env, tmp_path):
    env = dict(env, PATH=str(tmp_path / "nothing"))  # g++ cannot be found
    done = subprocess.run([str(CARDLAB), "new", "cg-holdem", "--lang", "cpp", "--dir", "mine"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 2
    assert done.stderr.startswith("error: g++ is not installed") and "--lang" in done.stderr
