"""The sweep flow: configs x seed chunks fanned out over the task runner, every hand
streamed to the hand log by this process (or by the tasks themselves: CARDLAB_WORKERS_WRITE), one MLflow parent run with
a child per config, and the best config named by its lower confidence bound."""

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.exceptions import TerminationSignal
from prefect.futures import as_completed
from prefect.states import Failed

from bots.base import config_as_dict
from engine.core import ending
from engine.core.errors import Unavailable
from flows import games, sweep_record, tracking
from flows.match import ChunkFailed, MatchPlan, play_chunk, record_match
from flows.runners import LocalOnly, make_task_runner
from flows.settings import worker_count
from flows.stats import payoff_interval
from flows.store import BackgroundWriter, HandLog, NoRoom, new_match_id, to_stderr
from flows.sweep_spec import (  # noqa: F401 (re-exported: the spec and its checks)
    RESUME_FLAGS,
    ResumeRefused,
    SweepSpec,
    _match_id,
    baseline_for,
    parse_grid,
    resume_spec,
    validate,
)


@dataclass(frozen=True)
class SweepOutcome:
    sweep_id: str
    runs: tuple[tracking.ConfigRun, ...]
    best: tracking.ConfigRun
    runner_up: tracking.ConfigRun | None
    paired_diff: float | None
    paired_se: float | None
    mlflow_run_id: str | None
    seconds: float
    units_written: int
    baseline: tracking.ConfigRun | None = None
    baseline_diff: float | None = None  # best minus baseline, paired on the same units
    baseline_se: float | None = None


CONFIG_FAILED = "ConfigFailed"  # the state name of a chunk its config failed (not a lost worker or a bug)


def play_chunk_or_failed(plan: MatchPlan, first: int, count: int):
    try:
        return play_chunk(plan, first, count)
    except ChunkFailed as exc:  # a Failed state with the one-line reason, not a logged traceback
        return Failed(message=str(exc), name=CONFIG_FAILED)


# Not a decorator: the plain function keeps its own module name, so Dask pickles the task
# by reference (a worker imports flows.sweep) instead of failing on the decorated name.
play_chunk_task = task(play_chunk_or_failed, name="play-chunk", persist_result=False, cache_policy=NO_CACHE,
                       retries=0)


def play_and_write(plan: MatchPlan, first: int, count: int, db: str, match_id: str, chunk: int):
    """Play a chunk and write it to the hand log where it was played (a Dask worker): only its size
    and time go back to the flow. The worker must see the hand log's folder (this host, or a
    folder shared by every host)."""
    outcome = play_chunk_or_failed(plan, first, count)
    if not isinstance(outcome, tuple):
        return outcome
    log, seconds = outcome
    try:
        with HandLog(db) as store:
            store.ensure_game(plan.adapter())
            store.write_chunk(match_id, chunk, log, seconds=seconds)
    except NoRoom as exc:
        return Failed(message=str(exc))
    return log.count, seconds


play_and_write_task = task(play_and_write, name="play-and-write-chunk", persist_result=False,
                           cache_policy=NO_CACHE, retries=0)


def workers_write() -> bool:
    """CARDLAB_WORKERS_WRITE=1: whoever plays a chunk writes it (docs/hand-log.md); else the flow does."""
    return os.environ.get("CARDLAB_WORKERS_WRITE", "") not in ("", "0")


class SweepFailed(Unavailable):
    """The sweep stopped (a lost worker, a full disk, or every config failed): --resume replays what is missing."""


