"""`cardlab`: the command line of the workbench (typer)."""

from flows.settings import apply_defaults

apply_defaults()  # before prefect, mlflow or numba are imported anywhere

import functools  # noqa: E402
import importlib  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import typer  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.markup import escape  # noqa: E402
from rich.table import Table  # noqa: E402
from typer.core import TyperGroup  # noqa: E402

import cardlab.checks as checks  # noqa: E402
from bots.base import config_fields  # noqa: E402
from bots.program import PROGRAM_BOT, ProgramConfig, write_bundle  # noqa: E402
from cardlab import options, prefect_local, progress  # noqa: E402
from cardlab.errors import fail, quiet_teardown, run_guarded  # noqa: E402
from flows import games  # noqa: E402
from flows.settings import Paths, worker_count  # noqa: E402
from flows.stats import Z95  # noqa: E402

console = Console() if sys.stdout and sys.stdout.isatty() else Console(width=150)  # pipes: no 80-column wrap


class _GameParts(TyperGroup):
    """A command group whose per-game commands (each game's judge, export, own commands, benchmarks)
    load only when named: loading a game's declaration imports its bots and engine (numba), which
    every other command would otherwise pay for at start (about 0.3 s of CPU for the five)."""

    part = ""  # the attribute of the game's commands module this group holds: judge, export, app, bench_app

    def list_commands(self, ctx) -> list[str]:
        own = super().list_commands(ctx)
        return own + [name for name in games.names() if name not in own and self._listed(name)]

    def _listed(self, name: str) -> bool:
        try:
            return _game_part(self.part, name) is not None
        except games.UnknownGame:  # a game that does not load is reported when it is named, not in every help
            return False

    def get_command(self, ctx, name: str):
        found = super().get_command(ctx, name)
        if found is None and name in games.names():
            found = _game_part(self.part, name)
        return found


class _GameApps(_GameParts):
    part = "app"


class _GameJudges(_GameParts):
    part = "judge"


class _GameExports(_GameParts):
    part = "export"


class _GameBenches(_GameParts):
    part = "bench_app"


app = typer.Typer(help="cardlab: faithful contest judges, strong bots and a hand-logging sweep pipeline.",
                  no_args_is_help=True, pretty_exceptions_enable=False, cls=_GameApps)
judge_app = typer.Typer(help="Run bots or external programs under a contest's own judge.", no_args_is_help=True,
                        cls=_GameJudges)
export_app = typer.Typer(help="Write a submission bundle for a contest.", no_args_is_help=True, cls=_GameExports)
bench_app = typer.Typer(help="Benchmarks: print figures (as ratios against peers where one exists).",
                        no_args_is_help=True, cls=_GameBenches)
app.add_typer(judge_app, name="judge")
app.add_typer(export_app, name="export")
app.add_typer(bench_app, name="bench")


def _progress():
    """A bar on a terminal; piped or logged, a line per task every few seconds (cardlab.progress)."""
    return progress.make(console)


def _adapter(game: str):
    try:
        return games.get(game)
    except games.UnknownGame as exc:
        fail(str(exc))


# ---------------------------------------------------------------------------------- info
@app.command("games")
def list_games():
    """List the contests, their bots and each bot's config keys with defaults."""
    table = Table("game", "bot", "config (defaults)", "what it is")
    for name in games.names():
        try:
            adapter = games.get(name)
        except games.UnknownGame as exc:
            table.add_row(name, "-", "-", str(exc))
            continue
        for bot_name, spec in sorted(adapter.bots.items()):
            defaults = ", ".join(f"{k}={v}" for k, v in vars(spec.default_config()).items())
            table.add_row(name, bot_name, defaults, spec.summary)
    console.print(table)


