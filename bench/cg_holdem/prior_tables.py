"""A read prior with other settings, paired at several tables and pooled over them (issue 32; prior_paired's
candidates plus any of the bot's settings, ranged_paired's report per table).

    CARDLAB_DB=PRIOR_LOG python -m bench.cg_holdem.prior_tables --rev REV --seed 9732 \\
        --against aggressive/style:lag/style:pushfold --against aggressive \\
        base field=read_prior=log:aggressive+lag field3=read_prior=log:aggressive+lag,call_prior=3

A candidate is `base` (the defaults of ranged.py at REV) or NAME=k=v[,k=v...]: settings of that bot, a
`read_prior` resolved as `cardlab export --set read_prior=` resolves it (flows/opponents/cg_holdem_prior.py; a
JSON file, model ids or `log:` names in the hand log CARDLAB_DB points at). Each table prints ranged_paired's
lines (mean finish score and position, every later candidate minus the first per game, 95%); then, per
candidate, the tables pooled: the mean of the tables' paired differences, their standard errors combined,
normal 95%. `--luck` takes each game's all-in luck out of every figure, the pooled ones too (ranged_paired's
--luck; the raw pooled figure beside), and `--save` then keeps each game's correction too (`TABLE|NAME|luck`).
"""

import argparse
import math

import numpy as np

from bench.cg_holdem.ranged_paired import chunk_luck, committed_module, maker, one_line_errors, report
from bots.base import build_config
from engine.cg_holdem import judge
from flows.opponents.cg_holdem_prior import resolve_settings
from flows.stats import paired_mean_interval


def candidate(module, entry: str):
    """(name, a maker of the committed bot with this entry's settings), the settings parsed and range-checked as
    the bot's registry parses them."""
    name, _, settings = entry.partition("=")
    return configured(module, name, [s for s in settings.split(",") if s])


def configured(module, name: str, settings: list[str]):
    """(name, a maker of the committed bot with these k=v settings, a read_prior resolved)."""
    config = build_config(module.RangedConfig, resolve_settings(settings), owner=f"candidate {name!r}")
    return name, lambda: module.RangedBot(config)


def pooled(diffs: list[np.ndarray]) -> tuple[float, float, float]:
    """(mean of the tables' mean differences, its 95% interval): standard errors combined, normal; with no spread
    at all (every game tied), the worst case of a finish-score difference, as each table's line gives it."""
    mean = sum(d.mean() for d in diffs) / len(diffs)
    se = math.sqrt(sum(d.var(ddof=1) / len(d) for d in diffs)) / len(diffs)
    m = paired_mean_interval(sum(len(d) for d in diffs), mean, se, (-1.0, 1.0))
    return m.mean, m.low, m.high


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", nargs="+", help="base or NAME=k=v[,k=v]; the first is the baseline")
    ap.add_argument("--rev", required=True, help="the git revision of the ranged bot (ranged.py, RANGED_PARTS)")
    ap.add_argument("--against", required=True, action="append", help="a table: opponents separated by '/' "
                    "(bots or style:NAME); repeat for more tables")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--save", help="a .npz file of every candidate's finish score per game, by table")
    ap.add_argument("--luck", action="store_true", help="take each game's all-in luck out of every figure "
                    "(module doc)")
    args = ap.parse_args(argv)
    with one_line_errors(ap):  # every name, setting and table checked before the first game
        module = committed_module(args.rev)
        makers = dict(candidate(module, e) for e in args.candidates)
        for table in args.against:
            [maker(a) for a in table.split("/") if a]
    diffs: dict[str, list[np.ndarray]] = {name: [] for name in makers}
    raws: dict[str, list[np.ndarray]] = {name: [] for name in makers}  # with --luck: the raw differences too
    saved: dict[str, np.ndarray] = {}
    for table in args.against:
        against = [maker(a) for a in table.split("/") if a]
        logs = {name: judge.play_chunk([make, *against], seed=args.seed, first=0, count=args.games)
                for name, make in makers.items()}
        scores = {name: np.asarray(log.payoffs) for name, log in logs.items()}
        luck = {name: chunk_luck(log) for name, log in logs.items()} if args.luck else None
        print(f"ranged@{args.rev} against {table}, seed {args.seed}:")
        print("\n".join(report(scores, players=1 + len(against), luck=luck)), flush=True)
        base = next(iter(scores))
        for name, s in scores.items():
            raws[name].append(s - scores[base])
            diffs[name].append(raws[name][-1] if luck is None else (s - luck[name]) - (scores[base] - luck[base]))
            saved[f"{table}|{name}"] = s
            if luck is not None:
                saved[f"{table}|{name}|luck"] = luck[name]
        if args.save:  # after each table: a long run's finished tables are kept
            np.savez(args.save, **saved)
    if len(args.against) > 1:
        for name in list(makers)[1:]:
            mean, low, high = pooled(diffs[name])
            line = (f"pooled over {len(args.against)} tables, {name} minus {args.candidates[0]}: "
                    f"{mean:+.4f} [{low:+.4f}, {high:+.4f}] per game")
            if args.luck:
                raw = pooled(raws[name])
                line += f" luck out; raw {raw[0]:+.4f} [{raw[1]:+.4f}, {raw[2]:+.4f}]"
            print(line)


if __name__ == "__main__":
    main()
