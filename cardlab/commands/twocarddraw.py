"""`cardlab twocarddraw ...`, `cardlab judge twocarddraw`, `cardlab export twocarddraw`,
`cardlab bench twocarddraw ...`.

TopCoder ran TwoCardDraw submissions as an in-process class, so there is no text protocol
for an external program: the judge plays registered bots, and export writes a bundle
(frozen config + a runner script) that plays the bot through this judge.
"""

import dataclasses
import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cardlab import checks, options
from cardlab.errors import fail as _fail
from cardlab.judged import log_judged
from cardlab.program_env import ENV_HELP, parse_env
from engine.core.seeds import JUDGE_SEEDS
from engine.core.stats import summarize

app = typer.Typer(help="TwoCardDraw: best responses, the server-strategy generator, prior banks, fitting.",
                  no_args_is_help=True)
bench_app = typer.Typer(help="TwoCardDraw benchmarks.", no_args_is_help=True)
console = Console()


@app.callback()
def _group():
    """TwoCardDraw: best responses, the server-strategy generator, prior banks, fitting."""


@bench_app.callback()
def _bench_group():
    """TwoCardDraw benchmarks (kernel speed vs numpy, bot strength over generated servers)."""


def _read(path: Path):
    from engine.twocarddraw.protocol import StrategyFileError, read_strategy

    try:
        return read_strategy(path)
    except StrategyFileError as exc:
        _fail(str(exc))


def _bots():
    from bots.twocarddraw import BOTS

    return BOTS


def _bets(bet1: int, bet2: int):
    from engine.twocarddraw.rules import BetSizes

    try:
        return BetSizes(bet1, bet2)
    except ValueError as exc:
        _fail(str(exc))