# ---------------------------------------------------------------------------------- match
@app.command()
def match(
    game: str = typer.Argument(..., help="Contest name (see `cardlab games`)."),
    bot: str = typer.Option(None, help="Bot name; the game's default bot if omitted.", callback=checks.bot_name),
    set_: list[str] = typer.Option([], "--set", help="Bot config override key=value (repeatable)."),
    opt: list[str] = typer.Option([], "--opt", help="Game option key=value, e.g. opponents (repeatable)."),
    hands: int = typer.Option(10_000, help="Units to play (hands, games or rounds).", callback=checks.count),
    seed: int = typer.Option(1, help="Match seed: the same seed replays the match bit for bit.", callback=checks.seed),
    chunk: int = typer.Option(5000, help="Units per logged chunk.", callback=checks.count),
    log: bool = typer.Option(True, help="Log every unit to the DuckDB hand log.", callback=checks.when_logging),
):
    """Play a match in-process, log every unit, print the result with a 95% CI."""
    from flows.match import MatchPlan, run_match
    from flows.store import HandLog

    adapter = _adapter(game)
    chosen = options.bot(adapter.bots, bot or adapter.default_bot, set_, game=adapter.name)  # before playing
    plan = MatchPlan(game=adapter.name, bot=chosen.label, overrides=chosen.settings,
                     options=options.pairs(opt, "--opt"), seed=seed, units=hands, chunk_size=chunk)
    adapter.options(dict(plan.options))
    store = HandLog() if log else None
    try:
        with _progress() as progress:
            bar = progress.add_task(f"{adapter.name} {plan.bot}", total=hands)
            result = run_match(plan, store, progress=lambda n: progress.advance(bar, n))
    finally:
        if store is not None:
            store.close()
    console.print(f"[bold]{adapter.title}[/] {plan.bot} seed {seed}: {result.summary.describe(adapter.unit)}")
    console.print(f"{result.units_per_s:,.0f} {adapter.unit}s/s; match id {result.match_id}"
                  + (f" in {Paths.from_env().db}" if log else " (not logged)"))


# ---------------------------------------------------------------------------------- sweep
def _run_sweep(spec, runner: str, workers: int | None, retry_failed: bool = False):
    from flows.sweep import with_runner

    prefect_local.ensure()  # a Prefect server that dies with this command (unless PREFECT_API_URL is set)
    total = spec.units * len(spec.plans())
    with _progress() as progress:
        bar = progress.add_task(f"sweep {spec.game} {spec.bot}", total=total)
        return with_runner(runner, workers=workers)(spec, progress=lambda n: progress.advance(bar, n),
                                                    retry_failed=retry_failed)


def _config_label(run, baseline) -> str:
    if baseline is not None and run.match_id == baseline.match_id:
        return "baseline" if not run.overrides else "baseline (submitted)"
    return ", ".join(f"{k}={v}" for k, v in run.overrides.items()) or "defaults"


def _print_sweep(outcome, unit: str, game: str | None = None, seed: int | None = None) -> None:
    from flows import sweep_record
    from flows.stats import payoff_interval

    table = Table("config", "mean", "95% CI", "method", f"{unit}s/s", "match")
    for run in sweep_record.ranked(list(outcome.runs)):
        method = payoff_interval(game or "", run.units, run.mean, run.se * run.units ** 0.5).method
        table.add_row(_config_label(run, outcome.baseline), f"{run.mean:+.4f}",
                      f"{run.ci_low:+.4f} .. {run.ci_high:+.4f}", method, f"{run.units_per_s:,.0f}", run.match_id)
    console.print(table)
    for run in outcome.runs:  # not ranked: in the contest they would have scored badly
        if run.failure:
            console.print(f"[red]failed[/] {escape(_config_label(run, outcome.baseline))}: {escape(run.failure)}")
    best = _config_label(outcome.best, outcome.baseline)
    console.print(f"best by lower confidence bound: [bold]{best}[/] ({outcome.best.ci_low:+.4f})")
    if outcome.paired_diff is not None:
        console.print(f"paired difference to the runner-up on the same deals: {outcome.paired_diff:+.4f} "
                      f"+/- {Z95 * outcome.paired_se:.4f} (95%)")
    if outcome.baseline is not None and outcome.baseline is not outcome.best and outcome.baseline_diff is not None:
        console.print(f"paired difference to the baseline on the same deals: {outcome.baseline_diff:+.4f} "
                      f"+/- {Z95 * outcome.baseline_se:.4f} (95%)")
    if seed is not None:  # which deals: the estimates above come from the deals that chose the best
        console.print(f"deals: seed {seed}, {unit}s 0..{max(r.units for r in outcome.runs) - 1:,} for every config, "
                      f"both to choose and to estimate (`--until-decided` confirms on fresh deals)")
    console.print(f"sweep {outcome.sweep_id}: {outcome.units_written:,} {unit}s logged in {outcome.seconds:.1f} s; "
                  f"MLflow parent run {outcome.mlflow_run_id}")
    if "program_hash" in outcome.best.config:  # which program the results are of (its files, its folder)
        console.print(f"program: files {outcome.best.config['program_hash'] or 'not found'}, folder "
                      f"{outcome.best.config['folder_hash'] or '-'} (the best config's command)")


