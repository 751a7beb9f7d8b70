"""Sweeps on a real cluster: a Prefect server, a Dask scheduler and worker processes on
127.0.0.1, started here from the project's environment. Every hand a worker plays equals the
threads runner's, and losing a worker mid-sweep loses nothing."""

import os
import re
import uuid
from dataclasses import dataclass, replace

import pytest

from cardlab import cluster, prefect_local
from flows.store import read_only
from flows.sweep import SweepFailed, SweepSpec, parse_grid, with_runner

pytestmark = pytest.mark.slow  # a Dask cluster and worker processes per test

HOLDEM = SweepSpec(game="holdem-training", bot="exploit", grid=parse_grid(["future_edge=0.3,0.5"]), units=400,
                   seed=11, chunk_size=100)
CG = SweepSpec(game="cg-holdem", bot="aggressive", grid=parse_grid(["bet_respect=0.25,0.4"]), units=60, seed=11,
               chunk_size=20)


@dataclass(frozen=True)
class Running:
    server: prefect_local.LocalServer
    scheduler: cluster.Service
    workers: tuple[cluster.Service, ...]
    logs: object


def _use_prefect(url: str | None) -> None:
    import prefect.context

    if url is None:
        os.environ.pop("PREFECT_API_URL", None)
    else:
        os.environ["PREFECT_API_URL"] = url
    prefect.context.refresh_global_settings_context()


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """Server, scheduler and two workers, each waited for with a bound, all stopped at the end."""
    logs = tmp_path_factory.mktemp("cluster-logs")
    saved = os.environ.get("PREFECT_API_URL")
    server = prefect_local.start()  # a real server process (Prefect's own server app) on a free port
    started: list[cluster.Service] = []
    try:
        _use_prefect(server.api_url)
        scheduler = cluster.start_scheduler(port=cluster.free_port(), prefect_api=server.api_url,
                                            log=logs / "scheduler.log")
        started.append(scheduler)
        for index in range(2):
            started.append(cluster.start_worker(scheduler.address, name=f"w{index}", prefect_api=server.api_url,
                                                log=logs / f"worker-{index}.log"))
        cluster.wait_for_workers(scheduler.address, 2)
        yield Running(server, scheduler, tuple(started[1:]), logs)
    finally:
        for service in reversed(started):
            cluster.stop(service.pid)
        _drain_prefect()  # else this process retries its last logs against a stopped server at exit
        prefect_local.stop(server)
        _use_prefect(saved)


def _drain_prefect() -> None:
    from prefect.events.worker import EventsWorker
    from prefect.logging.handlers import APILogWorker

    APILogWorker.drain_all(timeout=10)
    EventsWorker.drain_all(timeout=10)


def _hands(db: str, sweep_id: str) -> dict[str, list[tuple]]:
    """Every row of the units table and of the game's raw tables, by table, with the match id
    replaced by the config's index (ids differ between runs, nothing else may)."""
    con = read_only(db)
    try:
        tables = [name for (name,) in con.execute(
            "SELECT table_name FROM information_schema.columns WHERE column_name IN ('match_id', 'chunk') "
            "AND table_name != 'chunks' AND table_name IN (SELECT view_name FROM duckdb_views() "
            "WHERE comment = 'raw table') GROUP BY table_name HAVING count(*) = 2 ORDER BY table_name").fetchall()]
        return {table: con.execute(
            f"SELECT regexp_extract(match_id, '-c(\\d+)$', 1) AS config, * EXCLUDE (match_id) FROM {table} "
            f"WHERE match_id LIKE ? ORDER BY ALL", [f"{sweep_id}-c%"]).fetchall() for table in tables}
    finally:
        con.close()


