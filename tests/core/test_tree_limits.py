"""Limits over a contestant's whole process tree, crashes reported as crashes, kept stderr, and
what the program can read: each with a real program written to tmp_path, in both modes where the
machine has them (a cgroup, or the tree polled from /proc)."""

import sys
import uuid
from pathlib import Path

import pytest

from engine.core import cgroups, sandbox
from engine.core.pids import Tree
from engine.core.process import Keep, LimitExceeded, LineProcess, ProgramEnded, hidden_paths

from .test_contestant import survivors

HOG = """import os, sys, time
def hold(mb):
    block = bytearray(mb << 20)
    for i in range(0, len(block), 4096):
        block[i] = 1
    return block
if sys.argv[2] == "child":  # a forked child holds it; the parent only waits
    if os.fork() == 0:
        kept = hold(int(sys.argv[3]))
        time.sleep(60)
        os._exit(0)
else:
    kept = hold(int(sys.argv[3]))
print("holding", flush=True)
time.sleep(60)
"""

SLEEPERS = """import os, sys, time
made = 0
for _ in range(int(sys.argv[2])):
    try:
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        made += 1
    except OSError:  # refused at the limit: keep trying, as a fork bomb would
        pass
print(f"made {made}", flush=True)
time.sleep(60)
"""


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.fixture(params=["machine", "polled"])
def mode(request, monkeypatch):
    """'machine': whatever this machine gives (a cgroup where it can); 'polled': no cgroup."""
    if request.param == "polled":
        monkeypatch.setattr(cgroups, "_hierarchies", lambda: {})
    return request.param


def test_memory_held_by_a_child_under_a_shell_counts(tmp_path, mode):
    """`sh -c "python3 bot.py; true"` whose forked child holds 300 MB: the top process holds
    almost nothing, the tree holds the 300 MB and is stopped at 150."""
    marker = f"hog-{uuid.uuid4().hex}"
    hog = script(tmp_path, "hog.py", HOG)
    proc = LineProcess(["sh", "-c", f"{sys.executable} {hog} {marker} child 300; true"], memory_mb=150)
    assert proc.limits.startswith(f"memory {cgroups.CGROUP if proc._group.memory_folder else cgroups.POLLED}")
    with pytest.raises(LimitExceeded) as info:
        for _ in range(3):
            proc.read_line(timeout=20)
    report = proc.close()
    assert info.value.kind == "memory" and report.limit == "memory" and report.peak_memory_mb > 150
    assert survivors(marker) == []


@pytest.mark.slow  # polls a process tree for seconds
def test_memory_under_the_limit_is_measured_over_the_tree(tmp_path, mode):
    marker = f"hog-{uuid.uuid4().hex}"
    hog = script(tmp_path, "hog.py", HOG)
    with LineProcess([sys.executable, hog, marker, "child", "60"], memory_mb=400) as proc:
        assert proc.read_line(timeout=20) == "holding"
        with pytest.raises(LimitExceeded, match="wall"):
            proc.read_line(timeout=0.5)  # polls the tree meanwhile
        report = proc.close(grace=0)
    assert report.limit is None and 60 < report.peak_memory_mb < 400


def test_a_fork_bomb_is_stopped_and_every_process_reaped(tmp_path, mode):
    """500 sleepers against a limit of 40: the program is stopped (forks refused by pids.max, or
    the tree killed when polled over the limit) and none of its processes survives."""
    marker = f"bomb-{uuid.uuid4().hex}"
    bomb = script(tmp_path, "bomb.py", SLEEPERS)
    proc = LineProcess([sys.executable, bomb, marker, "500"], processes=40)
    task_mode = cgroups.CGROUP if proc._group and proc._group.pids_folder else cgroups.POLLED
    assert proc.limits.endswith(f"processes {task_mode}")
    if mode == "polled":
        assert task_mode == cgroups.POLLED
    with pytest.raises(LimitExceeded) as info:
        for _ in range(3):
            proc.read_line(timeout=20)
    report = proc.close()
    assert info.value.kind == "processes" and report.limit == "processes"
    assert survivors(marker) == []
    if proc._group is not None:
        assert proc._group.folders() == []  # removed with the tree


@pytest.mark.slow  # polls a process tree for seconds
def test_a_few_processes_under_the_limit_are_fine(tmp_path, mode):
    marker = f"few-{uuid.uuid4().hex}"
    few = script(tmp_path, "few.py", SLEEPERS)
    with LineProcess([sys.executable, few, marker, "5"], processes=40) as proc:
        assert proc.read_line(timeout=20) == "made 5"
        with pytest.raises(LimitExceeded, match="wall"):
            proc.read_line(timeout=0.3)
        assert proc.close(grace=0).limit is None
    assert survivors(marker) == []


def test_the_tree_is_every_descendant(tmp_path):
    marker = f"tree-{uuid.uuid4().hex}"
    few = script(tmp_path, "few.py", SLEEPERS)
    with LineProcess([sys.executable, few, marker, "3"], namespaces=False) as proc:
        assert proc.read_line(timeout=20) == "made 3"
        members = Tree(proc.proc.pid).members()
        assert len(members) == 4 and proc.pid in members
        assert set(survivors(marker)) == set(members)


