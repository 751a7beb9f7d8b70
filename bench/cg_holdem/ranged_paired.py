"""Versions of a bot paired on the same deals, in process (fast enough to iterate on; the league
benchmark, ranged_leagues.sh, plays the exported programs for the final figures).

    python -m bench.cg_holdem.ranged_paired --against aggressive --games 400 ranged ranged:adapt=0
    python -m bench.cg_holdem.ranged_paired --against aggressive/montecarlo/pushfold ranged@HEAD ranged

Each candidate plays the same games (seed, units, seatings: every deal in every seat rotation) against
the same line-up; candidates and opponents are cardlab bots (`name:k=v`), the ranged bot as committed
at a git revision (`ranged@REV`, its defaults) or the style programs (`style:lag`), whose own code
runs in process. Printed: each candidate's mean finish score, mean position and firsts, and every later
candidate minus the first per game with a 95% interval (flows.stats.paired_mean_interval).

    python -m bench.cg_holdem.ranged_paired --against aggressive/style:rules/style:lag --race ranged A B C ...

`--race` screens many candidates as a decided sweep's selection does (flows/decide.py): games in chunks
of the game's decision batch from its first look on, and after each chunk a candidate stops when the
anytime-valid bound (flows.stats.confidence_sequence, alpha / (candidates - 1)) puts it below another
survivor (flows.stats.race_losers) or its upper bound over the first below --d1 (0: clearly worse).
The first always plays every game; a stopped candidate's figure is on the games it played.

    python -m bench.cg_holdem.ranged_paired --against aggressive/style:rules/style:lag --table ranged@HEAD

`--table` plays the first candidate alone at the table and prints every line-up member's mean finishing
position (Student t 95% over games, and over deals: each deal's rotations averaged), firsts and lasts.

    python -m bench.cg_holdem.ranged_paired --against style:tracker/aggressive/style:lag --luck ranged A B

`--luck` (with any of the three) takes each game's all-in luck out of its score before every figure: the
decided sweeps' zero-mean correction (engine/cg_holdem/luck.py, read by flows/games/cg_holdem_luck.py's hook
from the games' own events: chunk_luck), so the means stay unbiased and the paired intervals narrow by the
square root of the variance-reduction factor (docs/statistics.md, "Luck taken out"). Each line gives the raw
figure beside the corrected one, the correction's own mean with its 95% interval (an unbiased correction's
covers 0) and the factor; `--race` stops on the corrected differences; `--table` corrects every member's
positions by its own luck (firsts and lasts are as played). The correction costs CPU beside playing (the
comparison's last line; preflop all-ins enumerate about a million boards, cached per spot).
"""

import argparse
import importlib
import multiprocessing
import subprocess
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

import duckdb
import numpy as np
import polars as pl
import pyarrow as pa

from bots import choice
from bots.cg_holdem import BOTS
from engine.cg_holdem import judge
from engine.core.errors import UnknownName, UserError
from engine.core.log import ChunkLog
from flows import events as event_tables
from flows import games as game_specs
from flows.games.cg_holdem_luck import unit_luck
from flows.stats import (
    confidence_sequence,
    luck_check,
    mean_interval,
    paired_look,
    paired_mean_interval,
    race_losers,
    summarize,
)

STYLES = Path(__file__).parent / "styles"
ROOT = Path(__file__).resolve().parents[2]


def style_maker(name: str):
    """A style program's player in process (bench/cg_holdem/styles/NAME.py, its own seed)."""
    if name == "common" or not (STYLES / f"{name}.py").is_file():
        known = ", ".join(sorted(p.stem for p in STYLES.glob("*.py") if p.stem != "common"))
        raise UnknownName(f"style {name!r}: no such program; accepted: {known}")
    if str(STYLES) not in sys.path:
        sys.path.insert(0, str(STYLES))
    module = importlib.import_module(name)
    common = importlib.import_module("common")
    return lambda: common.Program(module.decide, getattr(module, "SEED", 1))


