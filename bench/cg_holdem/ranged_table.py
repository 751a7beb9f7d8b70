"""Markdown rows from ranged_leagues.sh's JSON files: python -m bench.cg_holdem.ranged_table OUT [BOT].

Heads-up: the bot's share of games won with the league's Wilson interval. More seats: the mean
finishing position from the finish score (position = n - (n - 1) x score for n players, so the
interval maps over), and each pair's share of common games finishing ahead. A league whose JSON is
still empty (running, or stopped before its end) is read from the hand log: its games so far.
After the rows, the programs each league played: the version the league recorded (12 hex digits of
sha256 over the program's files, bots.program.program_version), a commit if recorded, and the
sha256 of the program's file in OUT/programs (or bench/cg_holdem/styles) when that file is the one played.
"""

import hashlib
import json
import shlex
import sys
from pathlib import Path

from bots.program import program_version

STYLES = Path(__file__).parent / "styles"
SEATS = {2: "heads-up", 3: "three seats", 4: "four seats"}


def board(path: Path, out: Path) -> tuple[dict, bool]:
    """The league's JSON document and whether it is unfinished (read from the hand log so far)."""
    if path.stat().st_size:
        return json.loads(path.read_text()), False
    from flows.league_ratings import board_from_log

    return board_from_log(path.stem, str(out / "handlog.duckdb")).to_json(), True


def rows(out: Path, bot: str) -> list[str]:
    lines, played = [], {}
    for path in sorted(out.glob("*.json")):
        league, unfinished = board(path, out)
        entries = {e["name"]: e for e in league["leaderboard"]}
        if bot not in entries:
            continue
        played[path.stem] = league
        n, me = len(entries), entries[bot]
        table = SEATS.get(n, f"{n} seats") + (" (unfinished)" if unfinished else "")
        if n == 2:
            other = next(name for name in entries if name != bot)
            lines.append(f"| {table} vs {other} | {me['games']} | {me['measure']:.1%} "
                         f"[{me['ci_low']:.1%}, {me['ci_high']:.1%}] | {me['faults']} |")
            continue
        for name, e in entries.items():
            lines.append(f"| {table}: {name} | {e['games']} | mean position {n - (n - 1) * e['measure']:.2f} "
                         f"[{n - (n - 1) * e['ci_high']:.2f}, {n - (n - 1) * e['ci_low']:.2f}] | {e['faults']} |")
        for p in league["pairs"]:
            a, b = p["a"].split("@")[0], p["b"].split("@")[0]
            if bot in (a, b):
                lines.append(f"| {table}: {a} ahead of {b} | {p['games']} | {p['value']:.1%} "
                             f"[{p['ci_low']:.1%}, {p['ci_high']:.1%}] | |")
    return lines + programs(out, played)


def program_file(out: Path, name: str) -> Path:
    """The file ranged_leagues.sh runs for an entrant (its `program`)."""
    if name.startswith("style_"):
        return STYLES / f"{name.removeprefix('style_')}.py"
    return out / "programs" / f"{name}.py"


def programs(out: Path, played: dict[str, dict]) -> list[str]:
    """One line per league: each entrant's recorded version (and commit, if the JSON has one), with its
    file's sha256 where the file ranged_leagues.sh names for it still hashes to that version."""
    lines = []
    for league, doc in played.items():
        named = []
        for e in doc["leaderboard"]:
            commit = e.get("commit") or doc.get("commit")
            text = f"{e['name']}@{e['version']}" + (f" commit {commit}" if commit else "")
            file = program_file(out, e["name"])
            if file.is_file() and program_version(f"python3 {shlex.quote(str(file))}") == e["version"]:
                text += f" (sha256 {hashlib.sha256(file.read_bytes()).hexdigest()})"
            named.append(text)
        lines.append(f"{league}: " + ", ".join(named))
    return lines


def paired(before: Path, after: Path, league: str, bot: str = "ranged") -> str:
    """The same league played by two versions of the bot (two OUT folders, same seed, so the same
    deals and seatings): the mean difference of its finish score per game with a t interval."""
    from flows.stats import paired_mean_interval, summarize
    from flows.store import read_only

    def scores(out: Path) -> dict[str, float]:
        with read_only(str(out / "handlog.duckdb")) as con:
            found = con.execute("SELECT game_key, payoff FROM league_seats WHERE league = ? "
                                "AND split_part(entrant, '@', 1) = ?", [league, bot]).fetchall()
        # the key names entrants with their versions: keep the round and the seat order only
        return {k.split(":")[0] + ":" + ",".join(e.split("@")[0] for e in k.split(":", 1)[1].split(",")): v
                for k, v in found}

    a, b = scores(before), scores(after)
    common = sorted(set(a) & set(b))
    d = summarize([b[k] - a[k] for k in common])
    m = paired_mean_interval(d.n, d.mean, d.se, (-1.0, 1.0))
    return f"{league}: after - before {m.mean:+.3f} [{m.low:+.3f}, {m.high:+.3f}] per game over {d.n} paired games"


if __name__ == "__main__":
    if sys.argv[1] == "--paired":  # --paired BEFORE AFTER LEAGUE
        print(paired(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]))
    else:
        print("\n".join(rows(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "ranged")))
