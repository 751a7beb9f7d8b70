"""`cardlab tractor ...`, `cardlab judge tractor`, `cardlab export tractor`, `cardlab bench tractor ...`.

Tractor (SPOJ TRACTOR) is a single-round *simulator* contest: a submission reads finished
rounds on stdin and prints each round's result. There is no bot-vs-judge protocol, so
`judge` plays rounds between in-process bots and replays each through the simulator.
"""

import dataclasses
import io
import shutil
import sys
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cardlab import checks, options, progress
from cardlab.errors import fail as _fail
from cardlab.judged import log_judged
from cardlab.program_env import ENV_HELP, parse_env
from engine.core.log import concat
from engine.core.seeds import JUDGE_SEEDS
from engine.core.stats import summarize
from engine.tractor.rules import SEATS, team_of
from engine.tractor.simulate import run

PROGRESS_ROUNDS = 10  # the judge plays and reports this many rounds at a time

app = typer.Typer(help="Tractor single-round simulator (SPOJ TRACTOR) and full-round tools.",
                  no_args_is_help=True)
bench_app = typer.Typer(help="Tractor benchmarks.", no_args_is_help=True)

BUNDLE_MODULES = ("rules.py", "tricks.py", "protocol.py", "simulate.py")  # stdlib-only simulator


@app.callback()
def _tractor_group():
    """Tractor single-round simulator (SPOJ TRACTOR) and full-round tools."""


@bench_app.callback()
def _bench_group():
    """Tractor benchmarks."""


@app.command()
def simulate(
    trace: bool = typer.Option(False, "--trace", help="also write trick-by-trick rows to stderr"),
    log: bool = typer.Option(False, "--log", help="also append the cases to the DuckDB hand log (bot 'input')"),
):
    """Read contest input on stdin, print the judge's output byte for byte (exit 2 on malformed input).

    The input streams: each case's output is written when it is done, in constant memory."""
    if sys.stdin is None or sys.stdout is None:
        _fail(f"std{'in' if sys.stdin is None else 'out'} is closed; simulate reads the contest input on stdin "
              "and writes the results to stdout")
    reports: list | None = [] if log else None
    try:
        if trace or log:  # these need the trick-by-trick reports of the pure-Python simulator
            error = run(stdin_lines(), sys.stdout, trace=sys.stderr if trace else None, keep=reports)
        else:
            from engine.tractor.fast import run_fast

            sys.stdout.flush()
            error = run_fast(sys.stdin.buffer, sys.stdout.buffer)
        sys.stdout.flush()
    except OSError as exc:  # a closed pipe, a full disk: one line, not a traceback
        _quiet_stdout()
        _fail(f"cannot read the input or write the results: {exc.strerror or exc}")
    if reports:
        _log_simulated(reports)
    if error is not None:
        _fail(str(error))


def stdin_lines():
    """stdin as text lines, undecodable bytes replaced, any line end kept for the reader."""
    return io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="")