@flow(name="cardlab-sweep", validate_parameters=False, log_prints=True)
def sweep_flow(spec: SweepSpec, db: str | None = None, track: bool = True,
               progress: Callable[[int], None] | None = None, max_in_flight: int | None = None,
               retry_failed: bool = False) -> SweepOutcome:
    """A config whose chunk fails (its program crashed, or broke the protocol so the judge ended the match) is
    recorded as failed with the reason and the others play on, as that config would simply lose in the contest.
    Resuming a sweep that did not close plays a failed config again once (its cause may have been fixed); one that
    failed twice, or a failed config of a closed sweep, plays again only with `retry_failed` (--retry-failed)."""
    logger = get_run_logger()
    started = time.perf_counter()
    sweep_id = spec.sweep_id or new_match_id("s")
    plans = spec.plans()
    adapter = games.get(spec.game)
    with HandLog(db) as store:
        try:
            store.begin_sweep(sweep_id=sweep_id, game=adapter.name, bot=spec.bot, grid=dict(spec.grid),
                              units=spec.units, seed=spec.seed, spec=spec.to_json())
        except NoRoom as exc:
            return _no_room(sweep_id, exc, "nothing was recorded; once there is room, run the command again")
        jobs = []
        try:
            for index, plan in enumerate(plans):
                record_match(store, plan, _match_id(sweep_id, index), source="sweep", sweep_id=sweep_id)
            failed = reopen_failed(store, [_match_id(sweep_id, i) for i in range(len(plans))],
                                   retry_failed=retry_failed)
            earlier = set(failed)  # recorded already; not tried this time
            for index, plan in enumerate(plans):
                match_id = _match_id(sweep_id, index)
                done = store.written_chunks(match_id)  # resuming skips what is already stored
                jobs += [(match_id, plan, c, first, count) for c, first, count in plan.chunks()
                         if c not in done and match_id not in failed]
        except NoRoom as exc:
            return _no_room(sweep_id, exc, _resume_hint(adapter.name, sweep_id))
        logger.info("sweep %s: %d configs, %d chunks to play", sweep_id, len(plans), len(jobs))
        try:
            written = _play_jobs(store, jobs, sweep_id=sweep_id, game=adapter.name, progress=progress,
                                 window=max_in_flight or 2 * worker_count(), failed=failed)
        except SweepFailed as exc:  # the run is Failed with the one-line reason (no traceback in the log)
            return Failed(message=str(exc), data=exc)
        ids = [_match_id(sweep_id, i) for i in range(len(plans))]
        failed = {match_id: failed[match_id] for match_id in ids if match_id in failed}  # config order, every run
        try:
            for index, _ in enumerate(plans):
                match_id = _match_id(sweep_id, index)
                total = store.query("SELECT coalesce(sum(seconds), 0) AS s FROM chunks WHERE match_id = ?",
                                    [match_id])["s"][0]
                store.finish_match(match_id, float(total), status="failed" if match_id in failed else None)
        except NoRoom as exc:
            return _no_room(sweep_id, exc, _resume_hint(adapter.name, sweep_id))
        for match_id, reason in failed.items():
            logger.warning("config %s %s: %s", match_id, "failed before" if match_id in earlier else "failed", reason)
        if len(failed) == len(plans):  # nothing to choose from; the sweep stays open for --retry-failed
            return _all_failed(sweep_id, adapter.name, failed)
        runs = _config_runs(store, sweep_id, plans, failed)
        best, runner_up = _ranked(runs)
        diff, se = _paired(store, best, runner_up)
        base_index = spec.baseline_index(plans)
        baseline = None if base_index is None else runs[base_index]
        base_diff, base_se = ((0.0, 0.0) if baseline is best else (None, None) if baseline and baseline.failure
                              else _paired(store, best, baseline))
        run_id = None
        if track:
            run_id = tracking.log_sweep(game=adapter.name, sweep_id=sweep_id, bot=spec.bot,
                                        grid={k: list(v) for k, v in spec.grid}, seed=spec.seed, runs=list(runs),
                                        best=best, runner_up=runner_up, paired_diff=diff, paired_se=se,
                                        spec=json.loads(spec.to_json()), baseline=baseline,
                                        pairs=sweep_record.pair_rows(store.con, sweep_id))
        # Closed last: a sweep whose MLflow runs were not all logged stays open, and `pick` refuses it.
        try:
            store.finish_sweep(sweep_id, best_match=best.match_id, mlflow_run=run_id,
                               baseline_match=None if baseline is None else baseline.match_id)
        except NoRoom as exc:
            return _no_room(sweep_id, exc, _resume_hint(adapter.name, sweep_id))
    logger.info("best config %s: mean %.4f, lower bound %.4f", best.overrides, best.mean, best.ci_low)
    return SweepOutcome(sweep_id, tuple(runs), best, runner_up, diff, se, run_id,
                        time.perf_counter() - started, written, baseline, base_diff, base_se)


TRIES = 2  # a failed config is played again by one resume; after that only by --retry-failed