# ------------------------------------------------------------------------------------ judge
def judge(
    strategy: Path = typer.Option(..., "--strategy", help="server strategy file (the contest's format)"),
    bot: str = typer.Option("dbr", "--bot", help="sample, oracle, prior_br, learner, mixture, robust or dbr"),
    set_: list[str] = typer.Option([], "--set", help="bot config key=value (repeatable)"),
    hands: int = typer.Option(10_000, "--hands", help="hands in the test (the contest: 10,000)", callback=checks.count),
    seed: int = typer.Option(JUDGE_SEEDS.default, "--seed", help="match seed; hand i's cards depend on (seed, i) only "
                                                                   "(the default is the judge's own range)",
                             callback=checks.seed),
    json_: bool = typer.Option(False, "--json", help="print one JSON object"),
    log: bool = typer.Option(False, "--log", help="append the hands to the DuckDB hand log",
                             callback=checks.when_logging),
    bot_file: str | None = typer.Option(None, "--bot-file",
                                        help="PATH.py:ClassName: your bot class, in its own process, instead of --bot"),
    env: list[str] = typer.Option([], "--env", help="with --bot-file: " + ENV_HELP),
    keep: Path | None = typer.Option(None, "--keep", help="with --bot-file: save its stderr here (bot.stderr)",
                                     callback=checks.output_dir),
    keep_folder: bool = typer.Option(False, "--keep-folder", help="with --keep: save its working folder too"),
):
    """Play a bot against a server strategy as TopCoder's tester did: score = max(0, profit + hands).

    Bot CPU time is measured per call (limit 20 s; past it, or on a bad return, the test scores 0).
    The oracle bot is told the true strategy by the judge. --bot-file plays your own class (the
    methods init, new_hand, round1, draw, round2, showdown), called exactly as --bot's are.
    """
    from engine.twocarddraw.best_response import best_response
    from engine.twocarddraw.judge import play_bot

    if keep_folder and keep is None or keep is not None and bot_file is None:
        _fail("--keep-folder needs --keep DIR" if keep is None else "--keep: given without --bot-file; accepted: "
              "--keep DIR with --bot-file (an in-process bot has no stderr of its own)")
    parsed = _read(strategy)
    started = time.perf_counter()
    isolation = None
    if bot_file is not None:
        from engine.twocarddraw.program import parse_bot_file, play_program

        try:
            path, class_name = parse_bot_file(bot_file)
        except ValueError as exc:
            _fail(str(exc))
        bot, config = bot_file, None
        from engine.core.process import Keep

        played = play_program(path, class_name, parsed.strategy, seed=seed, count=hands, env=parse_env(env),
                              keep=Keep(str(keep), "bot", keep_folder) if keep is not None else None,
                              keep_on_interrupt=True)
        result, isolation = played
    else:
        chosen = options.bot(_bots(), bot, set_)
        config = chosen.config
        try:
            instance = chosen.make()
        except (ValueError, OSError) as exc:
            _fail(f"bot {bot!r}: {exc}")
        result = play_bot(instance, parsed.strategy, seed=seed, count=hands, keep_on_interrupt=True)
    seconds = time.perf_counter() - started
    profits = result.profits
    out = {
        "game": "twocarddraw", "strategy": str(strategy), "bot": bot,
        "config": dataclasses.asdict(config) if config is not None else {},
        "bet1": parsed.strategy.bets.bet1, "bet2": parsed.strategy.bets.bet2, "seed": seed,
        "hands": hands, "hands_played": len(profits), "profit": result.profit, "score": result.score,
        "cpu_seconds": round(result.cpu_seconds, 4), "status": result.status, "message": result.record.message,
        "mean_per_hand": float(profits.mean()) if len(profits) else 0.0,
        "se_per_hand": summarize(profits).se if len(profits) > 1 else None,
        "best_response_value": best_response(parsed.strategy).value, "seconds": round(seconds, 3),
        "warnings": list(parsed.warnings),
    }
    if isolation is not None:
        out["isolation"], out["limits"] = isolation, played.limits
    if log:
        logged = log_judged("twocarddraw", bot=bot, config=out["config"], seed=seed, log=result.chunk_log(),
                            options={"strategy": str(strategy)}, seconds=seconds, say=None)
        out |= {"match_id": logged.match_id} if logged.match_id else {"log_error": logged.error}
    if json_:
        typer.echo(json.dumps(out))
        return
    table = Table("field", "value", title=f"TwoCardDraw: {bot} vs {strategy.name}")
    for key in ("bet1", "bet2", "hands_played", "profit", "score", "cpu_seconds", "status", "mean_per_hand",
                "se_per_hand", "best_response_value", "isolation", "limits", "match_id"):
        if key in out:
            table.add_row(key, str(out[key]))
    console.print(table)
    if result.record.message:
        typer.echo(result.record.message, err=True)


def _reading(text: str):
    from engine.twocarddraw.best_response import Reading

    try:
        return Reading.parse(text)
    except ValueError as exc:
        _fail(str(exc))


