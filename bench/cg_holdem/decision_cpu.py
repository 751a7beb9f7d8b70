"""CPU per decision of a CodinGame Hold'em bot, in process: the tail the arena's 50 ms turn limit meets.

    nice -n 15 .venv/bin/python -m bench.cg_holdem.decision_cpu [--bot ranged[:k=v:...]] [--games 6] [--seed 9]

Plays `--games` heads-up games against each of aggressive and station and as many four-seat games
(aggressive, montecarlo, station), timing each `act` of the bot with its thread's CPU clock (a loaded
machine slows the wall clock, not the work). The test process's heap is frozen first, so a full garbage
collection of everything imported does not land in a timed decision (the exported program's heap is small).
Prints the decisions, median, 99th percentile and largest CPU in ms. A benchmark, not a test: one decision's
figure depends on what else the process does; tests/cg_holdem/test_ranged.py bounds the mean."""

import argparse
import gc
import statistics
import time

from bots import choice
from bots.cg_holdem import BOTS
from engine.cg_holdem.judge import BotSeat, play_game
from engine.core.settings import ConfigError

TABLES = (("aggressive",), ("station",), ("aggressive", "montecarlo", "station"))


class TimedBot:
    """A bot whose every `act` is timed on its thread's CPU clock (seconds, in `times`)."""

    def __init__(self, bot):
        self.bot, self.times = bot, []

    def start(self, setup):
        self.bot.start(setup)

    def act(self, turn):
        t0 = time.thread_time()
        answer = self.bot.act(turn)
        self.times.append(time.thread_time() - t0)
        return answer


def decision_times(bot: str, *, games: int, seed: int, tables=TABLES) -> list[float]:
    """CPU seconds of every decision of `bot` (an entry, `name:k=v:...`) over `games` games at each table
    (seeds seed, seed + 1, ...)."""
    make = choice.entry(BOTS, bot).make
    times: list[float] = []
    gc.collect()
    gc.freeze()
    try:
        for others in tables:
            for g in range(games):
                timed = TimedBot(make())
                play_game([BotSeat(timed)] + [BotSeat(BOTS[o].make()) for o in others], seed=seed + g)
                times += timed.times
    finally:
        gc.unfreeze()
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="ranged", help="a bot entry, NAME or NAME:k=v:k=v (settings timed too), "
                        f"NAME one of {', '.join(sorted(BOTS))} (default ranged)")
    parser.add_argument("--games", type=int, default=6, choices=range(1, 201), metavar="1..200",
                        help="games per table (default 6)")
    parser.add_argument("--seed", type=int, default=9)
    args = parser.parse_args(argv)
    try:
        times = sorted(decision_times(args.bot, games=args.games, seed=args.seed))
    except ConfigError as error:
        parser.error(str(error))
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"{args.bot}: {len(times)} decisions over {args.games} games at each of {len(TABLES)} tables; CPU per "
          f"decision: median {1e3 * statistics.median(times):.1f} ms, 99th percentile {1e3 * p99:.1f} ms, "
          f"largest {1e3 * times[-1]:.1f} ms, mean {1e3 * statistics.fmean(times):.2f} ms")


if __name__ == "__main__":
    main()
