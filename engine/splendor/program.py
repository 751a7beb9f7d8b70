"""A user's program in the candidate's seat of a chunk of games (program sweeps, the nightly's replay).

The program plays as the arbiter runs it (agents.ExternalAgent: a fresh process per move in its
folder, 11 s of CPU a move, stdout parsed whatever the exit) against in-process opponents, on the
same deals and seats as a bot's chunk (judge.play_chunk), so configs of a program and bots are
compared on common random numbers.

One difference from the contest, on purpose: a move on which the program crashed (an exit status
other than 0, or a signal, with no limit hit) without printing anything stops the chunk with the
crash's reason (ProgramCrashed), so a sweep records that config as failed and says why, instead
of scoring a broken program as one that passes every move for 100 rounds. A crash after printing
a move, and a limit (the move is a pass), are played as the arbiter plays them.
"""

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.log import ChunkLog
from engine.splendor.agents import Agent, AgentReply, ExternalAgent
from engine.splendor.judge import play_chunk
from engine.splendor.rules import CPU_SECONDS

CANDIDATE = "program"


class ProgramCrashed(RuntimeError):
    """The program crashed on a move without answering (the message: which move, why, its stderr's end)."""


@dataclass
class CrashStops:
    """An external agent whose crash without an answer raises ProgramCrashed."""

    agent: ExternalAgent
    moves: int = 0

    @property
    def name(self) -> str:
        return self.agent.name

    def new_game(self, key: int) -> None:
        self.agent.new_game(key)

    def respond(self, stdin_text: str) -> AgentReply:
        reply = self.agent.respond(stdin_text)
        self.moves += 1
        if reply.crash and not reply.stdout.strip():
            raise ProgramCrashed(f"the program crashed without answering on its move {self.moves}: {reply.crash}")
        return reply


def play_program_chunk(argv: Sequence[str], opponents: Sequence[Agent], *, seed: int, first: int, count: int,
                       env: dict[str, str] | None = None, cpu_seconds: float = CPU_SECONDS) -> ChunkLog:
    """Games first..first+count-1 with the program `argv` (`env` added to its environment) as the
    candidate (judge.play_chunk: seat g % players, opponents in order); payoff = its win share."""
    agent = ExternalAgent(CANDIDATE, shlex.join(argv), cpu_seconds=cpu_seconds, env=dict(env or {}))
    return play_chunk(CrashStops(agent), opponents, seed=seed, first=first, count=count)