@app.command()
def sweep(
    ctx: typer.Context,
    game: str = typer.Argument(..., help="Contest name.", callback=checks.logged),
    bot: str = typer.Option(None, help="Bot name; the game's default bot if omitted.", callback=checks.bot_name),
    grid: list[str] = typer.Option([], "--grid", help="key=v1,v2,... (repeatable); the configs are the product."),
    set_: list[str] = typer.Option([], "--set", help="Override shared by every config, key=value."),
    opt: list[str] = typer.Option([], "--opt", help="Game option key=value."),
    hands: int = typer.Option(20_000, help="Units per config.", callback=checks.count),
    seed: int = typer.Option(1, help="Sweep seed: every config faces the same deals.", callback=checks.seed),
    chunk: int = typer.Option(5000, help="Units per task (and per logged chunk).", callback=checks.count),
    runner: str = typer.Option(None, help="Task runner: threads or dask (default CARDLAB_TASK_RUNNER, else "
                                          "threads; CARDLAB_DASK_ADDRESS for a cluster)."),
    workers: int = typer.Option(None, help="Parallel workers (default CARDLAB_WORKERS or 2).", callback=checks.count),
    resume: str = typer.Option(None, help="Sweep id of a crashed sweep to finish: its stored spec is reloaded, "
                                          "and any flag that contradicts it is refused.", callback=checks.sweep_id),
    program: str = typer.Option(None, help="Sweep your own program instead of a bot: its command line, with "
                                           "{name} placeholders for the --grid/--set parameters (quote it).",
                                callback=checks.program_commands),
    pass_as: str = typer.Option("args", help="How a program gets its parameters: args ({name} in its command) "
                                             "or env (environment variables)."),
    until_decided: bool = typer.Option(False, "--until-decided", help="Stop when decided: race the configs on the "
                                       "sweep's deals, then confirm the choice against the baseline on fresh deals "
                                       "with a sequential test; --hands is then the cap per config and phase."),
    d1: float = typer.Option(None, help="--until-decided: the difference per unit worth switching for (H1), in "
                                        "the game's unit (default: the game's own, declared with it)."),
    d0: float = typer.Option(0.0, help="--until-decided: the difference that is no reason to switch (H0)."),
    alpha: float = typer.Option(0.05, help="--until-decided: chance of switching when the difference is d0, and "
                                           "of the race stopping the best config."),
    beta: float = typer.Option(0.05, help="--until-decided: chance of keeping when the difference is d1."),
    json_: bool = typer.Option(False, "--json", help="--until-decided: print the decision as one JSON object "
                                                     "on stdout (the rest goes to stderr)."),
    retry_failed: bool = typer.Option(False, "--retry-failed", help="With --resume: play the configs that failed "
                                      "(a program that crashed) again; --resume alone retries a failed config "
                                      "once, and not in a sweep that closed."),
    turn_ms: int = options.turn_flags()[0],
    first_turn_ms: int = options.turn_flags()[1],
    clock: str = options.turn_flags()[2],
):
    """A Prefect flow: configs x chunks over the task runner, every unit to DuckDB, MLflow runs, best config.

    The baseline (the bot's defaults, or the config of the game's submitted bundle when it is this bot)
    is always one of the configs, so the sweep says whether anything beats what you have. With
    --until-decided it stops as soon as the decision (switch, keep or undecided at the cap) is made."""
    from flows.sweep_spec import SweepSpec, baseline_for, parse_grid, validate

    adapter = _adapter(game)
    if program and bot:
        fail("--program and --bot: given together; accepted: one of them (a sweep plays your program or a bot)")
    if program and not (grid or set_) and not resume:
        fail("--program: no parameters to sweep; accepted: --grid name=v1,v2 (and {name} in the command, or "
             "--pass-as env)")
    default_grid = () if program else tuple((k, tuple(v)) for k, v in adapter.default_grid.items())
    bot = PROGRAM_BOT if program else bot or adapter.default_bot
    if not program:
        options.bot(adapter.bots, bot, set_, game=adapter.name)  # the bot and its shared settings, before playing
        if not grid and not resume and bot != adapter.default_bot:  # the game's grid is of its default bot's keys
            keys = ", ".join(sorted(config_fields(adapter.bots[bot].config_type))) or "none: nothing to sweep"
            fail(f"--grid: none given, and the game's default grid is for {adapter.default_bot}; accepted: "
                 f"--grid key=v1,v2 with {bot}'s keys ({keys})")
    spec = SweepSpec(game=adapter.name, bot=bot, grid=parse_grid(grid) if grid else default_grid,
                     units=hands, seed=seed, chunk_size=chunk,
                     options=options.pairs([*opt, *_turn_options(adapter, turn_ms, first_turn_ms, clock)], "--opt"),
                     fixed=options.pairs(set_, "--set"), sweep_id=resume, program=program or "", pass_as=pass_as,
                     baseline=None if program or resume else baseline_for(adapter.name, bot))
    if retry_failed and not resume:
        fail("--retry-failed: only with --resume SWEEP; accepted: --resume SWEEP --retry-failed")
    if resume:
        spec = _resumed(spec, ctx, retry_failed=retry_failed)
    validate(spec)  # once, before the flows' imports (Prefect, MLflow: seconds): a bad command is refused at once
    rule = _decision_rule(adapter.name, resume, until_decided, d1=d1, d0=d0, alpha=alpha, beta=beta)
    if rule is None:
        if json_:
            fail("--json: only with --until-decided; accepted: --until-decided --json")
        _print_sweep(_run_sweep(spec, runner, workers, retry_failed), adapter.unit, adapter.name, spec.seed)
        return
    _sweep_until_decided(spec, rule, ctx, runner=runner, workers=workers, as_json=json_, retry_failed=retry_failed)


