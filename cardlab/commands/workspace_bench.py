"""Benchmarks of the workspace itself: hand-log ingest, logging's share of a match, sweep scale."""

import resource
import tempfile
import time
from pathlib import Path

import typer
from rich.console import Console

console = Console()


def store(
    game: str = typer.Option("holdem-training", help="Game whose real chunks are logged."),
    bot: str = typer.Option(None, help="Bot (default: the game's default bot)."),
    hands: int = typer.Option(20_000, help="Units in the timed match."),
    chunk: int = typer.Option(5000, help="Units per chunk."),
    seed: int = typer.Option(1),
):
    """Hand-log ingest rate and logging's share of a match's time (target: at most 10%)."""
    from flows import games
    from flows.match import MatchPlan, play_chunk, record_match
    from flows.store import HandLog

    adapter = games.get(game)
    plan = MatchPlan(game=adapter.name, bot=bot or adapter.default_bot, seed=seed, units=hands, chunk_size=chunk)
    warm_log, _ = play_chunk(plan, 0, min(50, hands))  # compile / warm caches outside the timing
    with tempfile.TemporaryDirectory() as tmp, HandLog(Path(tmp) / "bench.duckdb") as log_store:
        record_match(log_store, plan, "bench", source="bench")
        log_store.write_chunk("warm-up", 0, warm_log)  # first-use imports (pyarrow) outside the timing
        played = written = 0.0
        rows = 0
        for index, first, count in plan.chunks():
            chunk_log, seconds = play_chunk(plan, first, count)
            played += seconds
            started = time.perf_counter()
            log_store.write_chunk("bench", index, chunk_log, seconds=seconds)
            written += time.perf_counter() - started
            rows += count + sum(len(next(iter(cols.values()))) for cols in chunk_log.tables.values() if cols)
        started = time.perf_counter()
        log_store.con.execute("CHECKPOINT")  # the deferred compression is logging's cost too
        written += time.perf_counter() - started
    share = written / (played + written)
    console.print(f"{adapter.name} / {plan.bot}: {hands:,} {adapter.unit}s in chunks of {chunk:,}")
    console.print(f"  play   {played:7.3f} s  ({hands / played:,.0f} {adapter.unit}s/s)")
    console.print(f"  log    {written:7.3f} s  ({rows / written:,.0f} rows/s, {hands / written:,.0f} {adapter.unit}s/s "
                  f"ingested, {rows:,} rows over all tables)")
    verdict = "meets" if share <= 0.10 else "misses"
    console.print(f"  logging share of match time: {share:.1%}  ({verdict} the 10% target)")


def sweep_scale(
    game: str = typer.Option("holdem-training"),
    bot: str = typer.Option(None, help="Bot (default: the game's default bot, swept over its default grid)."),
    total: int = typer.Option(1_000_000, help="Units over all configs of the game's default grid."),
    chunk: int = typer.Option(10_000),
    workers: int = typer.Option(2),
):
    """A large sweep (default 1,000,000 hands over the default grid): wall time, hands/s per core, peak memory."""
    from flows import games
    from flows.sweep import SweepSpec, with_runner

    adapter = games.get(game)
    grid = tuple((k, tuple(v)) for k, v in adapter.default_grid.items())
    spec = SweepSpec(game=adapter.name, bot=bot or adapter.default_bot, grid=grid, units=1, chunk_size=chunk)
    per_config = -(-total // len(spec.configs()))
    spec = SweepSpec(game=spec.game, bot=spec.bot, grid=grid, units=per_config, chunk_size=chunk)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        outcome = with_runner("threads", workers=workers)(spec, db=str(Path(tmp) / "scale.duckdb"), track=False)
        wall = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    written = outcome.units_written
    console.print(f"{adapter.name} / {spec.bot}: {len(spec.configs())} configs x {per_config:,} = {written:,} "
                  f"{adapter.unit}s in {wall:.1f} s wall with {workers} workers")
    console.print(f"  {written / wall:,.0f} {adapter.unit}s/s overall, {written / wall / workers:,.0f} per core")
    console.print(f"  peak memory (max RSS of this process): {peak_mb:,.0f} MB "
                  f"({'under' if peak_mb < 2048 else 'over'} the 2 GB target)")
