"""Table of bench/before_after.sh's results: per benchmark figure, each commit's median over the
measured rounds (1..N; round 0 warms the caches), the ratio new/old, both commits' ranges and
whether they overlap, and the load averages around each round's runs.

    python bench/before_after_table.py [OUT ...] [--markdown] [--runs]     (OUT defaults to /tmp/cardlab-ab)

Several OUT folders (runs of the script on the same two commits) are pooled: their measured rounds
are named RUN.ROUND, RUN counting the folders from 1.

--runs also lists every run with the load average at its start and end.

A ratio is new/old of the figure itself; "better" says which way is faster (speed: higher; time:
lower), so a slowdown is a ratio below 1 for speed and above 1 for time.
"""

from __future__ import annotations

import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

NUM = r"([0-9][0-9,]*\.?[0-9]*(?:e[+-]?[0-9]+)?)"


@dataclass(frozen=True)
class Figure:
    bench: str  # the `cardlab bench` command's first words, as in the result file's header
    name: str
    better: str  # "higher" (a speed) or "lower" (a time)
    pattern: str  # regex over the output with runs of whitespace made single spaces; group 1 is the figure
    nth: int = 0  # which match, when the bench prints the same row for several sizes
    group: int = 1  # the regex group that is the figure
    less: int | None = None  # a group subtracted from it (a time less the process start)


FIGURES = (
    Figure("holdem-training evaluator", "evaluator 4M hands, evals/s CPU", "higher",
           rf"numba hand_value7 │ {NUM}", 0),
    Figure("holdem-training evaluator", "evaluator 10M hands, evals/s CPU", "higher",
           rf"numba hand_value7 │ {NUM}", 1),
    Figure("holdem-training equity", "equity batch, decisions/s CPU", "higher",
           rf"numba bob_calls, batch loop │ {NUM}"),
    Figure("holdem-training equity", "equity one call each, decisions/s CPU", "higher",
           rf"numba bob_calls, one Python call each │ {NUM}"),
    Figure("holdem-training judge", "judge, hands/s CPU", "higher", rf"in-process judge, RAISE 1 bot │ {NUM}"),
    Figure("twocarddraw speed", "twocarddraw best response, ms CPU", "lower", rf"best response \(ms\) │ {NUM}"),
    Figure("twocarddraw speed", "twocarddraw generator, steps/s CPU", "higher", rf"generator steps/s │ {NUM}"),
    Figure("splendor speed", "splendor, games/s CPU", "higher", rf"numba: {NUM} games/s of CPU"),
    Figure("cg-holdem speed", "cg-holdem ours, games/s CPU", "higher",
           rf"ours: games per CPU second \(bots included\) │ {NUM}"),
    Figure("cg-holdem speed", "cg-holdem ours/PokerKit", "higher", rf"speed ratio \(ours / PokerKit\) │ {NUM}"),
    Figure("tractor simulate", "tractor 100,000 cases, s CPU (process)", "lower", rf"best of 3 {NUM} s CPU"),
    Figure("tractor simulate", "tractor process start, s CPU", "lower", rf"process start alone \(0 cases\) {NUM} s"),
    Figure("tractor simulate", "tractor 100,000 cases less the start, s CPU", "lower",
           rf"best of 3 {NUM} s CPU .*? process start alone \(0 cases\) {NUM} s", less=2),
    Figure("store", "store ingest alone, hands/s", "higher", rf"ingest alone {NUM} s \({NUM} rows/s, {NUM} hands/s",
           group=3),
    Figure("store", "store match without log, hands/s", "higher", rf"match without log {NUM} s \({NUM} hands/s",
           group=2),
    Figure("store", "store match with log, hands/s", "higher", rf"match with log {NUM} s \({NUM} hands/s", group=2),
    Figure("store", "store time inside the log, % of match", "lower", rf"hand log .{{0,80}}?: median {NUM}%"),
    Figure("store", "store match with a reader, s", "lower", rf"match with log {NUM} s \(inside the hand log"),
    Figure("sweep", "sweep threads x2, hands/s (wall)", "higher", rf"threads x2: {NUM} hands in {NUM} s, {NUM}/s",
           group=3),
)
HEADER = re.compile(r"### round=(\d+) (\S+) (.+?) load=(\S+) (\S+)")
END = re.compile(r"### end load=(\S+)")


