"""A hostile contestant for the runner and judge tests (stdlib only).

Usage: hostile.py MARKER MODE [REPORT]. MARKER only tags its command line, so that a test can
look for survivors in /proc. REPORT, an absolute path, receives what it saw (environment,
folder): a FIFO the test reads (tests.core.test_contestant.ReportPipe), since where the file
system is read-only for the program a device or FIFO is all it can write outside its folder.
Mode 'scribble' (args: FILES TO CREATE... -- FILE TO APPEND TO) tries to write outside its folder
and in it, and answers one line of name=outcome. Otherwise it answers ANSWER (env HOSTILE_ANSWER,
default 'ACTION CHECK') to every line it reads unless MODE says otherwise.
"""

import errno
import os
import sys
import time

mode = sys.argv[2]
report = sys.argv[3] if len(sys.argv) > 3 else None
answer = os.environ.get("HOSTILE_ANSWER", "ACTION CHECK")


def note(text):
    if report:
        with open(report, "a") as f:
            f.write(text + "\n")


def snoop_proc() -> bool:
    """Whether the judge's environment can be read through /proc (same user, same /proc)."""
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/environ", "rb") as f:
                    if b"FOO_TOKEN=" in f.read():
                        return True
            except OSError:
                pass
    return False


def escape():
    """A grandchild in its own session that outlives its parent: the classic daemon."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            while True:
                time.sleep(1)
        os._exit(0)


def outcome(path: str, how: str = "x") -> str:
    """'ok', or the errno name that stopped the write (EROFS, EACCES, ...)."""
    try:
        with open(path, how) as f:
            f.write("scribbled\n")
        return "ok"
    except OSError as exc:
        return errno.errorcode.get(exc.errno, str(exc.errno))


def scribble(args: list[str]) -> str:
    split = args.index("--")
    outside = {f"create{i}": outcome(path) for i, path in enumerate(args[:split])}
    outside["home_parent"] = outcome(os.path.join(os.path.dirname(os.environ["HOME"].rstrip("/")), sys.argv[1]))
    outside["dev"] = outcome(os.path.join("/dev", sys.argv[1]))  # a read-only mount still writes devices
    outside["append"] = outcome(args[split + 1], "a")
    inside = {"cwd": outcome("mine.txt"), "home": outcome(os.path.join(os.environ["HOME"], "home.txt")),
              "tmpdir": outcome(os.path.join(os.environ["TMPDIR"], "tmp.txt")), "devnull": outcome(os.devnull, "w")}
    return " ".join(f"{'out' if name in outside else 'in'}:{name}={result}"
                    for name, result in {**outside, **inside}.items())


if mode == "scribble":
    sys.stdin.readline()
    print(scribble(sys.argv[3:]), flush=True)
    sys.stdin.readline()
elif mode == "flood":  # never reads, writes answers forever
    while True:
        sys.stdout.write((answer + "\n") * 1000)
elif mode == "sleep":
    time.sleep(1000)
elif mode == "burn":
    while True:
        pass
elif mode == "alloc":
    hog = []
    while True:
        hog.append(bytearray(16 << 20))
elif mode == "garbage":
    sys.stdout.buffer.write(os.urandom(1 << 16))
    sys.stdout.flush()
    time.sleep(1000)
elif mode == "bigline":
    chunk = b"x" * (1 << 20)
    for _ in range(100):
        sys.stdout.buffer.write(chunk)
    sys.stdout.flush()
    time.sleep(1000)
elif mode == "close_stdout":
    os.close(1)
    time.sleep(1000)
elif mode == "bigfile":  # a file past the file-size limit, in its own folder
    with open("big.bin", "wb") as f:
        for _ in range(64):
            f.write(b"x" * (1 << 20))
            f.flush()
elif mode == "stderr_flood":
    while True:
        sys.stderr.write("noise " * 1000 + "\n")
elif mode == "noread_nonewline":  # never a newline, in small writes
    while True:
        sys.stdout.write("A" * 4096)
        sys.stdout.flush()
elif mode in ("escape", "escape_exit", "snoop"):
    if mode != "snoop":
        escape()
    note(f"FOO_TOKEN={os.environ.get('FOO_TOKEN', 'unset')}")
    note(f"HOSTILE_EXTRA={os.environ.get('HOSTILE_EXTRA', 'unset')}")
    note(f"cwd={os.getcwd()}")
    note(f"proc_secret={'yes' if snoop_proc() else 'no'}")
    note(f"home={os.environ.get('HOME', 'unset')}")
    try:
        with open("left_behind.txt", "w") as f:
            f.write("x")
        note("wrote_cwd=yes")
    except OSError:
        note("wrote_cwd=no")
    if mode == "escape_exit":
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
        sys.exit(0)
    for _line in sys.stdin:
        sys.stdout.write(answer + "\n")
        sys.stdout.flush()
