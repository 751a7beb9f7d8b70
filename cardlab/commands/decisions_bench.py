"""`cardlab bench decisions`: parse, run bench.decisions, print."""

import json
from pathlib import Path

import typer
from rich.console import Console

from cardlab import checks
from cardlab.errors import fail

console = Console()


def decisions(
    game: str = typer.Option(None, help="Game whose pairs are run (default: the main job's game, the first "
                                        "declaring a demo sweep; a game without pairs is refused with the list)."),
    repeats: int = typer.Option(10, help="Independent runs per pair (each on its own sweep seed).",
                                callback=checks.count),
    pair: list[str] = typer.Option([], "--pair", help="Pairs to run (default: all the game's; an unknown name is "
                                                      "refused with the game's list)."),
    cap: int = typer.Option(20_000, help="Units per config and phase at most.", callback=checks.count),
    seed: int = typer.Option(1000, help="Run r plays sweep seed SEED + r.", callback=checks.seed),
    alpha: float = typer.Option(0.05, help="The SPRT's alpha (and the race's)."),
    beta: float = typer.Option(0.05, help="The SPRT's beta."),
    d1: float = typer.Option(None, help="H1's difference per unit (default: the game's)."),
    workers: int = typer.Option(None, help="Parallel workers (default CARDLAB_WORKERS or 2).", callback=checks.count),
    first_look: int = typer.Option(None, "--first-look", help="Units before the SPRT may decide (default: the "
                                                              "game's).", callback=checks.count),
    resample: str = typer.Option(None, help="Instead of playing: the SPRT's error rates on the real paired "
                                            "differences of this sweep's configs, resampled (--repeats runs each)."),
    no_luck: bool = typer.Option(False, "--no-luck", help="Decide on raw payoffs, without the game's luck "
                                                           "correction (to measure what it saves)."),
    batch: int = typer.Option(None, help="Units between two looks (default: the game's, as sweep --until-decided "
                                         "plays).", callback=checks.count),
    pool: int = typer.Option(None, "--pool", callback=checks.count,
                             help="Instead of full sweeps (the faster harness): the pairs' configs on this many "
                                  "deals (seeds SEED, SEED+1, ... in parts of --part), then the confirmation's SPRT "
                                  "run after run on consecutive disjoint blocks of their paired differences, and "
                                  "--repeats resampled runs at d0 and d1."),
    part: int = typer.Option(10_000, help="With --pool: deals per part (part p plays seed SEED + p; parts play in "
                                          "parallel).", callback=checks.count),
    luck: int = typer.Option(None, "--luck", callback=checks.count,
                             help="Instead: the pairs' configs on this many deals of --seed, fixed, and what the "
                                  "game's luck correction does to their paired differences (variance-reduction "
                                  "factor, raw and adjusted means)."),
    runs_log: Path = typer.Option(None, "--runs-log", help="Full runs: append one JSON line per run (the decision's "
                                                           "JSON with its pair, run and LLR path) to this file."),
):
    """Error rate and units used by sweeps run until decided, on pairs whose right decision is known, against
    today's fixed design of 20,000 units per config; or, with --resample, the SPRT on a sweep's own paired
    differences resampled at d0 and at d1."""
    from bench.decisions import FIXED_PER_CONFIG, PAIRS, look_every, run
    from cardlab import prefect_local
    from flows import games
    from flows.decide import make_rule

    game = game or games.demo_game()  # named by the games' declarations, not here
    if luck:
        _luck(game, hands=luck, seed=seed, pairs=tuple(pair) or None)
        return
    if resample:
        _resampled(game, resample, make_rule(game, d1=d1, alpha=alpha, beta=beta, first_look=first_look),
                   runs=repeats, cap=cap, seed=seed, batch=batch or look_every(game))
        return
    if game not in PAIRS:
        fail(f"--game {game}: no benchmark pairs; accepted: {', '.join(PAIRS)}")
    known = [p.name for p in PAIRS[game]]
    unknown = [p for p in pair if p not in known]
    if unknown:
        fail(f"--pair {unknown[0]}: unknown; accepted: {', '.join(known)}")
    rule = make_rule(game, d1=d1, alpha=alpha, beta=beta, race_alpha=alpha, first_look=first_look,
                     luck=not no_luck)
    batch = min(cap, batch or look_every(game))
    if pool:
        _pooled(game, rule, hands=pool, seed=seed, pairs=tuple(pair) or None, runs=repeats, cap=cap, batch=batch,
                workers=workers or 2, part=part)
        return
    if runs_log is not None and not runs_log.parent.is_dir():
        fail(f"--runs-log {runs_log}: its folder does not exist; accepted: a file in an existing folder")
    prefect_local.ensure()

    def write(p, r, got, looks):
        with runs_log.open("a") as out:
            out.write(json.dumps({"game": game, "pair": p.name, "run": r, "seed": seed + r, "llr_path": got.llr_path,
                                  "looks": looks, "seconds": got.seconds} | json.loads(got.to_json())) + "\n")

    def say(p, r, got):
        typer.echo(f"  {p.name} run {r + 1}/{repeats}: {got.decision} after {got.hands:,} units "
                   f"(confirmed {got.confirmed['mean']:+.3f})" if got.confirmed else
                   f"  {p.name} run {r + 1}/{repeats}: {got.decision} after {got.hands:,} units", err=True)

    results = run(game, repeats=repeats, cap=cap, seed=seed, pairs=tuple(pair) or None, rule=rule, workers=workers,
                  batch=batch, progress=say, record=None if runs_log is None else write)
    console.print(f"{_rule_line(game, rule, cap, batch)}; {repeats} runs per pair (sweep seeds {seed}.."
                  f"{seed + repeats - 1})")
    for r in results:
        console.print(_result_line(r, FIXED_PER_CONFIG) + f"; {r.seconds:.0f} s")


