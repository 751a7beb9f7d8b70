"""Progress for long commands: a live bar on a terminal; on a pipe or a log file, one line per
task at most every few seconds (CARDLAB_PROGRESS_SECONDS, default 5) and one when it ends,
on stderr so stdout keeps only results."""

import os
import sys
import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

DEFAULT_EVERY_S = 5.0


def every_seconds() -> float:
    text = os.environ.get("CARDLAB_PROGRESS_SECONDS", "")
    try:
        return max(0.0, float(text)) if text else DEFAULT_EVERY_S
    except ValueError:
        return DEFAULT_EVERY_S


class LineProgress:
    """rich.progress.Progress's add_task / advance / update for output that is not a terminal."""

    def __init__(self, write: Callable[[str], None], *, every: float, clock: Callable[[], float] = time.monotonic):
        self._write, self._every, self._clock = write, every, clock
        self._tasks: dict[int, dict] = {}

    def __enter__(self) -> "LineProgress":
        return self

    def __exit__(self, *exc) -> None:
        for task in self._tasks.values():
            if not task["closed"] and task["done"] > task["said"]:
                self._say(task)

    def add_task(self, description: str, total: float | None = None, **_) -> int:
        now = self._clock()
        task_id = len(self._tasks)
        self._tasks[task_id] = {"description": description, "total": total, "done": 0, "said": 0,
                                "started": now, "last": now, "closed": False}
        return task_id

    def advance(self, task_id: int, advance: float = 1) -> None:
        task = self._tasks[task_id]
        task["done"] += advance
        finished = task["total"] is not None and task["done"] >= task["total"]
        if finished or self._clock() - task["last"] >= self._every:
            self._say(task)
            task["closed"] = finished

    def update(self, task_id: int, *, completed: float | None = None, advance: float | None = None, **_) -> None:
        if completed is not None:
            self.advance(task_id, completed - self._tasks[task_id]["done"])
        elif advance is not None:
            self.advance(task_id, advance)

    def _say(self, task: dict) -> None:
        now = self._clock()
        task["last"], task["said"] = now, task["done"]
        elapsed = max(now - task["started"], 1e-9)
        rate = task["done"] / elapsed
        total = task["total"]
        if total:
            left = (total - task["done"]) / rate if rate > 0 else float("nan")
            eta = "done" if task["done"] >= total else f"~{left:,.0f} s left"
            self._write(f"{task['description']}: {task['done']:,.0f}/{total:,.0f} ({task['done'] / total:.0%}), "
                        f"{rate:,.0f}/s, {elapsed:,.0f} s, {eta}")
        else:
            self._write(f"{task['description']}: {task['done']:,.0f}, {rate:,.0f}/s, {elapsed:,.0f} s")


def make(console: Console | None = None) -> Progress | LineProgress:
    """A bar when `console` (default: stderr) is a terminal, else LineProgress lines on stderr."""
    console = console or Console(stderr=True)
    if console.is_terminal:
        return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=console, transient=True)
    return LineProgress(lambda text: print(text, file=sys.stderr, flush=True), every=every_seconds())


class CountingTranscript(list):
    """A judge transcript (lines '> ' to the program, '< ' from it) that calls `tick` at every
    line starting with `marker` (a unit ended) and keeps the lines only when asked to."""

    def __init__(self, tick: Callable[[], None], *, marker: str, keep: bool):
        super().__init__()
        self._tick, self._marker, self._keep = tick, marker, keep

    def extend(self, lines) -> None:
        for line in lines:
            self.append(line)

    def append(self, line: str) -> None:
        if line.startswith(self._marker):
            self._tick()
        if self._keep:
            super().append(line)