@dataclass
class Run:
    run: int  # which OUT folder, from 1
    round: int
    commit: str
    bench: str
    load: str
    end_load: str
    started: str
    text: str


def read(results: Path, run: int = 1) -> list[Run]:
    runs = []
    for path in sorted(results.glob("*.txt")):
        lines = path.read_text(errors="replace").splitlines()
        head = HEADER.match(lines[0]) if lines else None
        if head is None:
            continue
        end = next((m.group(1) for m in map(END.match, lines) if m), "?")
        runs.append(Run(run, int(head.group(1)), head.group(2), head.group(3), head.group(4), end, head.group(5),
                        " ".join(" ".join(lines[1:]).split())))
    return runs


def value(figure: Figure, text: str) -> float | None:
    found = list(re.finditer(figure.pattern, text))
    if len(found) <= figure.nth:
        return None
    match = found[figure.nth]
    number = float(match.group(figure.group).replace(",", ""))
    return number if figure.less is None else number - float(match.group(figure.less).replace(",", ""))


def fmt(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.4g}"


def label(run: Run, pooled: bool) -> str:
    return f"{run.run}.{run.round}" if pooled else str(run.round)


def table(runs: list[Run], markdown: bool, every_run: bool) -> str:
    pooled = len({r.run for r in runs}) > 1
    commits = list(dict.fromkeys(r.commit for r in sorted(runs, key=lambda r: r.started)))
    if len(commits) != 2:
        raise SystemExit(f"expected runs of two commits, found {commits}")
    old, new = commits
    rows = [("figure", "better", f"{old[:7]} median", f"{new[:7]} median", "new/old",
             f"{old[:7]} rounds", f"{new[:7]} rounds", "ranges", "new/old per round")]
    for figure in FIGURES:
        per = {c: {(r.run, r.round): value(figure, r.text) for r in runs
                   if r.commit == c and r.round > 0 and r.bench.split(" --")[0] == figure.bench} for c in commits}
        a = [v for v in per[old].values() if v is not None]
        b = [v for v in per[new].values() if v is not None]
        if not a or not b:
            rows.append((figure.name, figure.better, "-", "-", "-", "", "", "no figure", ""))
            continue
        ma, mb = statistics.median(a), statistics.median(b)
        overlap = "overlap" if max(a) >= min(b) and max(b) >= min(a) else "apart"
        paired = " ".join(f"{per[new][k] / per[old][k]:.3f}" for k in sorted(per[old])
                          if per[old][k] and per[new].get(k) is not None)
        rows.append((figure.name, figure.better, fmt(ma), fmt(mb), f"{mb / ma:.3f}",
                     f"{fmt(min(a))}-{fmt(max(a))}", f"{fmt(min(b))}-{fmt(max(b))}", overlap, paired))
    rounds = [("round", "from (UTC)", "1-min load average over its runs (min-median-max)")]
    for k in sorted({(r.run, r.round) for r in runs}):
        mine = [r for r in runs if (r.run, r.round) == k]
        seen = sorted(float(x) for r in mine for x in (r.load, r.end_load) if x != "?")
        rounds.append((label(mine[0], pooled) + (" (warm-up)" if k[1] == 0 else ""), min(r.started for r in mine),
                       f"{seen[0]:.2f}-{statistics.median(seen):.2f}-{seen[-1]:.2f}"))
    parts = [render(rows, markdown), render(rounds, markdown)]
    if every_run:
        listing = [("round", "bench", "commit", "load at start", "load at end", "started (UTC)")]
        listing += [(label(r, pooled), r.bench, r.commit[:7], r.load, r.end_load, r.started)
                    for r in sorted(runs, key=lambda r: (r.run, r.round, r.started))]
        parts.append(render(listing, markdown))
    return "\n\n".join(parts)


def render(rows: list[tuple[str, ...]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows[1:]])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    found = [run for k, out in enumerate(args or ["/tmp/cardlab-ab"], 1) for run in read(Path(out) / "results", k)]
    print(table(found, "--markdown" in sys.argv, "--runs" in sys.argv))