def _turn_options(adapter, turn_ms: int | None, first_turn_ms: int | None, clock: str | None) -> list[str]:
    """The turn-limit flags as the game's options (its MatchOptions' turn_ms, first_turn_ms, clock)."""
    import dataclasses

    from flows.games import specs

    def fields_of(spec) -> set[str]:
        return {f.name for f in dataclasses.fields(spec.options_type)} if spec.options_type else set()

    return options.turn_limits(fields_of(adapter), game=adapter.name, turn_ms=turn_ms, first_turn_ms=first_turn_ms,
                               clock=clock, games_with=lambda: [s.name for s in specs() if "turn_ms" in fields_of(s)])


def _decision_rule(game: str, resume: str | None, until_decided: bool, **flags):
    """The decided sweep's rule: the stored one when resuming, else from the flags (None: a fixed-size sweep)."""
    from flows.decide import make_rule, stored_rule
    from flows.store import read_only

    if resume:
        with read_only() as con:
            stored = stored_rule(con, resume)
        if stored is None and until_decided:
            fail(f"--until-decided: sweep {resume} was started with a fixed size; drop the flag to resume it as it was")
        return stored
    return make_rule(game, **flags) if until_decided else None


def _sweep_until_decided(spec, rule, ctx: typer.Context, *, runner: str | None, workers: int | None,
                         as_json: bool, retry_failed: bool = False) -> None:
    from dataclasses import replace

    from typer._click.core import ParameterSource

    from flows.decide import defaults_for, describe, with_runner

    found = defaults_for(spec.game)
    if not spec.sweep_id and ctx.get_parameter_source("chunk") is not ParameterSource.COMMANDLINE:
        spec = replace(spec, chunk_size=found.batch if found else 1000)  # a look after every chunk
    prefect_local.ensure()
    with _progress() as progress:
        bar = progress.add_task(f"sweep {spec.game} {spec.bot} until decided", total=None)
        got = with_runner(runner, workers=workers)(spec, rule, progress=lambda n: progress.advance(bar, n),
                                                   retry_failed=retry_failed)
    unit = _adapter(spec.game).unit
    for line in describe(got, unit):
        (typer.echo(line, err=True) if as_json else console.print(line))
    if as_json:
        print(got.to_json(), flush=True)


def _resumed(given, ctx: typer.Context, *, retry_failed: bool = False):
    """The stored spec of the sweep to resume; flags given on the command line must agree with it."""
    from typer._click.core import ParameterSource

    from flows.store import read_only
    from flows.sweep_spec import resume_spec

    explicit = {param: field for param, field in (("bot", "bot"), ("grid", "grid"), ("hands", "units"),
                                                  ("seed", "seed"), ("chunk", "chunk_size"), ("opt", "options"),
                                                  ("set_", "fixed"), ("program", "program"),
                                                  ("pass_as", "pass_as"), ("turn_ms", "options"),
                                                  ("first_turn_ms", "options"), ("clock", "options"))
                if ctx.get_parameter_source(param) is ParameterSource.COMMANDLINE}
    with read_only() as con:
        return resume_spec(con, given.sweep_id, {"game": given.game} | {field: getattr(given, field)
                                                                        for field in explicit.values()},
                           retry_failed=retry_failed)


