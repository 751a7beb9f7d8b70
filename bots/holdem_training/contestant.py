"""A Hold'em Training contestant: any registered bot speaking the contest protocol on stdin/stdout.

    python -m bots.holdem_training.contestant --bot exploit --set k=v ...
    python -m bots.holdem_training.contestant --config bundle/config.json

Every line out is flushed; reading -1 (or end of input) exits at once. RATE queries of the
bot go to the judge and its RATES answer comes back to the bot.
"""

import argparse
import json
import sys
from typing import TextIO

from engine.holdem_training.protocol import parse_card
from engine.holdem_training.rules import RAISE, RATE_BUDGET, Action, View


class MatchOver(Exception):
    """The judge sent -1, SCORE, or closed the stream."""


class _Judge:
    def __init__(self, reader: TextIO, writer: TextIO):
        self.reader, self.writer = reader, writer

    def line(self) -> list[str]:
        text = self.reader.readline()
        tokens = text.split()
        if not tokens or tokens[0] in ("-1", "SCORE"):
            raise MatchOver(text.strip())
        return tokens

    def send(self, text: str) -> None:
        self.writer.write(text + "\n")
        self.writer.flush()

    def rate(self, rollouts: int) -> tuple[float, float]:
        self.send(f"RATE {rollouts}")
        tokens = self.line()
        if tokens[0] != "RATES" or len(tokens) != 3:
            raise MatchOver(f"expected RATES w d, got {' '.join(tokens)!r}")
        return float(tokens[1]), float(tokens[2])


def _cards(tokens: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(tokens[i], tokens[i + 1]) for i in range(0, len(tokens) - 1, 2))


def _render(action: Action) -> str:
    return f"ACTION {action.kind} {action.amount}" if action.kind == RAISE else f"ACTION {action.kind}"


def play(bot, reader: TextIO, writer: TextIO) -> int:
    """Play a whole match; returns the number of hands that reached a RESULT."""
    judge = _Judge(reader, writer)
    finished = 0
    hand = 0
    try:
        bot.start_match(int(judge.line()[0]), RATE_BUDGET)
        tokens = judge.line()
        while True:
            if tokens[0] == "RESULT":
                finished += 1
                bot.end_hand(hand, int(tokens[1]))
                tokens = judge.line()
                continue
            if tokens[0] != "STATE":
                raise MatchOver(f"unexpected line {' '.join(tokens)!r}")
            hand, r, a, b, pot = (int(t) for t in tokens[1:6])
            hole = _cards(judge.line()[1:])
            board = _cards(judge.line()[1:])
            view = View(hand=hand, round=r, stack=a, opp_stack=b, pot=pot, hole=hole, board=board)
            action = bot.act(view, judge.rate)
            judge.send(_render(action))
            tokens = judge.line()
            if tokens[0] == "OPP":
                bot.observe(view, action, tokens[1])
                tokens = judge.line()
    except MatchOver:
        pass
    return finished


def build_bot(name: str, settings: list[str]):
    from bots.holdem_training import BOTS

    if name not in BOTS:
        raise SystemExit(f"unknown bot {name!r}; accepted: {', '.join(sorted(BOTS))}")
    spec = BOTS[name]
    return spec.make(spec.config_from(settings))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="exploit")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="K=V")
    parser.add_argument("--config", help="a bundle's config.json (bot name and frozen settings)")
    args = parser.parse_args(argv)
    name, settings = args.bot, list(args.settings)
    if args.config:
        with open(args.config) as fh:
            frozen = json.load(fh)
        name = frozen["bot"]
        settings = [f"{k}={_as_text(v)}" for k, v in frozen["config"].items()] + settings
    play(build_bot(name, settings), sys.stdin, sys.stdout)


def _as_text(value) -> str:
    if isinstance(value, list | tuple):
        return "/".join(str(v) for v in value)
    return str(value)


if __name__ == "__main__":
    main()
