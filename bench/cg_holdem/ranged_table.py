"""Markdown rows from ranged_leagues.sh's JSON files: python -m bench.cg_holdem.ranged_table OUT [BOT].

Heads-up: the bot's share of games won with the league's Wilson interval. Four seats: the mean
finishing position from the finish score (position = 4 - 3 x score, so the interval maps
over), and each pair's share of common games finishing ahead.
"""

import json
import sys
from pathlib import Path

from engine.core.stats import wilson


def rows(out: Path, bot: str) -> list[str]:
    lines = []
    for path in sorted(out.glob("*.json")):
        if not path.stat().st_size:  # a league stopped before its end: its recorded games
            lines += partial(out / "handlog.duckdb", path.stem, bot)
            continue
        league = json.loads(path.read_text())
        board = {e["name"]: e for e in league["leaderboard"]}
        if bot not in board:
            continue
        me = board[bot]
        if path.stem.startswith("hu-"):
            other = next(n for n in board if n != bot)
            lines.append(f"| heads-up vs {other} | {me['games']} | {me['measure']:.1%} "
                         f"[{me['ci_low']:.1%}, {me['ci_high']:.1%}] | {me['faults']} |")
        else:
            for name, e in board.items():
                pos = 4 - 3 * e["measure"]
                lines.append(f"| four seats: {name} | {e['games']} | mean position {pos:.2f} "
                             f"[{4 - 3 * e['ci_high']:.2f}, {4 - 3 * e['ci_low']:.2f}] | {e['faults']} |")
            for p in league["pairs"]:
                a, b = p["a"].split("@")[0], p["b"].split("@")[0]
                if bot in (a, b):
                    lines.append(f"| four seats: {a} ahead of {b} | {p['games']} | {p['value']:.1%} "
                                 f"[{p['ci_low']:.1%}, {p['ci_high']:.1%}] | |")
    return lines


def partial(db: Path, league: str, bot: str) -> list[str]:
    """A heads-up league's recorded games read from the hand log (Wilson interval on games won)."""
    from flows.store import read_only

    with read_only(str(db)) as con:
        won, games = con.execute("SELECT sum(payoff), count(*) FROM league_seats WHERE league = ? "
                                 "AND split_part(entrant, '@', 1) = ?", [league, bot]).fetchone()
    if not games:
        return []
    p = wilson(won, games)
    return [f"| heads-up vs {league.split(bot + '-', 1)[-1]} (stopped early) | {games} | {won / games:.1%} "
            f"[{p.low:.1%}, {p.high:.1%}] | |"]


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