def test_group_readings_from_a_v2_style_folder(tmp_path):
    """The figures read from a cgroup v2 group: its peak, an OOM kill, a refused fork."""
    group = cgroups.Group(None, None)
    assert group.folders() == []
    (tmp_path / "memory.peak").write_text("314572800\n")
    (tmp_path / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    (tmp_path / "pids.events").write_text("max 0\n")
    group.memory_folder = group.pids_folder = str(tmp_path)
    assert group.memory_peak_kb() == 300 * 1024 and group.memory_killed() and not group.tasks_refused()
    (tmp_path / "pids.events").write_text("max 2\n")
    assert group.tasks_refused()


@pytest.mark.parametrize("kind", ["exit", "signal"])
def test_a_crash_at_start_is_reported_as_a_crash_with_its_stderr(tmp_path, kind):
    crash = ("import sys; print('cannot open /tmp/bot.log: read-only', file=sys.stderr); sys.exit(3)" if kind == "exit"
             else "import ctypes, sys; print('about to fault', file=sys.stderr, flush=True); ctypes.string_at(0)")
    proc = LineProcess([sys.executable, "-c", crash])
    with pytest.raises(ProgramEnded) as info:
        proc.send("hello")
        proc.read_line(timeout=20)
    report = proc.close()
    assert info.value.crashed
    if kind == "exit":
        assert str(info.value) == "the program crashed (exit status 3): cannot open /tmp/bot.log: read-only"
        assert report.returncode == 3
    else:
        assert str(info.value) == "the program crashed (killed by signal SIGSEGV): about to fault"
        assert report.returncode == -11
    assert "about to fault" in report.stderr_tail or "read-only" in report.stderr_tail


def test_a_clean_exit_without_answering_is_not_a_crash():
    proc = LineProcess([sys.executable, "-c", "pass"])
    with pytest.raises(ProgramEnded) as info:
        proc.read_line(timeout=20)
    proc.close()
    assert not info.value.crashed and "crashed" not in str(info.value)


def test_keep_saves_stderr_and_the_folder(tmp_path):
    code = ("import sys; print('a note', file=sys.stderr); open('made.txt', 'w').write('x'); "
            "print('done', flush=True)")
    keep = Keep(str(tmp_path / "kept"), "seat1", with_folder=True)
    for _ in range(2):
        with LineProcess([sys.executable, "-c", code], keep=keep) as proc:
            assert proc.read_line(timeout=20) == "done"
            proc.close()
    kept = tmp_path / "kept"
    assert (kept / "seat1.stderr").read_text() == "a note\n" and (kept / "seat1.2.stderr").read_text() == "a note\n"
    assert (kept / "seat1.folder" / "made.txt").read_text() == "x"
    assert not any(p.name.startswith(".cardlab-overlay") for p in (kept / "seat1.folder").iterdir())


def test_the_hand_log_mlflow_and_home_are_out_of_sight(tmp_path, monkeypatch):
    """A program in its own folder tries to read the hand log, the MLflow store and a file in
    the user's home by absolute path: where the read-only view is in force, all fail (the hand log
    cannot be opened; the folders are empty); it still runs python3 and reads its own folder and
    the project's data beside the hand log."""
    home, user = tmp_path / "cardlab-home", tmp_path / "user"
    for path, text in ((home / "data" / "handlog.duckdb", "hands"), (home / ".mlflow" / "mlflow.db", "runs"),
                       (user / "secret.txt", "secret")):
        path.parent.mkdir(parents=True)
        path.write_text(text)
    monkeypatch.setenv("CARDLAB_HOME", str(home))
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.delenv("CARDLAB_DB", raising=False)
    (home / "data" / "handlog.duckdb.spool").mkdir()
    (home / "data" / "handlog.duckdb.spool" / "entry.parquet").write_text("spooled")
    (home / "data" / "cards.csv").write_text("the project's own data")
    assert {str(home / "data" / "handlog.duckdb"), str(home / "data" / "handlog.duckdb.spool"), str(home / ".mlflow"),
            str(user)} <= set(hidden_paths())
    bot_folder = tmp_path / "bot"
    bot_folder.mkdir()
    (bot_folder / "table.txt").write_text("mine")
    targets = [home / "data" / "handlog.duckdb", home / ".mlflow" / "mlflow.db", user / "secret.txt",
               home / "data" / "handlog.duckdb.spool" / "entry.parquet", home / "data" / "cards.csv",
               bot_folder / "table.txt"]
    bot = script(bot_folder, "bot.py", f"""import subprocess, sys
for path in {[str(t) for t in targets]!r}:
    try:
        print(open(path).read().replace(" ", "_"), end=" ")
    except OSError as exc:
        print(type(exc).__name__, end=" ")
print(subprocess.run(["python3", "-c", "print(6 * 7)"], capture_output=True, text=True).stdout.strip(), flush=True)
""")
    with LineProcess([sys.executable, bot], cwd=str(bot_folder)) as proc:
        seen = proc.read_line(timeout=30).split()
        view = proc.isolation
    if view != sandbox.READONLY_FS:
        pytest.skip(f"no read-only view here ({view})")
    assert seen == ["PermissionError"] + ["FileNotFoundError"] * 3 + ["the_project's_own_data", "mine", "42"]
    assert (home / "data" / "handlog.duckdb").read_text() == "hands"  # covered, not touched
