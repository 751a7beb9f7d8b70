"""Benchmarks of the workspace itself: hand-log ingest, logging's share of a match, sweep scale.

Each returns a frozen result; `cardlab bench store|sweep` parses arguments and prints them.
"""

import json
import resource
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

from flows import games
from flows.match import MatchPlan, play_chunk, run_match
from flows.settings import PROJECT_ROOT
from flows.store import HandLog, PendingChunk
from flows.sweep import with_runner


@dataclass(frozen=True)
class ReaderRun:
    wall: float  # the logged match while another process reads the log
    in_log: float  # seconds inside the hand log's calls
    waits: tuple[float, ...]  # each read's wait for the file, sorted


@dataclass(frozen=True)
class StoreBench:
    game: str
    bot: str
    unit: str
    hands: int
    chunk: int
    repeats: int
    rows: int  # over all tables
    ingest: float  # seconds to write every chunk to a fresh log, checkpoint included
    with_log: tuple[float, ...]  # per repeat, wall seconds of the match with the hand log
    without: tuple[float, ...]  # the same match without it
    inside: tuple[float, ...]  # per logged repeat, seconds inside the hand log's calls
    schema: tuple[float, ...]  # per logged repeat, a fresh file's tables and views (not timed)
    shared: ReaderRun | None
    writers: "WritersRun | None" = None

    @property
    def share(self) -> float:
        """Logging's share of the best logged match's wall time."""
        best_with = min(self.with_log)
        return max(0.0, best_with - min(self.without)) / best_with


@dataclass(frozen=True)
class WritersRun:
    processes: int
    hands: int  # per process
    wall: float  # from the first start to the last end
    stored: int  # units in the log afterwards, over all processes
    failed: int  # processes that exited with an error
    notes: int  # lines on the processes' stderr (a spooled write's note, ...)
    waits: tuple[float, ...]  # a reader's opens meanwhile, sorted


@dataclass(frozen=True)
class SweepRun:
    outcome: object  # flows.sweep's outcome
    wall: float
    peak_mb: float


def store_bench(*, game: str, bot: str | None, hands: int, chunk: int, seed: int, repeats: int,
                reader: bool, writers: int = 0, writer_hands: int = 10_000, writer_chunk: int = 1_000) -> StoreBench:
    adapter = games.get(game)
    plan = MatchPlan(game=adapter.name, bot=bot or adapter.default_bot, seed=seed, units=hands, chunk_size=chunk)
    logs = [play_chunk(plan, first, count)[0] for _, first, count in plan.chunks()]  # also warms caches
    rows = sum(log.count + sum(len(next(iter(c.values()))) for c in log.tables.values() if c) for log in logs)
    with tempfile.TemporaryDirectory() as tmp:
        with HandLog(Path(tmp) / "ingest.duckdb") as log_store:
            log_store.ensure_game(adapter)
            log_store.write_chunk("warm-up", 0, logs[0])  # first-use imports (pyarrow) outside the timing
            started = time.perf_counter()
            log_store.write_chunks([PendingChunk("ingest", i, log) for i, log in enumerate(logs)])
            if hasattr(HandLog, "LINGER_S"):  # the DuckDB file log (before the shard log): its deferred
                log_store.con.execute("CHECKPOINT")  # compression is logging's cost too
            ingest = time.perf_counter() - started
        with_log, without, schema, inside, shared = [], [], [], [], None
        for repeat in range(repeats):  # which goes first alternates, so a drift in load hits both
            for logged in (False, True) if repeat % 2 == 0 else (True, False):
                if logged:
                    wall, in_log, setup = logged_match(plan, adapter, Path(tmp) / f"match{repeat}.duckdb")
                    with_log.append(wall)
                    inside.append(in_log)
                    schema.append(setup)
                    continue
                started = time.perf_counter()
                run_match(plan, None)
                without.append(time.perf_counter() - started)
        if reader:
            shared = match_with_a_reader(plan, adapter, Path(tmp) / "shared.duckdb")
        many = None
        if writers:
            many = many_writers(adapter.name, plan.bot, writers, writer_hands, writer_chunk, seed,
                                Path(tmp) / "writers.duckdb")
    return StoreBench(game=adapter.name, bot=plan.bot, unit=adapter.unit, hands=hands, chunk=chunk, repeats=repeats,
                      rows=rows, ingest=ingest, with_log=tuple(with_log), without=tuple(without),
                      inside=tuple(inside), schema=tuple(schema), shared=shared, writers=many)


WRITER = """
import sys
from flows.match import MatchPlan, run_match
from flows.store import HandLog
db, game, bot, seed, hands, chunk = sys.argv[1:7]
plan = MatchPlan(game=game, bot=bot, seed=int(seed), units=int(hands), chunk_size=int(chunk))
print("ready", flush=True)
sys.stdin.readline()  # all start together
with HandLog(db) as store:
    run_match(plan, store)
"""