# ---------------------------------------------------------------------------------- pick
@app.command()
def pick(
    game: str = typer.Argument(..., help="Contest name."),
    sweep_id: str = typer.Option(None, "--sweep", help="Sweep id; the game's latest sweep if omitted (refused "
                                                       "if that sweep is incomplete).", callback=checks.sweep_id),
    out: Path = typer.Option(None, help="Also export the picked config as a submission bundle into this folder.",
                             callback=checks.output_dir),
    submit: bool = typer.Option(False, "--submit", help="With --out: record the bundle as the game's submission "
                                                       "(what the nightly check replays and sweeps take as baseline)."),
):
    """Pick the best config (highest lower confidence bound) of a complete sweep in the hand log."""
    if submit and out is None:
        fail("--submit records the bundle --out writes: give --out DIR too")
    adapter = _adapter(game)
    picked = _pick(adapter.name, sweep_id)
    console.print(f"sweep {picked.sweep_id}: best {picked.bot} "
                  f"{json.dumps(picked.overrides)} mean {picked.mean:+.4f}, lower bound {picked.lower_bound:+.4f} "
                  f"(match {picked.match_id}; MLflow parent run {picked.run_id})")
    for config, reason in picked.failed:
        console.print(f"not considered: {escape(config)} failed: {escape(reason)}")
    if picked.bot == PROGRAM_BOT:
        _program_notes(picked.config)
    if picked.decision is not None and picked.decision.confirmed_mean is not None:  # --until-decided: the fresh deals'
        d = picked.decision
        console.print(f"decided: {d.decision}; confirmed on fresh deals (seed {d.deals['confirmation']['seed']}): "
                      f"challenger minus baseline {d.confirmed_mean:+.4f} (95% {_or_nan(d.confirmed_low)} .. "
                      f"{_or_nan(d.confirmed_high)}, {d.confirmed_method})")
    if out is not None:
        export_picked(adapter.name, picked, out, submit=submit)


def _picked_program(config: dict) -> ProgramConfig:
    """The picked program as it is now (its hashes taken from the files on disk today)."""
    return ProgramConfig(config["template"], tuple(map(tuple, config["params"])), config["pass_as"])


def _program_notes(config: dict) -> None:
    """Which program the sweep played (its hash), whether it is still that one, and how to make the chosen
    values the program's own defaults."""
    from bots.program import source_hints

    now = _picked_program(config)
    then = config.get("program_hash") or "not recorded"
    console.print(f"program: files {then}, folder {config.get('folder_hash') or '-'} (as swept)")
    if config.get("program_hash") and now.program_hash != config["program_hash"]:
        console.print(f"[yellow]warning[/]: the program changed since the sweep (files {then} then, "
                      f"{now.program_hash or 'not found'} now): its results are not this program's; sweep it again")
    for hint in source_hints(now):
        console.print(escape(hint))


def _or_nan(value: float | None) -> str:
    return "nan" if value is None else f"{value:+.4f}"


def _pick(game: str, sweep_id: str | None):
    """The sweep's best, by the one rule every command uses (flows.sweep_record)."""
    from flows import sweep_record
    from flows.store import read_only

    with read_only() as con:
        return sweep_record.pick(con, game, sweep_id)


def export_picked(game: str, picked, out: Path, *, submit: bool) -> None:
    """Write the picked config's bundle; with `submit`, record it as the game's submission (the nightly's
    candidate and the next sweep's baseline)."""
    from flows import submissions

    overrides = options.settings_of(picked.config or {})
    if picked.bot == PROGRAM_BOT:  # a user's program: the command with the chosen parameters
        swept = picked.config.get("program_hash")
        write_bundle(_picked_program(picked.config), Path(out),
                     note=f"picked by cardlab from sweep {picked.sweep_id} (program {swept})")
    else:
        commands = games.get(game).commands
        if commands is None or not hasattr(importlib.import_module(commands), "export"):
            fail(f"{game} has no export of its bots: pick --out exports programs only for this game")
        importlib.import_module(commands).export(out=out, bot=picked.bot, set_=overrides)
    (Path(out) if Path(out).is_dir() else Path(out).parent).joinpath("picked.json").write_text(
        json.dumps({"sweep_id": picked.sweep_id, "mlflow_run": picked.run_id, "bot": picked.bot,
                    "config": picked.config, "program_hash": (picked.config or {}).get("program_hash"),
                    "folder_hash": (picked.config or {}).get("folder_hash")}, indent=2))
    if submit:
        submissions.record_bundle(game, bot=picked.bot, config=picked.config or {}, source="pick", bundle=out,
                                  sweep_id=picked.sweep_id, mlflow_run=picked.run_id)
    else:
        _not_submitted()


def _not_submitted() -> None:
    typer.echo("note: the bundle is not recorded as a submission (add --submit to make it the game's candidate)",
               err=True)


# ---------------------------------------------------------------------------------- sql
VIEWS_HELP = """Views: stg_units, mart_match_results (mean, se, 95% CI per match/config), mart_sweep_pairs
(paired differences within a sweep), mart_cumulative, plus each game's raw tables, stg_* and mart_* views
(`cardlab sql` with no query lists them)."""


@app.command(help="Query the hand log read-only: one statement, no file but the hand log (no COPY, EXPORT, "
                  "ATTACH, read_csv, glob, SET, INSTALL), within a time and a memory limit; Ctrl-C stops it. "
                  + VIEWS_HELP)