# ------------------------------------------------------------------------------------ evaluate
@app.command()
def evaluate(
    strategy: Path = typer.Option(..., "--strategy", help="the true server strategy file"),
    bot: str = typer.Option("dbr", "--bot", help="sample, oracle, prior_br, learner, mixture, robust or dbr"),
    set_: list[str] = typer.Option([], "--set", help="bot config key=value (repeatable)"),
    seeds: str = typer.Option("1", "--seeds", help="deal seeds, comma-separated (e.g. 1,2,3)"),
    hands: int = typer.Option(10_000, "--hands", help="hands per test (the contest: 10,000)", callback=checks.count),
    json_: bool = typer.Option(False, "--json", help="print one JSON object"),
):
    """Exact strength: at every hand, the expected profit of the policy the bot plays in that hand
    against the true strategy (no card luck), averaged over the test; and the best response's value.
    The bot still plays the dealt hands, so it learns what it would in the real test."""
    from engine.twocarddraw.exact import NoPolicyTable
    from engine.twocarddraw.exact import evaluate as run_exact

    parsed = _read(strategy)
    deal_seeds = _seed_list(seeds)
    chosen = options.bot(_bots(), bot, set_)
    config = chosen.config
    started = time.perf_counter()
    try:
        summary = run_exact(chosen.make, parsed.strategy, seeds=deal_seeds, hands=hands)
    except (NoPolicyTable, ValueError, OSError) as exc:
        _fail(f"bot {bot!r}: {exc}")
    out = {
        "game": "twocarddraw", "strategy": str(strategy), "bot": bot, "config": dataclasses.asdict(config),
        "bet1": parsed.strategy.bets.bet1, "bet2": parsed.strategy.bets.bet2, "seeds": deal_seeds, "hands": hands,
        "expected_per_hand": summary.expected_per_hand, "br_value": summary.br_value, "ratio": summary.ratio,
        "segments": summary.segments(), "segment_hands": 1_000,
        "per_seed": [{"seed": s, "expected_per_hand": r.expected_per_hand,
                      "realized_per_hand": float(r.profits.mean()) if len(r.profits) else None,
                      "bot_cpu_seconds": round(r.bot_cpu_seconds, 3), "status": r.status, "message": r.message}
                     for s, r in zip(deal_seeds, summary.runs, strict=True)],
        "seconds": round(time.perf_counter() - started, 3),
    }
    if json_:
        typer.echo(json.dumps(out))
        return
    typer.echo(f"{bot} vs {strategy.name}: {summary.expected_per_hand:+.4f} per hand exactly, best response "
               f"{summary.br_value:+.4f}, ratio {summary.ratio:.3f}")
    typer.echo("per 1,000 hands: " + " ".join(f"{v:+.3f}" for v in out["segments"]))
    for row in out["per_seed"]:
        if row["status"] != "ok":
            typer.echo(f"seed {row['seed']}: {row['status']}: {row['message']}", err=True)


def _seed_list(text: str) -> list[int]:
    from bots.base import SEED_MAX

    return options.integers(text, "--seeds", lo=0, hi=SEED_MAX,
                            accepted="seeds 0 to 2^63 - 1 separated by commas, such as 1,2,3")


# ------------------------------------------------------------------------------------ export
RUNNER = '''"""Play the frozen bot config against a TwoCardDraw strategy file through cardlab's judge.

TopCoder ran submissions as an in-process class; this runner is the closest equivalent:
python run.py --strategy FILE [--hands N] [--seed S] (or any other option of `cardlab judge twocarddraw`)
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = {root!r}
frozen = json.loads((Path(__file__).parent / "config.json").read_text())
command = [sys.executable, "-c", "from cardlab.cli import main; main()", "judge", "twocarddraw",
           "--bot", frozen["bot"], "--json"]
for key, value in frozen["config"].items():
    command += ["--set", f"{{key}}={{value}}"]
sys.exit(subprocess.call(command + sys.argv[1:], cwd=ROOT))  # the judge's own options parse the rest
'''


def export(
    bot: str = typer.Option("dbr", "--bot", help="bot to freeze (default: the strongest measured)"),
    set_: list[str] = typer.Option([], "--set", help="bot config key=value (repeatable)"),
    out: Path = typer.Option(Path("out/twocarddraw-bundle"), "--out", help="bundle directory to write",
                             callback=checks.output_dir),
):
    """Write a bundle: config.json (frozen bot config) and run.py, which plays the bot against a
    strategy file through cardlab's judge. TopCoder ran an in-process class, so there is no
    standalone program to submit; the bundle pins exactly what was measured.
    """
    chosen = options.bot(_bots(), bot, set_)
    out.mkdir(parents=True, exist_ok=True)
    frozen = {"game": "twocarddraw", "bot": chosen.spec.name, "config": dataclasses.asdict(chosen.config)}
    (out / "config.json").write_text(json.dumps(frozen, indent=2, sort_keys=True) + "\n")
    root = str(Path(__file__).resolve().parents[2])
    (out / "run.py").write_text(RUNNER.format(root=root))
    typer.echo(f"wrote {out}/config.json and {out}/run.py (python {out}/run.py --strategy FILE)")


