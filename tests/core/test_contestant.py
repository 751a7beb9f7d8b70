"""The contestant runner against hostile programs, with and without namespaces: every fault
gets its verdict quickly, and no process of the program's survives."""

import os
import sys
import time
import uuid
from pathlib import Path

import pytest

from engine.core import sandbox
from engine.core.process import LimitExceeded, LineProcess, ProgramEnded

HOSTILE = str(Path(__file__).parent / "data" / "hostile.py")
PROJECT = Path(__file__).resolve().parents[2]
IN_NAMESPACES = (sandbox.READONLY_FS, sandbox.NAMESPACES)


class ReportPipe:
    """Where a hostile program writes what it saw: a FIFO, since a program with a read-only
    view of the file system can still write to one (like /dev/null) but to no file outside its
    folder. Read it once the program is done; the test keeps a writer open so that the
    program's successive opens and closes never end it."""

    def __init__(self, path: Path):
        os.mkfifo(path)
        self.path = path
        self._read = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        self._writer = os.open(path, os.O_WRONLY)

    def __str__(self) -> str:
        return str(self.path)

    def read_text(self) -> str:
        data = b""
        while True:
            try:
                chunk = os.read(self._read, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            data += chunk
        return data.decode()


def survivors(marker: str) -> list[int]:
    """Processes whose command line carries `marker` (forked children keep their parent's)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as f:
                    if marker.encode() in f.read():
                        found.append(int(name))
            except OSError:
                pass
    return found


def hostile(mode: str, *args: str, **kwargs) -> tuple[LineProcess, str]:
    marker = f"hostile-{uuid.uuid4().hex}"
    return LineProcess([sys.executable, HOSTILE, marker, mode, *args], **kwargs), marker


@pytest.fixture(params=[True, False], ids=["namespaces", "subreaper"])
def namespaces(request):
    return request.param


def finish(proc: LineProcess, marker: str):
    report = proc.close()
    assert survivors(marker) == []
    return report


@pytest.mark.parametrize("mode, kind", [("flood", None), ("sleep", "wall"), ("noread_nonewline", "output"),
                                        ("bigline", "output"), ("garbage", "wall"), ("close_stdout", None)])
@pytest.mark.slow  # waits out wall limits, both sandboxes
def test_a_program_that_never_reads_cannot_stall_the_judge(namespaces, mode, kind):
    proc, marker = hostile(mode, namespaces=namespaces, max_line_bytes=1 << 20)
    started = time.monotonic()
    try:
        for _ in range(2000):  # far more input than a pipe holds: writes must never block
            proc.send("STATE " + "x" * 200)
            proc.read_line(timeout=1.0 if kind == "wall" else 10.0)  # slack for a loaded machine
    except LimitExceeded as exc:
        assert exc.kind == kind
    except ProgramEnded:
        assert mode == "close_stdout"
    else:
        assert mode == "flood"
    finish(proc, marker)
    assert time.monotonic() - started < 15


@pytest.mark.slow  # burns CPU to the limit
def test_burning_cpu_is_stopped_with_a_figure_past_the_limit(namespaces):
    proc, marker = hostile("burn", namespaces=namespaces, cpu_seconds=1)
    with pytest.raises(LimitExceeded) as info:
        proc.read_line(timeout=20)
    report = finish(proc, marker)
    assert info.value.kind == "cpu" and report.limit == "cpu" and report.cpu_seconds > 1
    assert f"{report.cpu_seconds:.2f} s of CPU > 1 s" in str(info.value)


def test_allocating_is_stopped_at_the_memory_limit(namespaces):
    proc, marker = hostile("alloc", namespaces=namespaces, memory_mb=200)
    with pytest.raises(LimitExceeded) as info:
        proc.read_line(timeout=20)
    assert info.value.kind == "memory"
    assert finish(proc, marker).limit == "memory"


@pytest.mark.parametrize("mode", ["escape", "escape_exit"])
def test_detached_grandchildren_die_with_the_program_and_it_sees_only_what_it_is_given(
        namespaces, mode, tmp_path, monkeypatch):
    monkeypatch.setenv("FOO_TOKEN", "secret-value")
    report_file = ReportPipe(tmp_path / "seen.txt")
    proc, marker = hostile(mode, str(report_file), namespaces=namespaces, env={"HOSTILE_EXTRA": "given"})
    if mode == "escape":
        proc.send("STATE")
    assert proc.read_line(timeout=10) == "ACTION CHECK"
    if mode == "escape_exit":  # the program has exited normally; its daemon must not linger
        assert proc.wait(5) == 0
    report = finish(proc, marker)
    seen = dict(line.split("=", 1) for line in report_file.read_text().split())
    assert seen["FOO_TOKEN"] == "unset" and seen["HOSTILE_EXTRA"] == "given"
    assert seen["cwd"] == seen["home"] and Path(seen["cwd"]).name.startswith("cardlab-contestant-")
    assert seen["cwd"] != os.getcwd() and not Path(seen["cwd"]).exists()  # private, and removed
    assert report.isolation == (sandbox.READONLY_FS if namespaces and _namespaces_allowed() else sandbox.SUBREAPER)
    # With namespaces its /proc is its own; without, a program of the same user could read the
    # environment the judge was started with there (the README says so).
    if report.isolation in IN_NAMESPACES:
        assert seen["proc_secret"] == "no"
    assert seen["wrote_cwd"] == "yes"


def test_a_program_writes_only_in_its_own_folder(namespaces, tmp_path):
    """With the read-only view, creating a file in the project root, in /tmp, in /dev or next
    to its HOME, or appending to a file it can read, fails; its folder (cwd, HOME, TMPDIR) and
    /dev/null stay writable. Without namespaces those writes succeed (the README says so)."""
    existing = tmp_path / "readable.txt"
    existing.write_text("the judge's\n")
    name = f"scribbled-{uuid.uuid4().hex}.txt"
    targets = [PROJECT / name, Path("/tmp") / name]
    proc, marker = hostile("scribble", *map(str, targets), "--", str(existing), namespaces=namespaces)
    home_parent = Path(proc._home).parent / marker
    targets.append(Path("/dev") / marker)
    try:
        proc.send("GO")
        seen = dict(item.split("=") for item in proc.read_line(timeout=20).split())
        report = finish(proc, marker)
    finally:
        for path in targets + [home_parent]:
            path.unlink(missing_ok=True)
    inside = {k: v for k, v in seen.items() if k.startswith("in:")}
    outside = {k: v for k, v in seen.items() if k.startswith("out:")}
    assert set(inside.values()) == {"ok"} and len(outside) == 5
    if report.isolation == sandbox.READONLY_FS:
        assert set(outside.values()) <= {"EROFS", "EACCES"}
        assert existing.read_text() == "the judge's\n"
    else:
        assert namespaces is False or not _namespaces_allowed()


def test_a_dropped_runner_still_takes_its_program_down():
    proc, marker = hostile("escape", namespaces=False)
    proc.send("STATE")
    proc.read_line(timeout=10)
    guard, home = proc.proc, Path(proc._home)
    del proc  # no close(): the control pipe closes with the object and the guard kills the tree
    guard.wait(timeout=10)
    assert survivors(marker) == [] and not home.exists()


def test_a_missing_program_is_a_clean_failure():
    with pytest.raises(ProgramEnded, match="cannot start"):
        LineProcess(["/nonexistent/program"])


def _namespaces_allowed() -> bool:
    with LineProcess([sys.executable, "-c", "pass"]) as proc:
        return proc.isolation in IN_NAMESPACES


def test_an_instant_exit_reports_its_code(namespaces):
    with LineProcess([sys.executable, "-c", "import sys; sys.exit(3)"], namespaces=namespaces) as proc:
        assert proc.wait(10) == 3
        assert proc.close().returncode == 3


@pytest.mark.parametrize("mode", ["bigfile", "stderr_flood"])
def test_files_stop_at_the_file_size_limit(namespaces, mode):
    proc, marker = hostile(mode, namespaces=namespaces, file_mb=2)
    folder = Path(proc._home)
    with pytest.raises(ProgramEnded):  # it ends (SIGXFSZ, or EFBIG as PID 1) without answering
        proc.read_line(timeout=20)
    size = (folder / "big.bin").stat().st_size if (folder / "big.bin").exists() else 0
    report = finish(proc, marker)
    assert report.returncode != 0 and size <= 2 << 20
    assert len(report.stderr_tail) <= 2000


def test_runners_in_parallel_threads_do_not_hold_each_others_pipes():
    """A guard forked while another runner's pipes are open must not keep them: each program
    still sees the end of its input and exits on its own (code 0, not killed)."""
    from concurrent.futures import ThreadPoolExecutor

    echo = "import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n"

    def session(k: int):
        proc = LineProcess([sys.executable, "-c", echo])
        answers = []
        for i in range(100):
            proc.send(f"{k} {i}")
            answers.append(proc.read_line(timeout=30))
        return answers == [f"{k} {i}" for i in range(100)], proc.close(grace=10).returncode

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(session, range(8)))
    assert results == [(True, 0)] * 8


def test_a_cache_is_a_private_copy_and_a_granted_folder_is_writable(tmp_path):
    """numba uses a cache only where it may write: the program gets an overlay of it (reads what
    the judge compiled, its own writes vanish with it); a folder granted by a trusted caller (a
    bundle's warm-up) is written for real."""
    if not _namespaces_allowed():
        pytest.skip("no namespaces here")
    cache, granted = tmp_path / "cache", tmp_path / "granted"
    cache.mkdir()
    granted.mkdir()
    (cache / "kernel.nbi").write_text("compiled")
    code = (f"import os; os.chdir({str(cache)!r}); print(open('kernel.nbi').read(), flush=True); "
            f"open('kernel.nbi', 'a').write('poisoned'); open('new.nbi', 'w').write('x'); "
            f"open({str(granted / 'kept.txt')!r}, 'w').write('y'); print(open('kernel.nbi').read(), flush=True)")
    with LineProcess([sys.executable, "-c", code], private_copies=(str(cache),), writable=(str(granted),)) as proc:
        assert proc.read_line(timeout=10) == "compiled" and proc.read_line(timeout=10) == "compiledpoisoned"
        assert proc.wait(10) == 0 and proc.isolation == sandbox.READONLY_FS
    assert sorted(os.listdir(cache)) == ["kernel.nbi"] and (cache / "kernel.nbi").read_text() == "compiled"
    assert (granted / "kept.txt").read_text() == "y"


@pytest.mark.parametrize("fault", ["remount", "capabilities"])
def test_a_read_only_view_that_cannot_be_made_falls_back_to_plain_namespaces(monkeypatch, tmp_path, fault):
    """As where a mount refuses to be remounted read-only (EINVAL: not a mount point), or root's
    capabilities cannot be dropped: every mount is put back, the program runs as before with
    namespaces, and the isolation says so."""
    if not _namespaces_allowed():
        pytest.skip("no namespaces here")
    if fault == "remount":
        real = sandbox._mount_points
        monkeypatch.setattr(sandbox, "_mount_points", lambda: real() + [(b"/etc/passwd", 0)])
    else:
        monkeypatch.setattr(sandbox, "_drop_root_powers", lambda: False)
    target = tmp_path / "written.txt"
    code = f"open({str(target)!r}, 'w').write('x'); print('up', flush=True)"
    with LineProcess([sys.executable, "-c", code]) as proc:
        assert proc.read_line(timeout=10) == "up" and proc.isolation == sandbox.NAMESPACES
    assert target.read_text() == "x"


def test_namespaces_that_cannot_be_used_fall_back_to_the_subreaper(monkeypatch):
    """As where user namespaces are allowed but give no rights to mount /proc: programs still run."""
    from engine.core import process

    monkeypatch.setattr(process, "_namespaces_checked", None)
    monkeypatch.setattr(sandbox, "_private_proc", lambda: os._exit(126))
    with LineProcess([sys.executable, "-c", "print('up', flush=True)"]) as proc:
        assert proc.read_line(timeout=10) == "up" and proc.isolation == sandbox.SUBREAPER
    assert process._namespaces_checked is False
