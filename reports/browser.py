"""Headless Chromium (Debian's package) for screenshots of the pages and the browser test.

Flags: no sandbox (root in CI), no GPU, and no background networking, component updates or
sync, which this machine's closed network refuses; a fresh profile every run."""

import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")
TIMEOUT_S = 60


class NoBrowser(RuntimeError):
    """Chromium is not installed."""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        raise NoBrowser("chromium is not installed; install Debian's package (`apt-get install -y chromium`, "
                        "or .ci/install-browser.sh)")
    return found


def _run(args: list[str]) -> str:
    with tempfile.TemporaryDirectory(prefix="cardlab-chromium-") as profile:
        done = subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                              text=True, timeout=TIMEOUT_S, check=False)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"chromium exited with {done.returncode}: {tail}")
    return done.stdout


def dump_dom(page: Path, *, fragment: str = "") -> str:
    """The page's DOM after its scripts ran, as Chromium serialises it (opened at #fragment when given)."""
    return _run(["--dump-dom", Path(page).resolve().as_uri() + (f"#{fragment}" if fragment else "")])


def screenshot(page: Path, png: Path, *, width: int = 1100, height: int = 1400, fragment: str = "") -> Path:
    png = Path(png).resolve()
    png.parent.mkdir(parents=True, exist_ok=True)
    url = Path(page).resolve().as_uri() + (f"#{fragment}" if fragment else "")
    _run([f"--screenshot={png}", f"--window-size={width},{height}", url])
    if not png.exists():
        raise RuntimeError(f"chromium wrote no screenshot to {png}")
    return png