# ------------------------------------------------------------------------------------ tools
@app.command("best-response")
def best_response_cmd(
    path: Path = typer.Argument(..., help="strategy file"),
    json_: bool = typer.Option(False, "--json", help="print one JSON object"),
):
    """The player's expected profit per hand when best-responding to the file (minus the server's value)."""
    from engine.twocarddraw.best_response import GENERATOR_EPS, best_response

    parsed = _read(path)
    value = best_response(parsed.strategy).value
    started = time.perf_counter()  # timed on a second call: the first loads the compiled kernels
    best_response(parsed.strategy)
    seconds = time.perf_counter() - started
    out = {"strategy": str(path), "bet1": parsed.strategy.bets.bet1, "bet2": parsed.strategy.bets.bet2,
           "value": value, "server_value": -value,
           "eps_value": best_response(parsed.strategy, eps=GENERATOR_EPS).value, "seconds": seconds}
    if json_:
        typer.echo(json.dumps(out))
    else:
        typer.echo(f"best response earns {value:+.6f} per hand (server value {-value:+.6f})")


@app.command()
def generate(
    bet1: int = typer.Option(..., "--bet1", help="1..5"),
    bet2: int = typer.Option(..., "--bet2", help="bet1..3*bet1"),
    steps: int = typer.Option(100_000, "--steps", help="improvement steps (the contest: 10,000..200,000)",
                              callback=checks.count),
    seed: int = typer.Option(1, "--seed", min=0),
    out: Path = typer.Option(..., "--out", help="strategy file to write", callback=checks.output_file),
    reading: str = typer.Option("default", "--reading",
                                help="where the statement is ambiguous, e.g. order=random,proposal=perturb,"
                                     "accept=ties,mistakes=betting (default: docs/rules/twocarddraw.md#ambiguities)"),
    json_: bool = typer.Option(False, "--json"),
):
    """Generate a server strategy as the statement describes and write it in the contest's format."""
    from engine.twocarddraw.best_response import best_response
    from engine.twocarddraw.best_response import generate as run_generator
    from engine.twocarddraw.protocol import write_strategy

    bets = _bets(bet1, bet2)
    parsed_reading = _reading(reading)
    started = time.perf_counter()
    gen = run_generator(bets, steps=steps, seed=seed, reading=parsed_reading)
    seconds = time.perf_counter() - started
    out.parent.mkdir(parents=True, exist_ok=True)
    write_strategy(gen.strategy, out)
    summary = {"out": str(out), "bet1": bet1, "bet2": bet2, "steps": steps, "seed": seed,
               "reading": parsed_reading.label or "default",
               "eps_value": gen.eps_value, "value": best_response(gen.strategy).value, "seconds": seconds}
    typer.echo(json.dumps(summary) if json_ else
               f"wrote {out}: best response earns {summary['value']:+.4f} per hand ({seconds:.1f} s)")


@app.command()
def bank(
    pairs: list[str] = typer.Option([], "--pair", help="bet pair b1,b2 (repeatable); default: all 35"),
    count: int = typer.Option(16, "--count", min=1, help="strategies per pair"),
    mixture: bool = typer.Option(True, "--mixture/--no-mixture",
                                 help="also the mixture bot's banks (default config: 4 step buckets x 12) and the "
                                      "robust bot's safe strategy"),
):
    """Build (or check) the cached prior banks the prior_br, learner and mixture bots load at init."""
    from bots.twocarddraw.prior import load_bank, load_step_banks
    from bots.twocarddraw.robust import load_equilibrium
    from engine.twocarddraw.rules import ALL_BET_SIZES

    chosen = []
    for text in pairs:
        chosen.append(_bets(*options.integers(text, "--pair", count=2, accepted="bet sizes b1,b2 such as 2,4")))
    for bets in chosen or ALL_BET_SIZES:
        started = time.perf_counter()
        load_bank(bets, count=count)
        if mixture:
            load_step_banks(bets)
            load_equilibrium(bets)
        extra = " + step buckets + safe strategy" if mixture else ""
        typer.echo(f"bank ({bets.bet1},{bets.bet2}) x{count}{extra} ready in "
                   f"{time.perf_counter() - started:.1f} s")


