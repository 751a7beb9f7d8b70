"""Run a registered bot as a contest agent: one move per process, stdin in, move out.

Kibitz notes go to stderr with the contest's prefix. Used by `cardlab export splendor`.
"""

import sys
from collections.abc import Sequence
from typing import TextIO

from bots.splendor import BOTS
from engine.splendor.protocol import parse_input
from engine.splendor.rules import KIBITZ_PREFIX


def run_agent(bot: str, settings: Sequence[str] = (), *, stdin: TextIO = sys.stdin,
              stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr) -> int:
    spec = BOTS[bot]
    agent = spec.make(spec.config_from(list(settings)))
    move = agent.act(parse_input(stdin.read()))
    stdout.write(move + "\n")
    stdout.flush()
    for note in getattr(agent, "kibitz", ()) or ():
        stderr.write(f"{KIBITZ_PREFIX}{note}\n")
    return 0
