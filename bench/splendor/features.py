"""Speed of the Splendor move features (bots/splendor/clone.py), greedy's move (bots/splendor/simple.py) and
the opponent-model fit (flows/opponents/splendor.py) against their slow twin (bench/splendor/features_reference.py:
the code before it was made fast). Both sides run alternately in one process on the same positions and the
same logged games, and must give the same answers; CPU time (process_time), the best of --repeats each.

    nice -n 15 .venv/bin/python -m bench.splendor.features [--games 6] [--fit-games 12] [--repeats 3]
"""

import argparse
import tempfile
import time
from pathlib import Path
from unittest import mock

from bench.splendor import features_reference as ref
from bots.splendor import BOTS, clone, simple
from engine.splendor import state as st
from flows import events
from flows.games.splendor import SPEC, SplendorOptions
from flows.opponents import splendor as model
from flows.store import log_judged_match, read_only


def best_cpu(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def interleaved(slow, fast, repeats: int) -> tuple[float, float]:
    """(slow, fast) CPU seconds, best of `repeats`, the two alternating so a change in load hits both."""
    slow_t, fast_t = [], []
    for _ in range(repeats):
        slow_t.append(best_cpu(slow, 1))
        fast_t.append(best_cpu(fast, 1))
    return min(slow_t), min(fast_t)


def features(games: int, repeats: int) -> dict:
    positions = list(ref.positions(1, games, 2))
    codes = [st.legal_codes(g) for g in positions]
    for g, c in zip(positions, codes, strict=True):  # the same answers before any timing
        if clone.move_features(g, c).tobytes() != ref.move_features(g, c).tobytes():
            raise AssertionError("move_features differs from its slow twin")
    slow, fast = interleaved(lambda: [ref.move_features(g, c) for g, c in zip(positions, codes, strict=True)],
                             lambda: [clone.move_features(g, c) for g, c in zip(positions, codes, strict=True)],
                             repeats)
    cfg = simple.GreedyConfig()
    if any(simple.greedy_move(g, cfg) != ref.greedy_move(g, cfg) for g in positions):
        raise AssertionError("greedy's move differs from its slow twin")
    g_slow, g_fast = interleaved(lambda: [ref.greedy_move(g, cfg) for g in positions],
                                 lambda: [simple.greedy_move(g, cfg) for g in positions], repeats)
    return {"positions": len(positions), "moves": sum(map(len, codes)), "features_slow": slow,
            "features_fast": fast, "greedy_slow": g_slow, "greedy_fast": g_fast}


def fit(games: int, repeats: int) -> dict:
    """model.fit of greedy on `games` logged games of greedy against random (as tests/splendor/test_clone_model.py
    logs them), with the slow twin's features patched in, then the fast ones."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "log.duckdb"
        log = SPEC.play_chunk(BOTS["greedy"], BOTS["greedy"].default_config(), seed=3, first=0, count=games,
                              options=SplendorOptions(opponent="random"))
        log_judged_match(SPEC, bot="greedy", config={}, seed=3, log=events.encode(log, SPEC), db=db,
                         options={"opponent": "random"})
        con = read_only(db)
        fitted = {}

        def run(name, features):
            with mock.patch.object(model, "move_features", features):
                fitted[name] = model.fit(con, "greedy", holdout=0.5)

        slow, fast = interleaved(lambda: run("slow", ref.move_features), lambda: run("fast", clone.move_features),
                                 repeats)
        same = fitted["slow"].params == fitted["fast"].params
        if not same:
            raise AssertionError("the model fitted on the fast features differs")
        return {"games": games, "decisions": fitted["fast"].decisions + fitted["fast"].heldout_decisions,
                "fit_slow": slow, "fit_fast": fast}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, choices=range(1, 101), metavar="1..100",
                        help="2-player games whose positions time the features and greedy (default 6)")
    parser.add_argument("--fit-games", type=int, default=12, choices=range(0, 201), metavar="0..200",
                        help="logged games of greedy against random for the fit (0: no fit; default 12)")
    parser.add_argument("--repeats", type=int, default=3, choices=range(1, 21), metavar="1..20",
                        help="timings of each side, the best kept (default 3)")
    args = parser.parse_args(argv)
    f = features(args.games, args.repeats)
    print(f"{f['positions']} positions, {f['moves']} legal moves; CPU seconds, best of {args.repeats}, slow twin first")
    ratio = f["features_slow"] / f["features_fast"]
    print(f"move_features  {f['features_slow']:.3f}  {f['features_fast']:.3f}  x{ratio:.1f}  "
          f"({1e3 * f['features_fast'] / f['positions']:.2f} ms a position)")
    print(f"greedy_move    {f['greedy_slow']:.3f}  {f['greedy_fast']:.3f}  x{f['greedy_slow'] / f['greedy_fast']:.1f}")
    if args.fit_games:
        m = fit(args.fit_games, args.repeats)
        print(f"model.fit      {m['fit_slow']:.3f}  {m['fit_fast']:.3f}  x{m['fit_slow'] / m['fit_fast']:.1f}  "
              f"({m['games']} games of greedy vs random, {m['decisions']} decisions; the same model)")


if __name__ == "__main__":
    main()