@app.command()
def fit(
    match_id: str = typer.Option(None, "--match-id", help="logged match to fit (default: the latest twocarddraw one)"),
    truth: Path = typer.Option(None, "--truth", help="true strategy file (default: the match's recorded server)"),
    out: Path = typer.Option(Path("out/twocarddraw-fit.txt"), "--out", help="fitted strategy file (+ .png plot)"),
    checkpoints: str = typer.Option("0,100,300,1000,3000,10000", help="hand counts to fit at, comma-separated"),
    prior: str = typer.Option("bank", help="bank (generated strategies for the bet sizes) or uniform"),
    db: Path = typer.Option(None, "--db", help="hand log (default: the workspace's)",
                            callback=checks.hand_log_to_read),
    track: bool = typer.Option(True, "--track/--no-track", help="log metrics, plot and fit to MLflow"),
    json_: bool = typer.Option(False, "--json"),
):
    """Estimate the server of a logged match from what the player saw (EM over hidden cards), write it
    as a strategy file and measure it against the truth as hands accumulate (Prefect flow)."""
    from flows.opponents.twocarddraw_fit import fit_opponent, read_hands, truth_of_match
    from flows.settings import Paths

    marks = tuple(options.integers(checkpoints, "--checkpoints", lo=0,
                                   accepted="hand counts separated by commas, such as 100,1000"))
    db = db or Paths.from_env().db
    if not Path(db).exists():
        _fail(f"no hand log at {db}; log a match with `cardlab judge twocarddraw --log` first")
    match_id, _ = read_hands(db, match_id)
    true_strategy = _read(truth).strategy if truth else truth_of_match(db, match_id)
    if prior not in ("bank", "uniform"):
        _fail(f"--prior {prior!r}: not a prior; accepted: bank, uniform")
    result = fit_opponent(db, true_strategy, out, match_id=match_id, checkpoints=marks, prior=prior, track=track)
    if json_:
        typer.echo(json.dumps(result.as_dict()))
        return
    table = Table("hands", "method", "weighted error", "value lost / hand", title=f"fit of {match_id}")
    for p in result.points:
        table.add_row(str(p.hands), p.method, f"{p.weighted_error:.4f}", f"{p.value_lost:.4f}")
    console.print(table)
    typer.echo(f"fit written to {result.fit_path}, plot {result.plot_path}, MLflow run {result.mlflow_run_id}")


# ------------------------------------------------------------------------------------ benchmarks
@bench_app.command()
def speed(
    evals: int = typer.Option(2_000, help="best-response evaluations to time"),
    steps: int = typer.Option(200_000, help="generator steps to time (the issue's target: 200k in 30 s)"),
):
    """Best-response time and generator steps/s, numba kernels vs the vectorised numpy peer."""
    from bench.twocarddraw.speed import speed as measure

    result = measure(evals=evals, steps=steps)
    kernel_s, peer_s, gen_rate = result.kernel_seconds, result.peer_seconds, result.generator_steps_per_second
    table = Table("figure (thread CPU time)", "numba", "numpy peer", "ratio")
    table.add_row("best response (ms)", f"{kernel_s * 1e3:.4f}", f"{peer_s * 1e3:.4f}", f"{peer_s / kernel_s:.1f}x")
    table.add_row("generator steps/s", f"{gen_rate:,.0f}", f"{1 / peer_s:,.0f}", f"{gen_rate * peer_s:.0f}x")
    table.add_row(f"{steps:,} steps (s)", f"{steps / gen_rate:.2f}", f"{steps * peer_s:.0f} (est.)", "")
    console.print(table)
    typer.echo("the numpy peer re-evaluates the whole tree per step; the kernel recomputes only what a row touches")