def _rule_line(game: str, rule, cap: int, batch: int) -> str:
    return (f"{game}: SPRT H0 {rule.d0:+g} vs H1 {rule.d1:+g} per unit, alpha {rule.alpha:g}, beta {rule.beta:g}, "
            f"first look {rule.first_look:,}, a look every {batch:,}, luck {'taken out' if rule.luck else 'left in'}; "
            f"cap {cap:,} per config and phase")


def _result_line(r, fixed: int) -> str:
    e = r.error
    return (f"  {r.pair.name:6} ({r.pair.why}; right: {r.pair.right}): wrong {r.wrong}/{len(r.decisions)} "
            f"(95% {e.low:.1%} .. {e.high:.1%}, exact binomial), undecided {r.undecided}; units per run mean "
            f"{r.mean_hands:,.0f} (min {min(r.hands):,}, max {max(r.hands):,}) against {2 * fixed:,} fixed: "
            f"{r.factor:.2f}x fewer")


def _pooled(game: str, rule, *, hands: int, seed: int, pairs, runs: int, cap: int, batch: int, workers: int,
            part: int = 10_000) -> None:
    import time

    import numpy as np

    from bench.decisions import FIXED_PER_CONFIG, block_result, blocks, pool, resampled, resampled_runs
    from flows.stats import luck_check

    started = time.perf_counter()
    pooled = pool(game, hands=hands, seed=seed, part=part, pairs=pairs, luck=rule.luck, workers=workers,
                  progress=lambda c, p, n: typer.echo(f"  played {dict(c) or 'defaults'}, part {p + 1}/{n}", err=True))
    console.print(f"{_rule_line(game, rule, cap, batch)}; {hands:,} deals of seeds {seed}.. played once per config "
                  f"({time.perf_counter() - started:.0f} s)")
    rng = np.random.default_rng(seed)
    for p in pooled:
        c = luck_check(p.raw, p.adjusted)
        d = p.adjusted
        console.print(f"  {p.pair.name}: mean {c.adjusted.mean:+.3f} (raw {c.raw.mean:+.3f}), sd {c.adjusted.sd:.2f} "
                      f"(raw {c.raw.sd:.2f}: variance-reduction factor {c.factor:.2f}); consecutive disjoint runs:")
        console.print(_result_line(block_result(p.pair, blocks(d, rule, batch=batch, cap=cap)), FIXED_PER_CONFIG))
        if not p.pair.null:  # a null pair's truth is d0 exactly: its centred runs below are its error rate
            console.print(f"    resampled ({runs:,} runs, the pair's own mean):")
            console.print(_result_line(resampled_runs(p.pair, d, rule, rng, runs=runs, cap=cap, batch=batch),
                                       FIXED_PER_CONFIG))
        r = resampled(p.pair.name, d, rule, rng, runs=runs, cap=cap, batch=batch)
        w0, w1 = r.wrong_d0, r.wrong_d1
        console.print(f"    resampled ({runs:,} runs each, the differences centred): skewness {r.skewness:+.1f}, "
                      f"excess kurtosis {r.kurtosis:.0f}; wrong switch at d0 {w0.rate:.2%} (95% {w0.low:.2%} .. "
                      f"{w0.high:.2%}; {r.units_d0:,.0f} units per config), wrong keep at d1 {w1.rate:.2%} (95% "
                      f"{w1.low:.2%} .. {w1.high:.2%}; {r.units_d1:,.0f}), undecided {r.undecided:.1%}")


