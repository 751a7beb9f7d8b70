"""`cardlab bench store|sweep`: parse, run bench.workspace, print; Dask workers for the sweep are started here."""

import os
import resource

import typer
from rich.console import Console

from cardlab.errors import fail

console = Console()
MAIN_GAME = "the main job's game, the first whose spec declares a demo sweep"  # flows.games.demo_game


def store(
    game: str = typer.Option(None, help=f"Game whose real chunks are logged (default: {MAIN_GAME})."),
    bot: str = typer.Option(None, help="Bot (default: the game's default bot)."),
    hands: int = typer.Option(40_000, help="Units in the timed match."),
    chunk: int = typer.Option(10_000, help="Units per chunk."),
    seed: int = typer.Option(1),
    repeats: int = typer.Option(5, help="Alternating runs with and without logging; the best of each counts."),
    reader: bool = typer.Option(True, help="Also time the logged match while another process reads the log."),
    writers: int = typer.Option(8, help="Then this many processes each log a match at once, while another "
                                        "process reads the log every 0.1 s (0: skip)."),
    writer_hands: int = typer.Option(10_000, help="Units of each writer process's match."),
    writer_chunk: int = typer.Option(1_000, help="Units per chunk of each writer process's match."),
):
    """Hand-log ingest rate, and logging's share of a match's time (target: at most 10%).

    The share compares the wall time of the same match (same seed) played with and without
    the hand log, as `cardlab match` runs it (each chunk is written once played). On this
    shared VM one 40,000-hand run varies by 10-20% with others' load, more than logging
    costs: the best of 5 of each is steadier than the best of 3, and as the writes run on
    the match's own thread, the time spent inside the hand log is also printed directly.

    With --reader (the default), the logged match is played once more while another process
    opens the log read-only, counts its units and closes it, every 0.1 s: how long each read
    takes to open, and what the reader costs the match. With --writers (8), that many processes
    then log a match each at the same time, with the reader beside them."""
    from bench.workspace import store_bench
    from flows import games

    r = store_bench(game=game or games.demo_game(), bot=bot, hands=hands, chunk=chunk, seed=seed, repeats=repeats,
                    reader=reader, writers=writers, writer_hands=writer_hands, writer_chunk=writer_chunk)
    with_log, without, inside, schema, shared = r.with_log, r.without, r.inside, r.schema, r.shared
    rows, ingest, unit = r.rows, r.ingest, r.unit
    best_with, best_without = min(with_log), min(without)
    share = r.share
    console.print(f"{r.game} / {r.bot}: {hands:,} {unit}s in chunks of {chunk:,}, "
                  f"{rows:,} rows over all tables")
    console.print(f"  ingest alone       {ingest:7.3f} s  ({rows / ingest:,.0f} rows/s, "
                  f"{hands / ingest:,.0f} {unit}s/s)")
    for label, best in (("without", best_without), ("with", best_with)):
        console.print(f"  match {label:7} log  {best:7.3f} s  ({hands / best:,.0f} {unit}s/s; best of {repeats})")
    console.print(f"  (not timed: a fresh log file gets the game's tables and views once, {min(schema):.3f} s)")
    verdict = "meets" if share <= 0.10 else "misses"
    console.print(f"  logging share of match time: {share:.1%}  ({verdict} the 10% target)")
    paired = sorted((w - wo) / w for w, wo in zip(with_log, without, strict=True))
    console.print(f"  (each repeat's own pair: median {paired[len(paired) // 2]:.1%}, "
                  f"from {paired[0]:.1%} to {paired[-1]:.1%}: the spread is other load on the machine)")
    own = sorted(in_log / wall for in_log, wall in zip(inside, with_log, strict=True))
    console.print(f"  time spent inside the hand log (match record, chunk writes, closing the file): "
                  f"median {own[len(own) // 2]:.1%} of the logged match, from {own[0]:.1%} to {own[-1]:.1%}")
    if shared is not None:
        wall, in_log, waits = shared.wall, shared.in_log, shared.waits
        console.print(f"  with a reader in another process (read-only open, count, close, every 0.1 s): match with "
                      f"log {wall:.3f} s (inside the hand log {in_log / wall:.1%}); {len(waits)} reads, each waited "
                      f"median {waits[len(waits) // 2] * 1000:.0f} ms, at most {waits[-1] * 1000:.0f} ms"
                      if waits else f"  with a reader: match with log {wall:.3f} s; no read got in")
    if r.writers is not None:
        w = r.writers
        console.print(f"  {w.processes} writer processes at once, {w.hands:,} {unit}s each in chunks of "
                      f"{writer_chunk:,}: {w.wall:.3f} s in all ({w.processes * w.hands / w.wall:,.0f} {unit}s/s); "
                      f"{w.stored:,} of {w.processes * w.hands:,} {unit}s in the log at the end; {w.failed} failed; "
                      f"{w.notes} line(s) on their stderr")
        if w.waits:
            median, most = w.waits[len(w.waits) // 2] * 1000, w.waits[-1] * 1000
            console.print(f"    a reader meanwhile (open, count, close, every 0.1 s): {len(w.waits)} reads, each "
                          f"waited median {median:.0f} ms, at most {most:.0f} ms")


def sweep_scale(
    game: str = typer.Option(None, help=f"Game swept (default: {MAIN_GAME})."),
    bot: str = typer.Option(None, help="Bot (default: the game's default bot, swept over its default grid)."),
    total: int = typer.Option(1_000_000, help="Units over all configs of the game's default grid."),
    chunk: int = typer.Option(10_000),
    workers: int = typer.Option(2),
    runner: str = typer.Option("threads", help="threads, or dask: the same sweep on threads, then on 1 and 2 "
                                               "Dask worker processes (a cluster started here, or the one at "
                                               "CARDLAB_DASK_ADDRESS), hands/s per worker for each."),
    compare: bool = typer.Option(True, help="With --runner dask: also threads and 1 worker; --no-compare runs "
                                            "only --workers Dask workers (a long sweep's memory, once)."),
):
    """A large sweep (default 1,000,000 hands over the default grid): wall time, hands/s per core, peak memory."""
    from bench.workspace import timed_sweep, warm_up
    from flows import games
    from flows.sweep import SweepSpec

    adapter = games.get(game or games.demo_game())
    grid = tuple((k, tuple(v)) for k, v in adapter.default_grid.items())
    spec = SweepSpec(game=adapter.name, bot=bot or adapter.default_bot, grid=grid, units=1, chunk_size=chunk)
    per_config = -(-total // len(spec.configs()))
    spec = SweepSpec(game=spec.game, bot=spec.bot, grid=grid, units=per_config, chunk_size=chunk)
    if runner not in ("threads", "dask"):
        fail(f"--runner {runner!r} is not a task runner; accepted: threads, dask")
    console.print(f"{adapter.name} / {spec.bot}: {len(spec.configs())} configs x {per_config:,} "
                  f"{adapter.unit}s, chunks of {chunk:,}")
    warm_up(spec.plans()[0])  # this process's numba cache and tables, outside the timing
    runs = [("threads", workers)]
    if runner == "dask":
        from cardlab import prefect_local

        prefect_local.ensure()  # workers report to one server, not a temporary one each
        if os.environ.get("CARDLAB_DASK_ADDRESS"):
            runs = [*runs[:compare], ("dask", 0)]
        else:
            runs = [*runs, ("dask", 1), ("dask", 2)] if compare else [("dask", workers)]
    with _dask_workers() as scale:
        for kind, count in runs:
            address = None
            if kind == "dask":
                address, count = scale(count, spec.plans()[0])
            run = timed_sweep(spec, kind=kind, workers=count, address=address)
            written, wall, peak_mb = run.outcome.units_written, run.wall, run.peak_mb
            console.print(f"  {kind:7} x{count}: {written:,} {adapter.unit}s in {wall:.1f} s, "
                          f"{written / wall:,.0f}/s, {written / wall / count:,.0f}/s per worker, "
                          f"flow process peak RSS {peak_mb:,.0f} MB", soft_wrap=True)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    console.print(f"  peak memory (max RSS of this process over all runs): {peak_mb:,.0f} MB "
                  f"({'under' if peak_mb < 2048 else 'over'} the 2 GB target)", soft_wrap=True)


class _dask_workers:  # noqa: N801 - used as a context manager, reads as one
    """Dask workers on demand: `scale(n)` returns a scheduler address with n warm workers
    (started here as separate processes, or the cluster at CARDLAB_DASK_ADDRESS as it is)."""

    def __init__(self):
        self.scheduler = None
        self.workers: list = []

    def __enter__(self):
        return self.scale

    def scale(self, count: int, plan) -> tuple[str, int]:
        """(scheduler address, workers on it); 0 asks for the given cluster as it is."""
        from distributed import Client

        from bench.workspace import warm_up
        from cardlab import cluster

        given = os.environ.get("CARDLAB_DASK_ADDRESS")
        if given:
            with Client(given, timeout=60) as client:
                client.run(warm_up, plan)
                return given, len(client.scheduler_info()["workers"])
        if self.scheduler is None:
            self.scheduler = cluster.start_scheduler(port=cluster.free_port(),
                                                     prefect_api=os.environ.get("PREFECT_API_URL"))
        while len(self.workers) < count:
            self.workers.append(cluster.start_worker(self.scheduler.address, name=f"bench-{len(self.workers)}",
                                                     prefect_api=os.environ.get("PREFECT_API_URL")))
        cluster.wait_for_workers(self.scheduler.address, count)
        with Client(self.scheduler.address, timeout=60) as client:
            client.run(warm_up, plan)  # each worker's numba cache and tables, outside the timing
        return self.scheduler.address, count

    def __exit__(self, *exc):
        from cardlab import cluster

        for service in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            cluster.stop(service.pid)