@bench_app.command()
def strength(
    tests: int = typer.Option(40, min=1, max=1000, help="generated servers (35 consecutive cover every bet pair; "
                                                           "readings cycle over the default and 4 alternatives)"),
    hands: int = typer.Option(10_000, min=100),
    seeds: str = typer.Option("1", "--seeds", help="deal seeds per server, comma-separated"),
    first_test: int = typer.Option(0, min=0, help="skip servers before this index (run the set in parts)"),
    server_set: str = typer.Option("tuning", "--set", help="tuning (what settings were chosen on), tuning-far "
                                   "(200k-400k steps), heldout, heldout2 ... heldout14 "
                                   "(never tuned on; issue 31)"),
    bot: list[str] = typer.Option(["dbr", "mixture"], "--bot",
                                  help="'name [k=v ...]' (repeatable); the first is compared with the others"),
    json_: bool = typer.Option(False, "--json"),
):
    """Exact expected profit per hand of each bot over generated servers as a ratio to the best
    response (mean of per-server ratios and ratio of sums), with paired 95% CIs over servers of the
    first bot minus each other (same servers, same deals)."""
    from bench.twocarddraw.strength import SERVER_SETS, strength_rows, summarise

    if server_set not in SERVER_SETS:
        _fail(f"--set {server_set!r}: not a server set; accepted: {', '.join(SERVER_SETS)}")
    entries = [options.entry(_bots(), text, sep=None, settings_sep=None) for text in bot]
    labels = [e.label for e in entries]
    if len(set(labels)) != len(labels):
        _fail(f"--bot {', '.join(map(repr, labels))}: an entry is given twice; accepted: different entries")
    rows = strength_rows(entries, servers=range(first_test, first_test + tests), hands=hands,
                         deal_seeds=_seed_list(seeds), server_of=SERVER_SETS[server_set],
                         progress=lambda text: console.print(text, highlight=False) if not json_ else None)
    summary = summarise(rows, labels)
    if json_:
        typer.echo(json.dumps({"rows": rows, "summary": summary}))
        return
    table = Table("bot", "mean ratio", "ratio of sums", "last 1,000", f"{labels[0]} minus: ratio (95% CI)",
                  "per hand (95% CI)", "max CPU s")
    for label in labels:
        s = summary[label]
        r, d = s.get("first_minus_ratio"), s.get("first_minus_per_hand")
        table.add_row(label, f"{s['mean_ratio']:.3f}", f"{s['ratio_of_sums']:.3f}",
                      f"{s['last1000_ratio_of_sums']:.3f}",
                      f"{r['mean']:+.3f} [{r['ci_low']:+.3f}, {r['ci_high']:+.3f}]" if r else "",
                      f"{d['mean']:+.4f} [{d['ci_low']:+.4f}, {d['ci_high']:+.4f}]" if d else "", f"{s['max_cpu']:.2f}")
    wide = Console(width=max(console.width, 160))
    wide.print(table)
    for label in labels:
        s = summary[label]
        typer.echo(f"{label}: mean ratio 95% [{s['mean_ratio_ci'][0]:.3f}, {s['mean_ratio_ci'][1]:.3f}], ratio of sums "
                   f"[{s['ratio_of_sums_ci'][0]:.3f}, {s['ratio_of_sums_ci'][1]:.3f}]; servers lost (negative "
                   f"expected profit, positive best response): {s['lost_servers'] or 'none'}")
        safe = s["minus_safe_per_hand"]
        typer.echo(f"{label} minus the safe strategy per hand: {safe['mean']:+.4f} [{safe['ci_low']:+.4f}, "
                   f"{safe['ci_high']:+.4f}], lowest {safe['min']:+.4f}; below it on: {safe['below'] or 'none'}")
    readings = Table("bot", *(f"{k} ({v['servers']})" for k, v in summary[labels[0]]["by_reading"].items()),
                     title="mean ratio / ratio of sums by generator reading")
    for label in labels:
        readings.add_row(label, *(f"{v['mean_ratio']:.3f} / {v['ratio_of_sums']:.3f}"
                                  for v in summary[label]["by_reading"].values()))
    wide.print(readings)
