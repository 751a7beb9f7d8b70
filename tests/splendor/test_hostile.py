"""The Splendor arbiter's per-move runner against hostile agents: each move ends within its wall
guard plus 5 s with the verdict the arbiter's rule gives (whatever stdout held is parsed), no
process of the agent's survives, and it sees none of the judge's variables."""

import shlex
import shutil
import sys
import time
import uuid
from pathlib import Path

import pytest

from engine.core import sandbox
from engine.splendor.agents import ExternalAgent
from engine.splendor.protocol import output_tokens
from tests.core.test_contestant import HOSTILE, survivors

from .test_protocol import EXAMPLE

WALL = 1.5


def move(mode: str, *extra: str, folder: Path, **kwargs):
    program = folder / "agent.py"  # the agent runs, and may write, in its own folder
    shutil.copy(HOSTILE, program)
    marker = uuid.uuid4().hex
    wall = 90 if mode == "burn" else WALL  # a loaded machine gives it a fraction of a core (CI saw >30 s at load 20)
    agent = ExternalAgent("hostile", shlex.join([sys.executable, str(program), marker, mode, *extra]),
                          cpu_seconds=1, wall_seconds=wall, **kwargs)
    started = time.monotonic()
    reply = agent.respond(EXAMPLE)
    assert time.monotonic() - started < wall + 5
    assert survivors(marker) == []
    return reply


@pytest.mark.parametrize("mode, limit", [("sleep", "wall"), ("flood", "output"), ("bigline", "output"),
                                         ("noread_nonewline", "output"), ("burn", "cpu"), ("close_stdout", None),
                                         ("garbage", "wall")])
@pytest.mark.slow  # waits out each limit
def test_a_hostile_move_gets_its_verdict_in_time(mode, limit, tmp_path):
    reply = move(mode, folder=tmp_path)
    assert reply.limit == limit
    if mode == "flood":  # what it printed before the limit is its move, as the arbiter parses stdout
        assert output_tokens(reply.stdout)[:2] == ["ACTION", "CHECK"]


def test_a_daemon_dies_with_the_move_and_secrets_stay_hidden(tmp_path, monkeypatch):
    monkeypatch.setenv("FOO_TOKEN", "secret-value")
    seen = tmp_path / "seen.txt"
    reply = move("escape_exit", str(seen), folder=tmp_path, env={"HOSTILE_EXTRA": "given"})
    assert reply.limit is None and reply.returncode == 0
    assert reply.isolation in (sandbox.NAMESPACES, sandbox.READONLY_FS, sandbox.SUBREAPER)
    text = seen.read_text()
    assert "FOO_TOKEN=unset" in text and "HOSTILE_EXTRA=given" in text
    # The arbiter's rule: the agent runs in its own folder and may keep files there.
    assert f"cwd={tmp_path}" in text and (tmp_path / "left_behind.txt").exists()