def _quiet_stdout() -> None:
    """After a failed write, point stdout at /dev/null so the exit-time flush cannot fail again."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (tests), nothing to quiet
        pass


def _log_simulated(reports) -> None:
    from engine.tractor.judge import simulated_log

    log_judged("tractor", bot="input", config={}, seed=0, log=simulated_log(reports), options={"source": "simulate"},
               what=f"{len(reports)} case(s)",
               say=lambda line: typer.echo(f"{line} (payoff = team 1's level difference)", err=True))


def _bots_or_fail(bot: str, opponent: str, settings: list[str]):
    """The primary bot, configured, and the opponent (which always plays its defaults)."""
    from bots.tractor import BOTS

    return options.bot(BOTS, bot, settings), options.bot(BOTS, opponent, option="--opponent")


@app.command("generate")
def generate(
    rounds: int = typer.Option(10, "--rounds", min=1, help="rounds (cases) to write"),
    seed: int = typer.Option(0, "--seed", min=0),
    bot: str = typer.Option("random", "--bot", help="bot on team 1 (random, rule)"),
    opponent: str = typer.Option("rule", "--opponent", help="bot on team 2"),
):
    """Play rounds with the bots and print them as a contest input (feed it to `simulate`)."""
    from engine.tractor.judge import contest_input, play_rounds

    primary, other = _bots_or_fail(bot, opponent, [])
    played = play_rounds(primary.make(), other.make(), seed=seed, first=0, count=rounds, swap_seats=False)
    sys.stdout.write(contest_input(played))


def judge(
    rounds: int = typer.Option(200, "--rounds", help="rounds to play", callback=checks.count),
    seed: int = typer.Option(JUDGE_SEEDS.default, "--seed", help="match seed (deals depend on seed and round only; "
                                                                   "the default is the judge's own range)",
                             callback=checks.seed),
    bot: str = typer.Option("rule", "--bot", help="primary bot (random, rule)"),
    opponent: str = typer.Option("random", "--opponent", help="the other team's bot"),
    settings: list[str] = typer.Option([], "--set", help="primary bot config as key=value (repeatable)"),
    swap_seats: bool = typer.Option(True, "--swap-seats/--no-swap-seats", help="primary on team 2 in odd rounds"),
    log: bool = typer.Option(False, "--log", help="append the rounds to the DuckDB hand log",
                             callback=checks.when_logging),
    program: str | None = typer.Option(None, "--program", help="a contestant's simulator command to test instead",
                                       callback=checks.program_commands),
    input_file: Path | None = typer.Option(None, "--input", callback=checks.input_file,
                                           help="with --program: this input instead of bot rounds"),
    cpu: float = typer.Option(1.0, "--cpu", help="with --program: CPU seconds (contest: 1)", callback=checks.limit),
    memory: float = typer.Option(1536, "--memory", help="with --program: memory in MB (contest: 1536)",
                                 callback=checks.limit),
    env: list[str] = typer.Option([], "--env", help="with --program: " + ENV_HELP),
    keep: Path | None = typer.Option(None, "--keep", help="with --program: save its stderr here (program.stderr)",
                                     callback=checks.output_dir),
    keep_folder: bool = typer.Option(False, "--keep-folder", help="with --keep: save its working folder too"),
):
    """Play full Tractor rounds between in-process bots and print the scores.

    The contest's only protocol is the simulator's stdin/stdout: there is no bot program to judge.

    Every round is also replayed through the simulator; disagreements are counted.

    --program tests a contestant's simulator on those rounds (or --input) under the contest's limits, case by case.
    """
    from bots.tractor import BOTS
    from engine.tractor.judge import MatchOptions
    from engine.tractor.judge import play_chunk as play_tractor_chunk

    primary, _ = _bots_or_fail(bot, opponent, settings)
    if keep_folder and keep is None or keep is not None and program is None:
        _fail("--keep-folder needs --keep DIR" if keep is None else "--keep: given without --program; accepted: "
              "--keep DIR with --program")
    if program is not None:
        from engine.core.process import Keep

        _judge_program(program, input_file, rounds=rounds, seed=seed, cpu=cpu, memory=memory, env=parse_env(env),
                       keep=Keep(str(keep), "program", keep_folder) if keep is not None else None)
        return
    match_options = MatchOptions(opponent=opponent, swap_seats=swap_seats)
    started = time.perf_counter()
    parts = []
    with progress.make() as bar:  # rounds depend only on (seed, round), so pieces add up to the whole match
        task = bar.add_task(f"judge tractor, {rounds:,} rounds", total=rounds)
        try:
            for first in range(0, rounds, PROGRESS_ROUNDS):
                count = min(PROGRESS_ROUNDS, rounds - first)
                parts.append(play_tractor_chunk(primary.spec, primary.config, seed=seed, first=first, count=count,
                                                options=match_options, bots=BOTS))
                bar.advance(task, count)
        except KeyboardInterrupt:  # also SIGTERM and SIGHUP (engine.core.ending): the whole pieces played count
            if not parts:
                raise
            typer.echo(f"status interrupted after {sum(p.count for p in parts):,} of {rounds:,} rounds", err=True)
    chunk = concat(parts)
    seconds = time.perf_counter() - started
    _print_scores(chunk, bot=bot, opponent=opponent, seconds=seconds)
    if log:
        log_judged("tractor", bot=bot, config=dataclasses.asdict(primary.config), seed=seed, log=chunk,
                   options=dataclasses.asdict(match_options), seconds=seconds)


def _judge_program(program: str, input_file: Path | None, *, rounds: int, seed: int, cpu: float,
                   memory: float, env: dict[str, str], keep=None) -> None:
    import shlex

    from bots.tractor import BOTS
    from engine.tractor.judge import MAX_PROGRAM_OUTPUT_CASES, contest_input, play_rounds, run_program

    if input_file is not None:
        text = input_file.read_bytes().decode("utf-8", errors="replace")
    else:
        if rounds > MAX_PROGRAM_OUTPUT_CASES:
            _fail(f"--rounds {rounds}: too many with --program; accepted: 1 to {MAX_PROGRAM_OUTPUT_CASES:,}")
        text = contest_input(play_rounds(BOTS["random"].make(), BOTS["rule"].make(), seed=seed, first=0,
                                         count=rounds))
    out = io.StringIO()
    error = run(text, out)
    if error is not None:
        _fail(f"the input is malformed, so there is nothing to compare: {error}")
    try:
        verdict = run_program(shlex.split(program), text, out.getvalue(), cpu_seconds=cpu, memory_mb=memory, env=env,
                              keep=keep)
    except ValueError as exc:
        _fail(str(exc))
    typer.echo(f"{verdict.verdict}{f' ({verdict.ended})' if verdict.ended else ''}: {verdict.matched}/"
               f"{verdict.cases} cases match, {verdict.cpu_seconds:.2f} s CPU (isolation {verdict.isolation}, "
               f"limits {verdict.limits})")
    if verdict.first_mismatch is not None:
        typer.echo(f"case {verdict.first_mismatch}: expected {verdict.expected!r}, got {verdict.got!r}")
    if verdict.detail:
        typer.echo(f"stderr tail: {verdict.detail}")
    if verdict.verdict != "accepted":
        raise typer.Exit(1)


def _print_scores(chunk, *, bot: str, opponent: str, seconds: float) -> None:
    payoffs = chunk.payoffs
    n = len(payoffs)
    levels = summarize(payoffs)
    rounds = chunk.events["rounds"]
    declares = [team_of(SEATS.index(dealer)) == team
                for dealer, team in zip(rounds["dealer"], rounds["primary_team"], strict=True)]
    table = Table(title=f"tractor: {bot} vs {opponent}, {n} rounds ({seconds:.1f} s)")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("levels per round (primary - other)", f"{levels.mean:+.3f} ± {levels.half_width:.3f}")
    table.add_row("total levels", f"{payoffs.sum():+.0f}")
    for role, flag in (("as declarer", True), ("as defender", False)):
        pts = [p for p, d in zip(rounds["ft_points"], declares, strict=True) if d == flag]
        if pts:
            table.add_row(f"mean FT points {role}", f"{sum(pts) / len(pts):.1f} over {len(pts)} rounds")
    table.add_row("judge fixes of illegal plays", f"{chunk.stats.get('faults', 0):.0f}")
    table.add_row("simulator disagreements", f"{chunk.stats.get('simulator_disagreements', 0):.0f}")
    Console().print(table)


def export(
    out: Path = typer.Option(..., "--out", help="bundle directory to write (created if missing)",
                             callback=checks.output_dir),
    bot: str = typer.Option("rule", "--bot", hidden=True, help="accepted for `cardlab pick --out`; unused"),
    set_: list[str] = typer.Option([], "--set", hidden=True, help="accepted for `cardlab pick --out`; unused"),
):
    """Write a standalone simulator bundle: `DIR/run < input > output` (needs only python3 >= 3.11).

    A Tractor submission is the simulator itself, so no bot goes into the bundle.

    Set PYTHON to choose the interpreter the bundle runs with.
    """
    _bots_or_fail(bot, bot, set_)
    source = Path(__file__).resolve().parents[2] / "engine" / "tractor"
    target = out / "engine" / "tractor"
    if target.exists():
        shutil.rmtree(target)  # only the bundle's own package is replaced
    target.mkdir(parents=True)
    (out / "engine" / "__init__.py").write_text("")
    (target / "__init__.py").write_text("")
    for name in BUNDLE_MODULES:
        shutil.copyfile(source / name, target / name)
    core = out / "engine" / "core"  # the simulator's error types (stdlib only), nothing else of the core
    core.mkdir(exist_ok=True)
    (core / "__init__.py").write_text("")
    shutil.copyfile(source.parent / "core" / "errors.py", core / "errors.py")
    (out / "simulate.py").write_text(
        '"""Tractor single-round simulator: contest input on stdin, results on stdout."""\n'
        "import io\nimport sys\n\n"
        "from engine.tractor.simulate import run\n\n"
        'lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="")\n'
        "error = run(lines, sys.stdout)\n"
        "sys.stdout.flush()\n"
        "if error is not None:\n"
        '    print(f"error: {error}", file=sys.stderr)\n'
        "    sys.exit(2)\n"
    )
    runner = out / "run"
    runner.write_text('#!/bin/sh\ncd "$(dirname "$0")" && exec "${PYTHON:-python3}" -S -B simulate.py\n')
    runner.chmod(0o755)
    typer.echo(f"wrote {out} (run it as: {runner} < input > output)")


@bench_app.command("simulate")
def bench_simulate(
    cases: int = typer.Option(100_000, "--cases", min=1, help="cases in the generated input"),
    seed: int = typer.Option(1, "--seed", min=0),
    input_file: Path | None = typer.Option(None, "--input", help="read this input", callback=checks.input_file),
    write: Path | None = typer.Option(None, "--write", help="save the generated input here"),
    repeat: int = typer.Option(3, "--repeat", min=1, help="timed runs; the best is reported"),
):
    """Run `cardlab tractor simulate` as its own process on a large input: peak RSS and CPU, against
    the accepted C++ solution's figure. The input repeats 1,000 bot-played rounds (random vs rule)
    up to --cases; a tenth of it shows that memory does not grow with the input."""
    from bench.tractor.simulate import SimulatorFailed, simulate_bench

    try:
        r = simulate_bench(cases=cases, seed=seed, input_file=input_file, write=write, repeat=repeat)
    except SimulatorFailed as exc:
        _fail(str(exc))
    if r.generated is not None:
        typer.echo(f"generated {r.generated.rounds:,} rounds (random vs rule, seed {seed}) repeated to "
                   f"{r.generated.cases:,} cases in {r.generated.seconds:.1f} s")
    typer.echo(f"simulated {r.cases:,} cases: best of {repeat} {r.cpu:.2f} s CPU (process), "
               f"peak RSS {r.rss_mb:.0f} MB; "
               f"process start alone (0 cases) {r.start_cpu:.2f} s CPU, {r.start_rss_mb:.0f} MB")
    if r.tenth_rss_mb is not None:
        typer.echo(f"memory: {r.cases // 10:,} cases {r.tenth_rss_mb:.0f} MB peak, "
                   f"{r.cases:,} cases {r.rss_mb:.0f} MB peak")
    if r.cases:
        peer = r.peer_cpu
        typer.echo(f"peer: accepted C++ solution {peer:.2f} s CPU for {r.cases:,} cases (the issue's stated figure, "
                   f"scaled; not built here): {r.cpu / peer:.2f}x with our process start, "
                   f"{max(r.cpu - r.start_cpu, 0.0) / peer:.2f}x without it")