def _resampled(game: str, sweep_id: str, rule, *, runs: int, cap: int, seed: int, batch: int) -> None:
    from bench.decisions import resample
    from flows import sweep_record
    from flows.store import read_only

    with read_only() as con:
        row = sweep_record.find(con, sweep_id, game=game)
        results = resample(con, row.sweep_id, rule, runs=runs, cap=cap, seed=seed, batch=batch)
    console.print(f"{game} sweep {row.sweep_id}: SPRT H0 {rule.d0:+g} vs H1 {rule.d1:+g}, alpha {rule.alpha:g}, "
                  f"beta {rule.beta:g}, first look {rule.first_look:,}, looks every {batch:,}, cap {cap:,}; {runs} "
                  f"resampled runs at each hypothesis")
    for r in results:
        console.print(f"  {r.pair}: sd {r.sd:.2f}, skewness {r.skewness:+.1f}, excess kurtosis {r.kurtosis:.0f}: "
                      f"wrong switch at d0 {r.alpha:.1%} ({r.units_d0:,.0f} units), wrong keep at d1 {r.beta:.1%} "
                      f"({r.units_d1:,.0f} units), undecided {r.undecided:.1%}")


def _luck(game: str, *, hands: int, seed: int, pairs: tuple[str, ...] | None) -> None:
    from bench.luck import correction, run
    from flows import games

    if correction(game) is None:
        fail(f"--game {game}: no luck correction (GameSpec.luck); accepted: "
             f"{', '.join(g for g in games.names() if correction(g) is not None)}")
    results, seconds = run(game, hands=hands, seed=seed, pairs=pairs,
                           progress=lambda config: typer.echo(f"  played {dict(config) or 'defaults'}", err=True))
    typer.echo(f"{game}: every config on {hands:,} deals of seed {seed}, paired differences with and without "
                  f"the luck of the cards ({seconds:.0f} s)")
    for r in results:
        c = r.check
        low, high = c.shift_interval
        covers = "covers" if low <= 0 <= high else "MISSES"
        half_raw, half_adj = (1.96 * x.sd / c.n ** 0.5 for x in (c.raw, c.adjusted))
        typer.echo(f"  {r.pair.name:6}: raw {c.raw.mean:+.3f} +/- {half_raw:.3f} (sd {c.raw.sd:.2f}), adjusted "
                      f"{c.adjusted.mean:+.3f} +/- {half_adj:.3f} (sd {c.adjusted.sd:.2f}); correction's mean "
                      f"{c.shift.mean:+.3f} (95% {low:+.3f} .. {high:+.3f}: {covers}"
                      f" 0); variance-reduction factor {_factor(c.factor)} (each config alone: "
                      f"{_factor(r.single[0])}, {_factor(r.single[1])})")


def _factor(x: float) -> str:
    """A factor, or what a correction leaving no spread means (a fixed policy's exact value is constant)."""
    return f"{x:,.2f}" if x < 1e6 else "no spread left"