def many_writers(game: str, bot: str, processes: int, hands: int, chunk: int, seed: int, path: Path) -> WritersRun:
    """`processes` processes each log a match of `hands` units at once, as `cardlab match` does, while
    another process reads the log every 0.1 s."""
    with HandLog(path) as store:  # the log and the game's tables exist before they start
        store.ensure_game(games.get(game))
    stop = path.with_name("stop-reading-writers")
    reading = subprocess.Popen([sys.executable, "-c", READER, str(path), str(stop)], stdout=subprocess.PIPE,
                               text=True, cwd=PROJECT_ROOT)
    reading.stdout.readline()
    started_all = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), game, bot, str(seed + k), str(hands),
                                     str(chunk)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True, cwd=PROJECT_ROOT) for k in range(processes)]
    for process in started_all:  # imported and warm: the timing is the matches and their logging
        process.stdout.readline()
    started = time.perf_counter()
    for process in started_all:
        process.stdin.write("go\n")
        process.stdin.flush()
    errors = [process.communicate(timeout=1800)[1] for process in started_all]
    wall = time.perf_counter() - started
    stop.touch()
    out, _ = reading.communicate(timeout=120)
    from flows.store import read_only

    con = read_only(path, wait=60)
    try:
        stored = con.execute("SELECT count(*) FROM units").fetchone()[0]
    finally:
        con.close()
    return WritersRun(processes=processes, hands=hands, wall=wall, stored=int(stored),
                      failed=sum(p.returncode != 0 for p in started_all),
                      notes=sum(len([line for line in e.splitlines() if line.strip()]) for e in errors),
                      waits=tuple(sorted(json.loads(out or "[]"))))


READER = """
import json, os, sys, time
from flows.store import read_only
print("ready", flush=True)
waits = []
while not os.path.exists(sys.argv[2]):
    started = time.perf_counter()
    try:
        con = read_only(sys.argv[1], wait=60)
    except FileNotFoundError:
        time.sleep(0.01)
        continue
    waits.append(time.perf_counter() - started)
    con.execute("SELECT count(*) FROM units").fetchall()
    con.close()
    time.sleep(0.1)
print(json.dumps(waits))
"""


def match_with_a_reader(plan, adapter, path: Path) -> ReaderRun:
    """The logged match while another process reads the log back to back: (wall, inside, waits)."""
    stop = path.with_name("stop-reading")
    process = subprocess.Popen([sys.executable, "-c", READER, str(path), str(stop)], stdout=subprocess.PIPE,
                               text=True, cwd=PROJECT_ROOT)
    try:
        process.stdout.readline()  # imported and reading
        wall, in_log, _ = logged_match(plan, adapter, path)
    finally:
        stop.touch()
        out, _ = process.communicate(timeout=120)
    return ReaderRun(wall=wall, in_log=in_log, waits=tuple(sorted(json.loads(out or "[]"))))


def logged_match(plan, adapter, path: Path) -> tuple[float, float, float]:
    """One match with the hand log, as `cardlab match` runs it: (wall seconds, seconds spent
    inside the hand log's calls, seconds to give a fresh file the game's schema, not timed)."""
    spent = [0.0]

    class TimedHandLog(HandLog):  # the writes happen on the match's own thread, so they add up
        def timed(self, method, *args, **kwargs):
            started = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - started

        def begin_match(self, **kwargs):
            return self.timed(super().begin_match, **kwargs)

        def write_chunks(self, pending):
            return self.timed(super().write_chunks, pending)

        def finish_match(self, match_id, seconds, **kwargs):
            return self.timed(super().finish_match, match_id, seconds, **kwargs)

    with TimedHandLog(path) as log_store:
        # A hand log gets its game's tables and views once, not per match (an existing log
        # skips the schema file unless it changed), so a fresh file's is not timed.
        started = time.perf_counter()
        log_store.ensure_game(adapter)
        setup = time.perf_counter() - started
        started = time.perf_counter()
        run_match(plan, log_store)
        # Closing writes what is left in the WAL into the file, as at the end of `cardlab match`
        # (the log has usually let the file go already after the match's finish, doing just that).
        log_store.timed(log_store.close)
        return time.perf_counter() - started, spent[0], setup


def warm_up(plan) -> None:
    """One small chunk: loads the numba cache and the bot's tables in the calling process."""
    play_chunk(replace(plan, chunk_size=10), 0, 10)


def timed_sweep(spec, *, kind: str, workers: int, address: str | None) -> SweepRun:
    """One sweep on the given runner, its wall time and this process's peak RSS sampled during it."""
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        page = resource.getpagesize()
        while not done.wait(0.1):
            peak[0] = max(peak[0], int(Path("/proc/self/statm").read_text().split()[1]) * page)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        try:
            outcome = with_runner(kind, workers=workers, address=address)(
                spec, db=str(Path(tmp) / "scale.duckdb"), track=False)
        finally:
            done.set()
            sampler.join()
        wall = time.perf_counter() - started
    return SweepRun(outcome=outcome, wall=wall, peak_mb=peak[0] / 2**20)