def reopen_failed(store: HandLog, match_ids: list[str], *, retry_failed: bool = False) -> dict[str, str]:
    """Every resumed sweep's one rule for its failed configs (of `match_ids`): those tried fewer than TRIES
    times (all, with `retry_failed`) are opened again to play their missing chunks; the others stay failed
    and are returned (match id -> reason), for the sweep to leave out."""
    found = store.query("SELECT match_id, failure FROM matches WHERE failure IS NOT NULL AND match_id IN "
                        "(SELECT unnest(?::VARCHAR[])) ORDER BY match_id", [list(match_ids)])
    failed = dict(zip(found["match_id"], found["failure"], strict=True))
    again = [m for m in failed if retry_failed or failed_attempts(store, m) < TRIES]
    _clear_failures(store, again)
    return {m: reason for m, reason in failed.items() if m not in again}


def failed_attempts(store: HandLog, match_id: str) -> int:
    found = store.query("SELECT coalesce(CAST(json_extract(options, '$.failed_attempts') AS INTEGER), 1) AS n "
                        "FROM matches WHERE match_id = ?", [match_id])
    return int(found["n"][0]) if found.height else 1


def _record_failure(store: HandLog, match_id: str, reason: str) -> None:
    """matches.failure says why; options.failed_attempts counts the tries (TRIES: a resume retries only once)."""
    options = store.match_options(match_id)
    options["failed_attempts"] = int(options.get("failed_attempts", 0)) + 1
    store.put("matches", [{"match_id": match_id, "failure": reason, "options": json.dumps(options, sort_keys=True)}])


def _clear_failures(store: HandLog, match_ids: list[str]) -> None:
    """Open failed configs again: they play their missing chunks as if never tried (the count of tries stays).
    Nothing is deleted: an appended row sets failure and finished_at back to NULL and drops the status."""
    for match_id in match_ids:
        options = store.match_options(match_id)
        options.pop("status", None)
        store.put("matches", [{"match_id": match_id, "options": json.dumps(options, sort_keys=True)}],
                  cleared=("failure", "finished_at"))


def _all_failed(sweep_id: str, game: str, failed: dict[str, str]):
    reasons = "; ".join(failed.values())
    stopped = SweepFailed(f"sweep {sweep_id} stopped: every config failed ({reasons}); fix the cause, then "
                          f"`cardlab sweep {game} --resume {sweep_id}` plays them again once (later: add "
                          f"--retry-failed)")
    return Failed(message=str(stopped), data=stopped)


def _resume_hint(game: str, sweep_id: str) -> str:
    return f"once there is room, `cardlab sweep {game} --resume {sweep_id}` plays only the missing chunks"


def _no_room(sweep_id: str, exc: NoRoom, then: str):
    """The run Failed with one line (no traceback in the log): the disk is full and no fallback folder has room."""
    failed = SweepFailed(f"sweep {sweep_id} stopped: {exc}; {then}")
    return Failed(message=str(failed), data=failed)


def _play_jobs(store: HandLog, jobs: list, *, sweep_id: str, game: str, progress, window: int,
               failed: dict[str, str] | None = None) -> int:
    """Keep `window` chunks in flight (bounded memory), writing each as it arrives. After the
    first failure nothing more is submitted; chunks already running finish and are kept.

    With `failed` (match id -> reason), a chunk that fails fails only its config: the reason is added there
    and recorded with the config (its tries counted, even if the sweep then stops), that config's other chunks
    are not submitted, and the other configs play on. A lost worker still stops all."""
    writer = BackgroundWriter(store)
    direct = workers_write()
    where = str(store.path.absolute())
    played = 0  # units the tasks wrote themselves
    pending = iter(jobs)
    running: dict = {}
    failure: tuple[str, int, str | BaseException] | None = None
    stopped: BaseException | None = None
    lost: NoRoom | None = None  # the hand log's disk is full and no fallback folder has room
    new_failures: list[str] = []
    try:
        while True:
            while failure is None and len(running) < window:
                job = next(pending, None)
                if job is None:
                    break
                match_id, plan, chunk, first, count = job
                if failed is not None and match_id in failed:
                    continue
                running[play_and_write_task.submit(plan, first, count, where, match_id, chunk) if direct
                        else play_chunk_task.submit(plan, first, count)] = (match_id, chunk)
            if not running:
                break
            future = next(as_completed(list(running)))
            match_id, chunk = running.pop(future)
            try:
                outcome = future.result(raise_on_failure=False)
            except Exception as exc:  # e.g. a Dask worker lost
                outcome = exc
            if failed is not None and future.state.is_failed() and future.state.name == CONFIG_FAILED:
                if match_id not in failed:
                    failed[match_id] = future.state.message or "failed"
                    new_failures.append(match_id)
                continue
            if future.state.is_failed() or not isinstance(outcome, tuple):
                # Recorded nowhere, so --resume replays exactly this chunk.
                failure = failure or (match_id, chunk, future.state.message if future.state.is_failed() else outcome)
                continue
            if direct:
                units = outcome[0]
                played += units
            else:
                log, seconds = outcome
                writer.add(match_id, chunk, log, seconds)
                units = log.count
            if progress is not None:
                progress(units)
    except (KeyboardInterrupt, TerminationSignal) as exc:  # Ctrl-C, SIGHUP (engine.core.ending); SIGTERM
        stopped = exc  # (Prefect's own during a flow run: it re-sends it to ours once the flow has ended)
    except NoRoom as exc:
        lost = exc
    finally:
        try:
            written = writer.close() + played  # every chunk that finished lands, whatever happened
        except NoRoom as exc:
            written, lost = writer.written + played, lost or exc
        try:  # counted now, so a resume after an interrupt or a lost worker knows this try was made
            for match_id in new_failures:
                _record_failure(store, match_id, failed[match_id])
        except NoRoom as exc:
            lost = lost or exc
    if stopped is not None:  # the chunks in play are dropped: a chunk is all or nothing
        to_stderr(f"interrupted by {ending.describe(stopped)}: sweep {sweep_id} stopped; {written:,} units kept; "
                  f"`cardlab sweep {game} --resume {sweep_id}` plays only the missing chunks")
        raise stopped
    if lost is not None:
        raise SweepFailed(f"sweep {sweep_id} stopped: {lost}; {written:,} units kept; {_resume_hint(game, sweep_id)}")
    if failure is not None:
        match_id, chunk, cause = failure
        reason = cause if isinstance(cause, str) else f"match {match_id} chunk {chunk}: {cause!r}"
        raise SweepFailed(f"sweep {sweep_id} stopped: {reason}; {written:,} units kept; fix the cause, then "
                          f"`cardlab sweep {game} --resume {sweep_id}` plays only the missing chunks")
    return written