# the modules split from ranged.py (hands, reads): a revision that has them plays its own, not the working tree's
RANGED_PARTS = ("bots/cg_holdem/hands.py", "bots/cg_holdem/reads.py")


def _module_at(rev: str, path: str, *, check: bool = True) -> types.ModuleType | None:
    """``path`` as committed at ``rev`` (git), run as a module; None if ``rev`` has no such file and not ``check``."""
    done = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        if check:  # a mistyped revision is the user's to fix: one line, not git's traceback
            raise UnknownName(f"revision {rev!r}: no {path} there (git: {done.stderr.strip().splitlines()[-1]})")
        return None
    module = types.ModuleType(f"{Path(path).stem}_at_{rev}")
    exec(compile(done.stdout, f"{Path(path).name}@{rev}", "exec"), module.__dict__)
    return module


def committed_module(rev: str) -> types.ModuleType:
    """bots/cg_holdem/ranged.py as committed at ``rev`` (git), importing the modules split from it (RANGED_PARTS) as
    committed there too: they stand in sys.modules only while it runs its imports."""
    names = [path[:-3].replace("/", ".") for path in RANGED_PARTS]
    saved = {name: sys.modules.get(name) for name in names}
    try:
        for name, path in zip(names, RANGED_PARTS, strict=True):
            part = _module_at(rev, path, check=False)
            if part is not None:
                sys.modules[name] = part
        return _module_at(rev, "bots/cg_holdem/ranged.py")
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def committed_maker(rev: str):
    """The ranged bot as committed at ``rev`` (git), defaults only: the version before a change."""
    module = committed_module(rev)
    return lambda: module.RangedBot(module.RangedConfig())


def maker(entry: str):
    if entry.startswith("style:"):
        return style_maker(entry.split(":", 1)[1])
    if entry.startswith("ranged@"):
        return committed_maker(entry.split("@", 1)[1])
    return choice.entry(BOTS, entry).make


_ARROW = {"int64": pa.int64(), "str": pa.string(), "bool": pa.bool_()}


def chunk_luck(log: ChunkLog, seats: np.ndarray | None = None) -> np.ndarray:
    """Each game's all-in luck of an in-process chunk, for its primary seat (or seats[i] in its i-th game): the
    decided sweeps' own hook (flows/games/cg_holdem_luck.py) run on the chunk's events, encoded as the hand log
    encodes them, in a DuckDB of this process (no hand log written; the same queries, the same check that every
    board settles to the played stacks)."""
    con = duckdb.connect()
    try:
        for name, columns in event_tables.tables(log.events).items():
            kind = name.split("_", 1)[1]
            types = {"match_id": pa.string(), **{c: _ARROW[t] for c, t in log.events.spec.kinds[kind].items()}}
            data = {c: list(v) for c, v in columns.items()}
            if kind == "games" and seats is not None:  # whose luck: the hook values the primary seat's
                data["primary_seat"] = [int(seats[u - log.first]) for u in data["unit"]]
            data["match_id"] = ["bench"] * len(data["unit"])
            con.register(name, pa.table(data, schema=pa.schema(list(types.items()))))

        def query(sql: str, params=None) -> pl.DataFrame:
            return pl.from_arrow(con.sql(sql, params=list(params or [])).to_arrow_table())

        return unit_luck(query, "bench", log.first + log.count, log.first)
    finally:
        con.close()


class Scored(NamedTuple):
    payoffs: np.ndarray  # the candidate's finish score per game
    luck: np.ndarray | None  # each game's all-in luck correction (chunk_luck), None when not asked
    play_seconds: float  # CPU seconds playing the games (all workers)
    luck_seconds: float  # CPU seconds taking their luck out


def _chunk(job) -> Scored:
    entries, seed, first, count, luck = job
    started = time.process_time()
    log = judge.play_chunk([maker(e) for e in entries], seed=seed, first=first, count=count)
    played = time.process_time()
    out = chunk_luck(log) if luck else None
    return Scored(log.payoffs, out, played - started, time.process_time() - played)