def sql(query: str = typer.Argument(None, help="One read-only statement; omit to list tables and views."),
        db: Path = typer.Option(None, help="Hand log folder (default CARDLAB_DB or data/handlog).",
                                callback=checks.hand_log_to_read),
        limit: int = typer.Option(50, help="Rows to print at most.", callback=checks.count),
        format_: str = typer.Option("table", "--format", help="Output: table, csv or json (an array of objects; "
                                                              "infinities and NaN as the strings \"inf\", "
                                                              "\"-inf\" and \"nan\", which JSON has no number for)."),
        timeout: float = typer.Option(60.0, help="Seconds the query may run before it is stopped.",
                                      callback=checks.limit),
        memory_mb: int = typer.Option(2048, "--memory-mb", help="Memory the query may use, in MiB (DuckDB's "
                                                                "own default would be 80% of the machine).",
                                      callback=checks.within(64, checks.LIMIT_MAX))):
    import polars as pl

    from flows import readonly_sql

    if format_ not in SQL_FORMATS:
        fail(f"--format {format_!r} is not known; accepted: {', '.join(SQL_FORMATS)}")
    try:
        answer = readonly_sql.run(query or readonly_sql.LIST_TABLES, db=db, limit=limit, timeout=timeout,
                                  memory_mb=memory_mb)
    except readonly_sql.QueryStopped as exc:
        fail(str(exc), code=exc.code)
    except readonly_sql.QueryRefused as exc:
        fail(str(exc))
    shown = pl.from_arrow(answer.rows)
    if format_ == "table":
        with pl.Config(tbl_rows=limit, tbl_cols=-1, fmt_str_lengths=80, tbl_width_chars=240,
                       tbl_hide_dataframe_shape=True):
            print(shown)
    else:
        sys.stdout.write(_sql_csv(shown) if format_ == "csv" else _sql_json(shown))
    if answer.total > limit:
        typer.echo(f"... {answer.total - limit} more rows (use --limit)", err=format_ != "table")


SQL_FORMATS = ("table", "csv", "json")


def _sql_csv(frame) -> str:
    """CSV with nested values (lists, structs) written as JSON text, which CSV cannot hold otherwise."""
    import polars as pl

    def as_json(value) -> str:
        return json.dumps(value.to_list() if isinstance(value, pl.Series) else value, default=str)

    nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
    return frame.with_columns(pl.col(name).map_elements(as_json, return_dtype=pl.String) for name in nested).write_csv()


def _sql_json(frame) -> str:
    """An array of objects. JSON has no number for infinities and NaN (writers turn them into null or
    into tokens readers refuse), so they are the strings "inf", "-inf" and "nan"; other values JSON
    cannot hold (decimals, times, bytes) are their text."""
    import datetime
    import math

    def safe(value):
        if isinstance(value, float) and not math.isfinite(value):
            return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
        if isinstance(value, dict):
            return {key: safe(item) for key, item in value.items()}
        if isinstance(value, list):
            return [safe(item) for item in value]
        return value

    def text(value) -> str:
        if isinstance(value, (bytes, bytearray)):
            return value.hex()
        return value.isoformat() if isinstance(value, (datetime.date, datetime.time)) else str(value)

    return json.dumps([safe(row) for row in frame.to_dicts()], default=text, allow_nan=False) + "\n"


# ---------------------------------------------------------------------------------- ingest
@app.command()
def ingest(db: Path = typer.Option(None, help="Hand log folder (default CARDLAB_DB or data/handlog).",
                                   callback=checks.hand_log_to_read),
           source: Path = typer.Option(None, "--from", help="Copy this shard log, or this DuckDB hand log file "
                                                              "from before the shard log, into the hand log.")):
    """Move the writes kept in fallback folders (while the hand log's disk was full) into the hand log.

    Reads include those folders anyway; this tidies up once there is room."""
    from engine.core.errors import MissingFile
    from flows.store import ingest as ingest_files

    path = db or Paths.from_env().db
    if source is not None and not source.exists():
        raise MissingFile(f"--from {source} does not exist")
    stored, left = ingest_files(path, source=source)
    console.print(f"stored {stored} file(s) in {path}" + (f"; {left} could not be moved (see above)" if left else ""))


