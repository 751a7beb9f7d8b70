"""The clone test as a benchmark (issue 27): fit each cg-holdem bot from logged games, then check the
candidates rank the same way against the clone as against the original.

For each target bot: heads-up matches of the target against every other bot, at most --games logged
games in all, go to a scratch hand log; `flows.opponents` fits the target from them; then every
candidate plays --test-games heads-up games against the original and against the clone on the same
deals (flows/opponents/clone_test.py). Prints one line per target and a JSON summary (last line).

    .venv/bin/python -m bench.cg_holdem.clone_test --games 300 --test-games 200 [--targets a/b] [--home DIR] \
        [--program NAME='python3 PATH' ...]
"""

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

DEFAULT_TARGETS = ("aggressive", "montecarlo", "pushfold", "station")


def _per_opponent(games: int, others: list[str]) -> int:
    return max(2, games // len(others)) // 2 * 2  # whole duplicate pairs (each deal in both seats)


def _log_training(target: str, others: list[str], games: int, seed: int, command: str = "") -> list[str]:
    """Heads-up matches of the target (a bot, or a program's `command`) against each other bot."""
    from flows.match import MatchPlan, run_match
    from flows.store import HandLog

    per = _per_opponent(games, others)
    ids = []
    with HandLog() as store:
        for k, other in enumerate(others):
            plan = MatchPlan(game="cg-holdem", bot="program" if command else target, program=command,
                             options=(("opponents", other), ("players", "2")), seed=seed * 100 + k, units=per,
                             chunk_size=per)
            # named ids, to read the scratch log by; the split and the model id follow the deals, not these
            ids.append(run_match(plan, store, match_id=f"clone-{target}-{other}-s{seed}").match_id)
    return ids


def run(targets: list[str], candidates: list[str], *, games: int, test_games: int, seed: int,
        programs: dict[str, str] | None = None) -> list[dict]:
    """`targets` are bots, or names of `programs` (name -> command line; logged as the seat `program`)."""
    from flows import opponents
    from flows.opponents.clone_test import clone_test
    from flows.store import HandLog

    out = []
    for target in targets:
        started = time.perf_counter()
        others = [c for c in candidates if c != target]
        command = (programs or {}).get(target, "")
        matches = _log_training(target, others, games, seed, command)
        model = opponents.fit("cg-holdem", "program" if command else target, matches=matches, seed=seed)
        with HandLog() as store:
            stored = opponents.save(model, store=store, mlflow=False)
        test = clone_test("cg-holdem", stored.model_id, command or target, candidates, games=test_games,
                          seed=seed + 7)
        row = {"target": target, "model": stored.model_id, "logged_games": len(matches) * _per_opponent(games, others),
               "decisions": model.decisions, "heldout_logloss": round(model.heldout_logloss, 4),
               "population_logloss": round(model.baseline_logloss, 4),
               "uniform_logloss": round(model.uniform_logloss, 4), "seconds": round(time.perf_counter() - started),
               **test.as_dict()}
        out.append(row)
        print(f"{target}: {row['logged_games']} games, {model.decisions} decisions; held-out log-loss "
              f"{model.heldout_logloss:.3f} (population {model.baseline_logloss:.3f}, uniform "
              f"{model.uniform_logloss:.3f}); ranking vs original {' > '.join(test.ranking_original)}, vs clone "
              f"{' > '.join(test.ranking_clone)}: {'same' if test.same_ranking else 'DIFFERENT'} "
              f"(pairs the original separates: "
              f"{'order kept' if test.separated_order_kept else 'ORDER CHANGED'}); "
              f"{sum(r.agrees for r in test.results)}/{len(test.results)} candidates agree within the interval",
              file=sys.stderr, flush=True)
        for r in test.results:
            print(f"    {r.candidate:12s} vs original {r.vs_original:.3f}  vs clone {r.vs_clone:.3f}  "
                  f"difference {r.vs_clone - r.vs_original:+.3f} +/- {r.difference_half:.3f}",
                  file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="logged games per target (at most)")
    parser.add_argument("--test-games", type=int, default=200, help="games per candidate and opponent")
    parser.add_argument("--targets", default="/".join(DEFAULT_TARGETS))
    parser.add_argument("--candidates", default="/".join(DEFAULT_TARGETS))
    parser.add_argument("--program", action="append", default=[],
                        help="NAME=COMMAND: a program to fit and clone-test too (after the targets)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--home", default=None, help="scratch CARDLAB_HOME (default: a new temporary folder)")
    args = parser.parse_args(argv)
    home = Path(args.home or tempfile.mkdtemp(prefix="cardlab-clone-"))
    os.environ["CARDLAB_HOME"] = str(home)
    os.environ["CARDLAB_DB"] = str(home / "data" / "handlog.duckdb")
    from flows.settings import apply_defaults

    apply_defaults()
    programs = dict(p.split("=", 1) for p in args.program)
    targets = [t for t in args.targets.split("/") if t] + list(programs)
    rows = run(targets, args.candidates.split("/"), games=args.games, test_games=args.test_games, seed=args.seed,
               programs=programs)
    print(json.dumps({"home": str(home), "games": args.games, "test_games": args.test_games, "seed": args.seed,
                      "targets": rows}))


if __name__ == "__main__":
    main()