def scored(candidate: str, against: list[str], *, games: int, seed: int, workers: int = 1, first: int = 0,
           luck: bool = False) -> Scored:
    """The candidate's games (units first..first+games-1) against the line-up; with luck each game's all-in luck
    correction too, each worker taking out its own games'."""
    entries = [candidate, *against]
    step = max(1, -(-games // max(1, workers)))
    jobs = [(entries, seed, first + start, min(step, games - start), luck) for start in range(0, games, step)]
    if workers <= 1:
        parts = [_chunk(j) for j in jobs]
    else:
        # the luck's DuckDB and polars start thread pools: a child forked after this process used them can hang
        context = multiprocessing.get_context("spawn") if luck else None
        with ProcessPoolExecutor(workers, mp_context=context) as pool:
            parts = list(pool.map(_chunk, jobs))
    return Scored(np.concatenate([p.payoffs for p in parts]),
                  np.concatenate([p.luck for p in parts]) if luck else None,
                  sum(p.play_seconds for p in parts), sum(p.luck_seconds for p in parts))


def payoffs(candidate: str, against: list[str], *, games: int, seed: int, workers: int = 1,
            first: int = 0) -> np.ndarray:
    """The candidate's finish score per game (units first..first+games-1) against the line-up."""
    return scored(candidate, against, games=games, seed=seed, workers=workers, first=first).payoffs


def cpu_line(runs: list[Scored], games: int) -> str:
    """What taking the luck out cost beside playing (CPU seconds over every candidate's games)."""
    play, luck = sum(r.play_seconds for r in runs), sum(r.luck_seconds for r in runs)
    return (f"CPU: playing {play:.1f} s ({1000 * play / games:.0f} ms a game), the luck correction {luck:.1f} s "
            f"({1000 * luck / games:.0f} ms a game, {luck / play:.2f}x playing) over {games} games")


def compare(candidates: list[str], against: list[str], *, games: int, seed: int, workers: int = 1,
            luck: bool = False) -> list[str]:
    """Every candidate on the same games, report()'s lines; with luck, the all-in luck taken out (report)."""
    played = {c: scored(c, against, games=games, seed=seed, workers=workers, luck=luck) for c in candidates}
    lines = report({c: r.payoffs for c, r in played.items()}, players=1 + len(against),
                   luck={c: r.luck for c, r in played.items()} if luck else None)
    return [*lines, cpu_line(list(played.values()), games * len(candidates))] if luck else lines


def race(candidates: list[str], against: list[str], *, games: int, seed: int, workers: int = 1, d1: float = 0.0,
         alpha: float = 0.05, first_look: int | None = None, batch: int | None = None, say=None,
         luck: bool = False) -> list[str]:
    """compare(), stopping candidates at each look as a decided sweep's selection does (module doc); the
    first look and the games per look are the game's decision defaults unless given. With luck, every look
    reads the scores with each game's all-in luck taken out, as a decided sweep's does."""
    say = say or (lambda line: print(line, flush=True))  # each look as it comes: a long screen shows progress
    rules = game_specs.get("cg-holdem").decision
    first_look, batch = first_look or rules.first_look, batch or rules.batch
    tuned = max(first_look, games // 4)  # where the anytime bounds are narrowest: fixed in advance, as decide's
    level = alpha / max(1, len(candidates) - 1)
    scores = {c: np.empty(0) for c in candidates}
    taken = {c: np.empty(0) for c in candidates}  # each game's luck correction (zeros without luck)
    alive, stops = set(range(len(candidates))), {}
    played = 0
    while played < games:
        count = min(games - played, first_look if played == 0 else batch)
        for i in sorted(alive):
            c = candidates[i]
            got = scored(c, against, games=count, seed=seed, workers=workers, first=played, luck=luck)
            scores[c] = np.concatenate([scores[c], got.payoffs])
            taken[c] = np.concatenate([taken[c], got.luck if luck else np.zeros(count)])
        played += count
        pairs = {(j, i): paired_look((scores[candidates[j]] - taken[candidates[j]])
                                     - (scores[candidates[i]] - taken[candidates[i]]))
                 for j in alive for i in alive if i != j}
        losers = race_losers(pairs, alive, alpha=alpha, configs=len(candidates), tuned_for=tuned)
        losers |= {i for i in alive - {0} if confidence_sequence(pairs[(i, 0)], level, tuned)[1] < d1}
        losers.discard(0)  # the first is every figure's reference: it plays on
        for i in sorted(losers):
            low, high = confidence_sequence(pairs[(i, 0)], level, tuned)
            stops[candidates[i]] = f"stopped after {played} games (anytime bound on it minus the first " \
                                   f"[{low:+.3f}, {high:+.3f}])"
        alive -= losers
        say(f"look at {played} games: {len(alive) - 1} of {len(candidates) - 1} candidates left"
            + "".join(f"; stopped {candidates[i]}" for i in sorted(losers)))
        if alive == {0}:
            break
    return [line + (f"; {stops[c]}" if c in stops else "")
            for c, line in zip(candidates, report(scores, players=1 + len(against), luck=taken if luck else None),
                               strict=True)]


def report(scores: dict[str, np.ndarray], players: int | None = None,
           luck: dict[str, np.ndarray] | None = None) -> list[str]:
    """Each candidate's mean finish score (with players: mean position and firsts), and every later one
    minus the first per game (95% interval) on the games both played. With `luck` (each candidate's per-game
    correction, chunk_luck) every figure is of the scores with it taken out, the raw one beside it, and the
    correction's own mean (95%: an unbiased one covers 0) with the variance-reduction factor (raw / corrected)."""
    base = next(iter(scores))
    out = scores if luck is None else {c: s - luck[c] for c, s in scores.items()}  # what every figure reads
    lines = []
    for c, raw in scores.items():
        s = out[c]
        line = f"{c}: mean finish score {s.mean():.3f} over {len(s)} games"
        if luck is not None:
            line += f" luck out (raw {raw.mean():.3f}; {_luck_figures(luck_check(raw, s))})"
        if c != base:
            n = len(s)
            line += f"; minus {base}: {_paired(s - out[base][:n])}"
            if luck is not None:
                check = luck_check(raw - scores[base][:n], s - out[base][:n])
                line += f" luck out; raw {_paired(raw - scores[base][:n])}; {_luck_figures(check)}"
        if players:  # the score is (players - position) / (players - 1); firsts are as played
            line += f"; mean position {players - (players - 1) * s.mean():.2f}, {int((raw == 1.0).sum())} firsts"
        lines.append(line)
    return lines


def _paired(diff: np.ndarray) -> str:
    d = summarize(diff)
    m = paired_mean_interval(d.n, d.mean, d.se, (-1.0, 1.0))
    return f"{m.mean:+.3f} [{m.low:+.3f}, {m.high:+.3f}] per game (sd {paired_look(diff).sd:.3f})"


def _luck_figures(check) -> str:
    low, high = check.shift_interval
    # a setting that never acts here plays the first's games: no spread, no factor to give
    factor = f"factor {check.factor:.2f}" if check.raw.sd > 0 or check.adjusted.sd > 0 else "no spread to narrow"
    return f"the luck taken out {check.shift.mean:+.4f} [{low:+.4f}, {high:+.4f}], {factor}"


def positions(entries: list[str], *, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every line-up member's finishing position per game (games x members; the first is the primary bot,
    so its positions give payoffs()' scores) and each game's deal."""
    found, deal, _, _ = _lineup_games(entries, games=games, seed=seed)
    return found, deal


def _lineup_games(entries: list[str], *, games: int, seed: int):
    """positions()' two arrays, each member's seat per game (games x members) and the chunk's log."""
    log = judge.play_chunk([maker(e) for e in entries], seed=seed, first=0, count=games,
                           names=[str(k) for k in range(len(entries))])  # indexes: an entry may appear twice
    seats, deals = log.events.columns["seats"], log.events.columns["games"]
    found = np.zeros((games, len(entries)), dtype=int)
    seat_of = np.zeros((games, len(entries)), dtype=int)
    for unit, member, seat, position in zip(seats["unit"], seats["bot"], seats["seat"], seats["position"],
                                            strict=True):
        found[unit, int(member)] = position
        seat_of[unit, int(member)] = seat
    deal = np.zeros(games, dtype=int)
    for unit, d in zip(deals["unit"], deals["deal"], strict=True):
        deal[unit] = d
    return found, deal, seat_of, log


def table(entries: list[str], *, games: int, seed: int, luck: bool = False) -> list[str]:
    """One line per line-up member: mean position with Student t 95% intervals over games and over deals
    (the duplicate format's games of one deal share its cards), firsts and lasts. With luck each member's
    positions have its own all-in luck taken out (position + (players - 1) x its correction: the finish score's
    luck in places), the raw mean beside; firsts and lasts are as played."""
    found, deal, seat_of, log = _lineup_games(entries, games=games, seed=seed)
    players = len(entries)
    lines = []
    for k, entry in enumerate(entries):
        p = found[:, k]
        if luck:
            p = p + (players - 1) * chunk_luck(log, seats=seat_of[:, k])
        per_deal = [p[deal == d].mean() for d in np.unique(deal)]
        g = summarize(p)
        d = summarize(per_deal)
        over_games = mean_interval(g.n, g.mean, g.sd, (1.0, players))
        over_deals = mean_interval(d.n, d.mean, d.sd, (1.0, players))
        line = f"{entry}: mean position {g.mean:.2f} [{over_games.low:.2f}, {over_games.high:.2f}] over "
        if luck:
            line = f"{entry}: mean position {g.mean:.2f} luck out (raw {found[:, k].mean():.2f}) " \
                   f"[{over_games.low:.2f}, {over_games.high:.2f}] over "
        lines.append(f"{line}{g.n} games, [{over_deals.low:.2f}, {over_deals.high:.2f}] over {d.n} deals; "
                     f"{int((found[:, k] == 1).sum())} firsts, {int((found[:, k] == players).sum())} lasts")
    return lines


@contextmanager
def one_line_errors(ap: argparse.ArgumentParser):
    """A bench run stopped by the user's mistake (an unknown bot, style, setting or revision) says so in one line,
    as the cardlab CLI does; anything else keeps its traceback."""
    try:
        yield
    except UserError as exc:
        ap.exit(2, f"{ap.prog}: error: {exc}\n")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", nargs="+", help="bot entries, the first is the baseline")
    ap.add_argument("--against", required=True, help="opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--race", action="store_true", help="stop candidates at each look (module doc)")
    ap.add_argument("--table", action="store_true", help="play the first candidate alone: every line-up "
                    "member's mean position (module doc)")
    ap.add_argument("--d1", type=float, default=0.0, help="--race: stop a candidate whose anytime upper bound over "
                    "the first is below this (default 0: clearly worse; a decided sweep uses 0.05)")
    ap.add_argument("--luck", action="store_true", help="take each game's all-in luck out of its score before "
                    "every figure (engine/cg_holdem/luck.py; raw figures beside; module doc)")
    args = ap.parse_args(argv)
    twice = sorted({c for c in args.candidates if args.candidates.count(c) > 1})
    if twice:  # results are keyed by entry: a repeat would print once and look like a missing line
        ap.error(f"candidate {twice[0]!r} given twice; give each entry once (the same bot at two commits: NAME@REV)")
    against = [a for a in args.against.split("/") if a]
    with one_line_errors(ap):
        for entry in [*args.candidates, *against]:  # every name checked before the first game, not mid-run
            maker(entry)
        print(f"against {'/'.join(against)}, seed {args.seed}:")
        if args.table:
            lines = table([args.candidates[0], *against], games=args.games, seed=args.seed, luck=args.luck)
        elif args.race:
            lines = race(args.candidates, against, games=args.games, seed=args.seed, workers=args.workers, d1=args.d1,
                         luck=args.luck)
        else:
            lines = compare(args.candidates, against, games=args.games, seed=args.seed, workers=args.workers,
                            luck=args.luck)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