# ---------------------------------------------------------------------------------- report
@app.command()
def report(sweep_id: str = typer.Argument("latest", help="Sweep id, or 'latest'."),
           out: Path = typer.Option(None, help="Folder for index.html and the PNGs (default out/reports/<id>).",
                                    callback=checks.output_dir),
           screenshots: bool = typer.Option(False, "--screenshots",
                                            help="Also take PNG screenshots of the report and a replay page "
                                                 "(headless Chromium)."),
           screenshot_dir: Path = typer.Option(None, "--screenshot-dir",
                                               help="Folder for the screenshots (default <report>/screenshots).")):
    """Write a sweep's report (recommendation, paired differences, plots, the game's panels, replays of the
    biggest wins and losses) and the index page over all sweeps, leagues and nightly runs."""
    from reports.index import build_index
    from reports.sweep_report import build_report

    result = build_report(sweep_id, out_dir=out)
    console.print(f"report: {result.page}  (open it in a browser)")
    console.print(f"index: {build_index()}")
    if result.mlflow_run:
        from flows.tracking import attach_report

        try:  # the page is written whatever happens to MLflow
            attach_report(result.mlflow_run, result.page.parent)
            console.print(f"attached to MLflow parent run {result.mlflow_run}")
        except Exception as exc:  # noqa: BLE001 - one note line, not a traceback
            console.print(f"note: not attached to MLflow run {result.mlflow_run} ({type(exc).__name__}: {exc})")
    if screenshots:
        from reports.browser import screenshot

        folder = screenshot_dir or result.page.parent / "screenshots"
        shots = [screenshot(result.page, folder / "report.png")]
        if result.replays:
            shots.append(screenshot(result.replays[0], folder / "replay.png", height=1400, fragment="all-steps"))
        for shot in shots:
            console.print(f"screenshot: {shot}")


# ---------------------------------------------------------------------------------- serve
DAY_MINUTES = 24 * 60


@app.command()
def serve(game: list[str] = typer.Option([], "--game", help="Games to check (default: all)."),
          cron: str = typer.Option("0 3 * * *", help="Cron schedule of the first game's check."),
          stagger: int = typer.Option(10, help="Minutes between one game's check and the next's (all of them "
                                               "within a day).", callback=checks.within(0, DAY_MINUTES - 1)),
          dry_run: bool = typer.Option(False, help="Print the schedules and exit."),
          now: bool = typer.Option(False, "--now", help="Run the checks once, here and now, instead of serving "
                                                        "them; exit 1 if any candidate played differently.")):
    """Serve the nightly regression check of each game: its submitted candidate (the last bundle
    submitted: export or pick --out with --submit, or demo; the default bot if none) replayed on a
    fixed seed and compared unit by unit with the previous nightly of the same candidate. A
    difference fails the flow run.

    Uses the Prefect server at PREFECT_API_URL if set, else runs a local one while it serves."""
    from flows.serve import schedules
    from flows.serve import serve as serve_flows

    try:
        plan = schedules(list(game) or None, cron, stagger)
    except (ValueError, games.UnknownGame) as exc:
        fail(str(exc))
    if len(plan) > 1 and (len(plan) - 1) * stagger >= DAY_MINUTES:  # the last check would wrap into the next day
        fail(f"--stagger {stagger}: {len(plan)} games' checks would span {(len(plan) - 1) * stagger:,} minutes, past "
             f"a day; accepted: at most {(DAY_MINUTES - 1) // (len(plan) - 1)} minutes for {len(plan)} games")
    if now:
        from flows.nightly import run_check

        results = [run_check(item.game, say=console.print) for item in plan]
        for result in results:
            console.print(result.describe())
        if any(result.changed for result in results):
            raise typer.Exit(1)
        return
    for item in plan:
        console.print(f"{item.name}: game {item.game}, cron '{item.cron}'")
    if not dry_run:
        prefect_local.ensure(scheduling=True)
        serve_flows(plan)


# ---------------------------------------------------------------------------------- demo
def _demo_game() -> str:
    """The main job's game: the first, by name, whose spec declares a demo sweep."""
    return next((s.name for s in games.specs() if s.demo_sweep), games.names()[0])