def _config_runs(store: HandLog, sweep_id: str, plans: list[MatchPlan],
                 failed: dict[str, str] | None = None) -> list[tracking.ConfigRun]:
    rows = store.query("SELECT * FROM mart_match_results WHERE sweep_id = ? ORDER BY match_id", [sweep_id])
    by_id = {r["match_id"]: r for r in rows.iter_rows(named=True)}
    runs = []
    for index, plan in enumerate(plans):
        row = by_id[_match_id(sweep_id, index)]
        # The one interval rule (never a point for a bounded payoff); a config a decided sweep's race never
        # played has no units, and nan for its numbers.
        interval = payoff_interval(row["game"], int(row["units"]), _number(row["mean"]), _number(row["sd"]))
        runs.append(tracking.ConfigRun(
            match_id=row["match_id"], bot=plan.bot, config=config_as_dict(plan.config()),
            overrides=dict(plan.overrides), units=int(row["units"]), mean=interval.mean,
            se=float(row["se"] or 0.0), ci_low=interval.low, ci_high=interval.high,
            units_per_s=float(row["units_per_s"] or 0.0), failure=(failed or {}).get(row["match_id"]),
        ))
    return runs


def _number(value) -> float:
    return math.nan if value is None else float(value)


def _ranked(runs: list[tracking.ConfigRun]):
    ordered = sweep_record.ranked(runs)
    return ordered[0], (ordered[1] if len(ordered) > 1 else None)


def _paired(store: HandLog, best, runner_up) -> tuple[float | None, float | None]:
    if runner_up is None:
        return None, None
    row = store.query(
        "SELECT avg(a.payoff - b.payoff) AS d, stddev_samp(a.payoff - b.payoff) / sqrt(count(*)) AS se "
        "FROM units a JOIN units b ON a.unit = b.unit WHERE a.match_id = ? AND b.match_id = ?",
        [best.match_id, runner_up.match_id],
    ).row(0, named=True)
    return float(row["d"]), float(row["se"] or 0.0)


def with_runner(kind: str | None = None, **kwargs):
    """The sweep flow bound to a task runner chosen by setting (threads or dask). Prefect ships
    the flow's parameters to every task, so `progress` is wrapped to stay in this process."""
    bound = sweep_flow.with_options(task_runner=make_task_runner(kind, **kwargs))

    def run(spec: SweepSpec, *, progress: Callable[[int], None] | None = None, **flow_kwargs) -> SweepOutcome:
        return bound(spec, progress=LocalOnly(progress) if progress else None, **flow_kwargs)

    return run