def _task_runs(server: prefect_local.LocalServer, tag: str) -> int:
    """Task runs the server recorded with `tag` (its database may be shared with other runs)."""
    import json
    import urllib.request

    body = json.dumps({"task_runs": {"tags": {"all_": [tag]}}}).encode()
    request = urllib.request.Request(f"{server.api_url}/task_runs/count", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return int(json.loads(response.read()))


def _eventually(read, *, expect_settled_s: float = 1.0, timeout_s: float = 20.0):
    """The server records task runs from events, a moment after they happen: the value once it
    has stopped changing (bounded wait)."""
    import time

    deadline = time.monotonic() + timeout_s
    value, since = read(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = read()
        if now != value:
            value, since = now, time.monotonic()
        elif time.monotonic() - since >= expect_settled_s:
            break
    return value


@pytest.fixture(scope="module")
def threads_runs(tmp_path_factory):
    """The reference: each spec swept by the threads runner in this process, once."""
    folder = tmp_path_factory.mktemp("threads")
    done = {}
    for spec in (HOLDEM, CG):
        db = str(folder / f"{spec.game}.duckdb")
        outcome = with_runner("threads")(spec, db=db, track=False)
        done[spec.game] = _hands(db, outcome.sweep_id)
    return done


@pytest.mark.parametrize("spec", [HOLDEM, CG], ids=["holdem-training", "cg-holdem"])
def test_worker_processes_play_every_hand_as_the_threads_runner_does(running, threads_runs, spec, tmp_path):
    from prefect import tags

    db = str(tmp_path / "dask.duckdb")
    tag = f"test-{uuid.uuid4().hex[:12]}"
    with tags(tag):  # the tags context travels to the workers with each task
        outcome = with_runner("dask", address=running.scheduler.address)(spec, db=db, track=False)
    hands = _hands(db, outcome.sweep_id)
    chunks = len(spec.configs()) * len(spec.plans()[0].chunks())
    assert len(hands["units"]) == spec.units * len(spec.configs())
    assert any(rows for table, rows in hands.items() if table != "units")  # the game's raw tables too
    assert hands == threads_runs[spec.game]
    # The workers reported every chunk's task run to this server and none started its own.
    assert _eventually(lambda: _task_runs(running.server, tag)) == chunks
    text = "".join(p.read_text() for p in running.logs.glob("worker-*.log"))
    assert "Starting temporary server" not in text
    assert len(re.findall(r"Task run 'play-chunk-\w+' - Finished in state Completed", text)) >= chunks


def test_a_worker_killed_mid_sweep_loses_nothing(running, threads_runs, tmp_path):
    from distributed import Client

    victim = cluster.start_worker(running.scheduler.address, name="victim", prefect_api=running.server.api_url,
                                  log=running.logs / "victim.log")
    killed: list[int] = []
    try:
        cluster.wait_for_workers(running.scheduler.address, 3)
        with Client(running.scheduler.address, timeout=30) as client:
            victim_address = next(address for address, info in client.scheduler_info()["workers"].items()
                                  if info["name"] == "victim")

            def kill_once(_n: int) -> None:
                if not killed:  # the first chunk is in: the others are spread over the three workers
                    killed.append(len(client.processing()[victim_address]))
                    cluster.kill(victim)

            spec = replace(HOLDEM, sweep_id="s-killed")
            db = str(tmp_path / "killed.duckdb")
            run = with_runner("dask", address=running.scheduler.address)
            try:
                outcome = run(spec, db=db, track=False, progress=kill_once, max_in_flight=6)
                print("the lost worker's chunks were rescheduled by Dask")
            except SweepFailed as exc:  # a lost chunk is recorded nowhere: resume plays exactly it
                print(f"resumed after: {exc}")
                outcome = run(spec, db=db, track=False)
    finally:
        cluster.stop(victim.pid)
    assert killed and killed[0] >= 1, "the victim had no chunk running when it was killed"
    assert _hands(db, outcome.sweep_id) == threads_runs[HOLDEM.game]


def test_the_chunk_task_and_a_progress_callback_pickle():
    import pickle
    import threading

    from flows.runners import LocalOnly
    from flows.sweep import play_chunk_task

    assert pickle.loads(pickle.dumps(play_chunk_task)).fn is play_chunk_task.fn  # by reference: workers import it
    lock = threading.RLock()  # what a progress bar holds: it must not travel with the flow's parameters
    seen = []
    callback = LocalOnly(lambda n: (lock, seen.append(n)))
    callback(3)
    pickle.loads(pickle.dumps(callback))(4)  # a worker's copy does nothing
    assert seen == [3]


def test_a_network_scheduler_with_a_loopback_prefect_server_is_refused(monkeypatch):
    from flows.runners import check_reachable_prefect

    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:4200/api")
    check_reachable_prefect("tcp://127.0.0.1:8786")  # one host: fine
    with pytest.raises(ValueError, match="point PREFECT_API_URL at the team's Prefect server"):
        check_reachable_prefect("tcp://10.1.2.3:8786")
    monkeypatch.setenv("PREFECT_API_URL", "http://10.1.2.3:4200/api")
    check_reachable_prefect("tcp://10.1.2.3:8786")


def test_cluster_up_serves_a_sweep_through_the_documented_settings_and_stops_everything(tmp_path):
    """`cardlab cluster up` prints the exports; a `cardlab sweep` with only those set runs on its
    workers; SIGTERM stops the server, the scheduler and the workers."""
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    import psutil

    cardlab = str(Path(sys.executable).with_name("cardlab"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_API_URL", "CARDLAB_DASK", "CARDLAB_TASK"))}
    up = subprocess.Popen([cardlab, "cluster", "up", "--workers", "1", "--scheduler-port", str(cluster.free_port()),
                           "--prefect-port", str(cluster.free_port()), "--logs", str(tmp_path / "logs")],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines, deadline = [], time.monotonic() + 120
        while time.monotonic() < deadline and not any("Ctrl-C" in line for line in lines):
            line = up.stdout.readline()
            assert line or up.poll() is None, "".join(lines)
            lines.append(line)
        settings = dict(re.findall(r"export (\w+)=(\S+)", "".join(lines)))
        assert set(settings) == {"CARDLAB_TASK_RUNNER", "CARDLAB_DASK_ADDRESS", "PREFECT_API_URL"}, lines
        services = psutil.Process(up.pid).children(recursive=True)
        swept = subprocess.run([cardlab, "sweep", "cg-holdem", "--grid", "bet_respect=0.25,0.4", "--hands", "20",
                                "--chunk", "10"], env={**env, **settings, "CARDLAB_DB": str(tmp_path / "h.duckdb")},
                               capture_output=True, text=True, timeout=300)
        assert swept.returncode == 0, swept.stdout[-2000:] + swept.stderr[-2000:]
        assert "Connecting to an existing Dask cluster" in swept.stdout + swept.stderr
        worker_log = (tmp_path / "logs" / "worker-0.log").read_text()
        assert len(re.findall(r"Task run 'play-chunk-\w+' - Finished in state Completed", worker_log)) == 4
    finally:
        up.send_signal(signal.SIGTERM)
        up.wait(timeout=60)
    _, alive = psutil.wait_procs(services, timeout=20)
    assert not alive, [p.cmdline() for p in alive]


def test_a_league_on_worker_processes_logs_what_threads_log(running, tmp_path, monkeypatch):
    import sys
    import threading
    from pathlib import Path

    from flows.league import run_league
    from flows.league_spec import build

    contestant = str(Path(__file__).parents[1] / "holdem_training" / "data" / "contestant.py")
    spec = build(name="ht", game="holdem-training", games=2, options={"hands": 30},
                 programs=[("checker", f"{sys.executable} {contestant} check"),
                           ("garbage", f"{sys.executable} {contestant} garbage 5")])
    run_league(spec, db=str(tmp_path / "threads.duckdb"), workers=2, runner="threads")
    monkeypatch.setenv("CARDLAB_DASK_ADDRESS", running.scheduler.address)
    lock = threading.RLock()  # like a progress bar's: it cannot travel to a worker
    run_league(spec, db=str(tmp_path / "dask.duckdb"), workers=2, runner="dask", progress=lambda n: (lock, n))
    logged = []
    for name in ("threads", "dask"):  # league match ids are deterministic: whole tables compare
        con = read_only(str(tmp_path / f"{name}.duckdb"))
        logged.append([con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
                       for table in ("units", "ht_packed_hands")])
        con.close()
    assert logged[0][0] and logged[0] == logged[1]