@app.command()
def demo(game: str = typer.Option(None, help="Contest to sweep (default: the first declaring a demo sweep)."),
         bot: str = typer.Option(None, help="Bot (default: the game's demo bot, else its default bot).",
                                 callback=checks.bot_name),
         grid: list[str] = typer.Option([], "--grid", help="key=v1,v2 (default: a knob of the bot, 3 values "
                                                           "besides the baseline)."),
         hands: int = typer.Option(20_000, help="Units per config.", callback=checks.count),
         seed: int = typer.Option(1, callback=checks.seed)):
    """The main job: a real sweep on the embedded defaults (the baseline - the bot's defaults or the
    submitted config - against a knob's values), then pick, export and report."""
    from flows.sweep_spec import SweepSpec, baseline_for, parse_grid, validate
    from reports.sweep_report import build_report

    adapter = _adapter(game or _demo_game())
    default_bot, default_grid = adapter.demo_sweep or (adapter.default_bot, ())
    chosen_grid = parse_grid(list(grid or default_grid)) if (grid or default_grid) else tuple(
        (k, tuple(v)) for k, v in adapter.default_grid.items())
    chosen_bot = options.bot(adapter.bots, bot or default_bot, game=adapter.name).label
    spec = SweepSpec(game=adapter.name, bot=chosen_bot, units=hands, seed=seed, grid=chosen_grid,
                     baseline=baseline_for(adapter.name, chosen_bot))
    validate(spec)
    started = time.perf_counter()
    outcome = _run_sweep(spec, "threads", None)
    _print_sweep(outcome, adapter.unit)
    picked = _pick(adapter.name, outcome.sweep_id)
    paths = Paths.from_env()
    bundle = paths.out / "bundles" / adapter.name
    export_picked(adapter.name, picked, bundle, submit=True)  # the main job ends with a submission
    page = build_report(outcome.sweep_id).page
    uri = paths.tracking_uri
    console.print(f"""
[bold]Done in {time.perf_counter() - started:.0f} s.[/] Where everything is:
  hand log (shards)  {paths.db}
      cardlab sql "SELECT config, units, mean, ci_low, ci_high FROM mart_match_results
                   WHERE sweep_id = '{outcome.sweep_id}' ORDER BY ci_low DESC"
  MLflow runs        {uri}  (parent run {outcome.mlflow_run_id})
      .venv/bin/mlflow ui --backend-store-uri {uri} --host 127.0.0.1 --port 5000 --workers 1
  picked config      {json.dumps(picked.overrides)}  (lower bound {picked.lower_bound:+.4f})
  submission bundle  {bundle}
  report             {page}""")


# ---------------------------------------------------------------------------------- games' own commands
def _recording_export(game: str, export):
    """The game's export command plus `--submit`: only a submitted bundle becomes the game's candidate
    (the nightly check replays it; sweeps take it as their baseline); exporting alone writes a bundle."""
    signature = inspect.signature(export)
    submit = inspect.Parameter(
        "submit", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
        default=typer.Option(False, "--submit", help="record the bundle as the game's submission (what the "
                                                     "nightly check replays and sweeps take as baseline)"))

    @functools.wraps(export)
    def command(*, submit: bool = False, **kwargs):
        from flows.submissions import record_export

        export(**kwargs)
        if submit:
            record_export(game, kwargs)
        else:
            _not_submitted()

    command.__signature__ = signature.replace(parameters=[*signature.parameters.values(), submit])
    return command


@functools.cache
def _game_part(part: str, name: str):
    """The click command of game `name`'s `part` (see _GameParts), or None if it has none. A game with
    no judge of its own but a program protocol gets the generic one (cardlab.commands.generic)."""
    from cardlab.commands.generic import judge_command

    spec = games.get(name)
    module = importlib.import_module(spec.commands) if spec.commands else None
    target = getattr(module, part, None)
    if part == "judge" and target is None and spec.play_program is not None:
        target = judge_command(spec)
    if part == "export" and target is not None:
        target = _recording_export(name, target)
    if target is None:
        return None
    if isinstance(target, typer.Typer):
        group = typer.main.get_group(target)
        group.name, group.help = name, group.help or f"{name} {'benchmarks' if part == 'bench_app' else 'commands'}."
        return group
    single = typer.Typer()
    single.command(name=name)(target)
    return typer.main.get_command(single)


def _wire_workspace_bench() -> None:
    from cardlab.commands import workspace_bench

    bench_app.command("store")(workspace_bench.store)
    bench_app.command("sweep")(workspace_bench.sweep_scale)
    bench_app.command("decisions")(importlib.import_module("cardlab.commands.decisions_bench").decisions)


_wire_workspace_bench()
importlib.import_module("cardlab.commands.reports").wire(app)  # phh export, replay
app.command("league")(importlib.import_module("cardlab.commands.league").league)
app.command("new")(importlib.import_module("cardlab.commands.new").new)
bench_app.command("league")(importlib.import_module("cardlab.commands.league").bench_league)
app.add_typer(importlib.import_module("cardlab.commands.cluster").app, name="cluster")  # Dask + Prefect
app.add_typer(importlib.import_module("cardlab.commands.handlog").app, name="handlog")  # compact, check
app.command("fit")(importlib.import_module("cardlab.commands.fit").fit)  # opponent models (flows/opponents)


def main() -> None:
    quiet_teardown()
    prefect_local.exit_cleanly_on_sigterm()
    prefect_local.reap_stale()  # servers left by a cardlab that was killed with SIGKILL
    run_guarded(_checked_app)


def _checked_app() -> None:
    worker_count()  # a bad CARDLAB_WORKERS is refused before a Prefect server or a match starts, not after
    app()
