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
"""

import argparse
import importlib
import subprocess
import sys
import types
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from bots import choice
from bots.cg_holdem import BOTS
from engine.cg_holdem import judge
from engine.core.errors import UnknownName, UserError
from flows import games as game_specs
from flows.stats import confidence_sequence, mean_interval, paired_look, paired_mean_interval, race_losers, summarize

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


def _chunk(job) -> np.ndarray:
    entries, seed, first, count = job
    return judge.play_chunk([maker(e) for e in entries], seed=seed, first=first, count=count).payoffs


def payoffs(candidate: str, against: list[str], *, games: int, seed: int, workers: int = 1,
            first: int = 0) -> np.ndarray:
    """The candidate's finish score per game (units first..first+games-1) against the line-up."""
    entries = [candidate, *against]
    step = max(1, -(-games // max(1, workers)))
    jobs = [(entries, seed, first + start, min(step, games - start)) for start in range(0, games, step)]
    if workers <= 1:
        return np.concatenate([_chunk(j) for j in jobs])
    with ProcessPoolExecutor(workers) as pool:
        return np.concatenate(list(pool.map(_chunk, jobs)))


def compare(candidates: list[str], against: list[str], *, games: int, seed: int, workers: int = 1) -> list[str]:
    scores = {c: payoffs(c, against, games=games, seed=seed, workers=workers) for c in candidates}
    return report(scores, players=1 + len(against))


def race(candidates: list[str], against: list[str], *, games: int, seed: int, workers: int = 1, d1: float = 0.0,
         alpha: float = 0.05, first_look: int | None = None, batch: int | None = None, say=None) -> list[str]:
    """compare(), stopping candidates at each look as a decided sweep's selection does (module doc); the
    first look and the games per look are the game's decision defaults unless given."""
    say = say or (lambda line: print(line, flush=True))  # each look as it comes: a long screen shows progress
    rules = game_specs.get("cg-holdem").decision
    first_look, batch = first_look or rules.first_look, batch or rules.batch
    tuned = max(first_look, games // 4)  # where the anytime bounds are narrowest: fixed in advance, as decide's
    level = alpha / max(1, len(candidates) - 1)
    scores = {c: np.empty(0) for c in candidates}
    alive, stops = set(range(len(candidates))), {}
    played = 0
    while played < games:
        count = min(games - played, first_look if played == 0 else batch)
        for i in sorted(alive):
            more = payoffs(candidates[i], against, games=count, seed=seed, workers=workers, first=played)
            scores[candidates[i]] = np.concatenate([scores[candidates[i]], more])
        played += count
        pairs = {(j, i): paired_look(scores[candidates[j]] - scores[candidates[i]])
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
            for c, line in zip(candidates, report(scores, players=1 + len(against)), strict=True)]


def report(scores: dict[str, np.ndarray], players: int | None = None) -> list[str]:
    """Each candidate's mean finish score (with players: mean position and firsts), and every later one
    minus the first per game (95% interval) on the games both played."""
    base = next(iter(scores))
    lines = []
    for c, s in scores.items():
        line = f"{c}: mean finish score {s.mean():.3f} over {len(s)} games"
        if c != base:
            diff = s - scores[base][:len(s)]
            d = summarize(diff)
            look = paired_look(diff)
            m = paired_mean_interval(d.n, d.mean, d.se, (-1.0, 1.0))
            line += f"; minus {base}: {m.mean:+.3f} [{m.low:+.3f}, {m.high:+.3f}] per game (sd {look.sd:.3f})"
        if players:  # the score is (players - position) / (players - 1)
            line += f"; mean position {players - (players - 1) * s.mean():.2f}, {int((s == 1.0).sum())} firsts"
        lines.append(line)
    return lines


def positions(entries: list[str], *, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Every line-up member's finishing position per game (games x members; the first is the primary bot,
    so its positions give payoffs()' scores) and each game's deal."""
    log = judge.play_chunk([maker(e) for e in entries], seed=seed, first=0, count=games,
                           names=[str(k) for k in range(len(entries))])  # indexes: an entry may appear twice
    seats, deals = log.events.columns["seats"], log.events.columns["games"]
    found = np.zeros((games, len(entries)), dtype=int)
    for unit, member, position in zip(seats["unit"], seats["bot"], seats["position"], strict=True):
        found[unit, int(member)] = position
    deal = np.zeros(games, dtype=int)
    for unit, d in zip(deals["unit"], deals["deal"], strict=True):
        deal[unit] = d
    return found, deal


def table(entries: list[str], *, games: int, seed: int) -> list[str]:
    """One line per line-up member: mean position with Student t 95% intervals over games and over deals
    (the duplicate format's games of one deal share its cards), firsts and lasts."""
    found, deal = positions(entries, games=games, seed=seed)
    players = len(entries)
    lines = []
    for k, entry in enumerate(entries):
        p = found[:, k]
        per_deal = [p[deal == d].mean() for d in np.unique(deal)]
        g = summarize(p)
        d = summarize(per_deal)
        over_games = mean_interval(g.n, g.mean, g.sd, (1.0, players))
        over_deals = mean_interval(d.n, d.mean, d.sd, (1.0, players))
        lines.append(f"{entry}: mean position {g.mean:.2f} [{over_games.low:.2f}, {over_games.high:.2f}] over "
                     f"{g.n} games, [{over_deals.low:.2f}, {over_deals.high:.2f}] over {d.n} deals; "
                     f"{int((p == 1).sum())} firsts, {int((p == players).sum())} lasts")
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
            lines = table([args.candidates[0], *against], games=args.games, seed=args.seed)
        elif args.race:
            lines = race(args.candidates, against, games=args.games, seed=args.seed, workers=args.workers, d1=args.d1)
        else:
            lines = compare(args.candidates, against, games=args.games, seed=args.seed, workers=args.workers)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
