"""A league's ratings and leaderboard, from its rows in the hand log.

How entrants rank follows the game's payoff kind (flows.games.base): games between entrants
(RANKING) rank by the openskill (Plackett-Luce) ordinal, mu - 3 sigma, over every game in
(round, key) order, so a league extended later rates exactly as one played in a single run;
games against the contest's fixed opponent (HOUSE) rank by mean payoff per unit over common
seeds; programs checked against a reference (REFERENCE) by the share of fresh cases agreeing.
Intervals: Wilson for shares (never a normal interval on 12/12), mean +/- t * se for profits and
paired differences.
"""

import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime

import polars as pl

from engine.core.errors import UnknownName
from flows import shards
from flows.games.base import HOUSE, RANKING, REFERENCE
from flows.league_spec import LeagueSpec, game_spec
from flows.ratings import rate
from flows.stats import t_interval, wilson

Query = Callable[[str, list], pl.DataFrame]


MAX_REASONS = 5  # distinct fault reasons kept per entrant


@dataclass(frozen=True)
class Standing:
    entrant: str  # name@version
    name: str
    version: str
    games: int
    score: float  # what the leaderboard ranks: ordinal, profit per hand, or share of cases agreed
    ci_low: float  # of `measure`
    ci_high: float
    measure: float  # win share (games between entrants), else = score
    mu: float | None
    sigma: float | None
    faults: int
    cpu_seconds: float | None  # mean per game
    fault_reasons: tuple[tuple[str, int], ...] = ()  # (reason, games), most frequent first (MAX_REASONS)


@dataclass(frozen=True)
class Pairing:
    a: str
    b: str
    games: int  # games both played (at one table, or on common seeds)
    value: float  # a's share of games finishing ahead of b (ties 1/2), or mean paired difference a - b
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class Leaderboard:
    league: str
    game: str
    score_label: str
    measure_label: str
    pair_label: str
    standings: tuple[Standing, ...]  # best first
    pairs: tuple[Pairing, ...]

    def to_json(self) -> dict:
        rows = [asdict(s) for s in self.standings]
        return {"league": self.league, "game": self.game, "score": self.score_label,
                "leaderboard": [_finite(r) for r in rows], "pairs": [_finite(asdict(p)) for p in self.pairs]}


def _finite(row: dict) -> dict:
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in row.items()}


def board_from_log(league: str, db: str | None = None) -> Leaderboard:
    """The leaderboard read from a hand log (the workspace's by default), opened read-only."""
    from flows.store import read_only

    con = read_only(db)
    try:
        return leaderboard(lambda sql, params: pl.from_arrow(con.sql(sql, params=params).to_arrow_table()), league)
    finally:
        con.close()


def seat_rows(query: Query, league: str) -> pl.DataFrame:
    return query("SELECT g.round, s.game_key, s.seat, s.entrant, s.payoff, s.units, s.rank, s.fault, s.cpu_seconds "
                 "FROM league_seats s JOIN league_games g USING (league, game_key) WHERE s.league = ? "
                 "ORDER BY g.round, s.game_key, s.seat", [league])


def openskill_ratings(rows: pl.DataFrame) -> dict[str, tuple[float, float, float]]:
    """entrant -> (mu, sigma, ordinal) over the games in row order."""
    rated = rate((game["entrant"].to_list(), game["rank"].to_list())
                 for _, game in rows.group_by("game_key", maintain_order=True))
    return {e: (r.mu, r.sigma, r.ordinal) for e, r in rated.items()}


def recompute_ratings(store, spec: LeagueSpec) -> None:
    rows = seat_rows(store.query, spec.name)
    rated = openskill_ratings(rows) if game_spec(spec.game).payoff_kind == RANKING else {}
    counts = rows.group_by("entrant").len() if rows.height else pl.DataFrame({"entrant": [], "len": []})
    now = datetime.now(UTC).replace(tzinfo=None)
    rows = []
    for e, n in counts.iter_rows():
        mu, sigma, ordinal = rated.get(e, (None, None, None))
        rows.append({"league": spec.name, "entrant": e, "mu": mu, "sigma": sigma, "ordinal": ordinal, "games": n,
                     "updated_at": now})
    # One file keyed by the league: it replaces every rating of the league written before.
    store.put("league_ratings", rows, key=shards.safe_key(spec.name))


def leaderboard(query: Query, league: str) -> Leaderboard:
    found = query("SELECT game, options FROM leagues WHERE league = ?", [league])
    if not found.height:
        raise UnknownName(f"no league {league!r} in the hand log")
    game = found["game"][0]
    spec = game_spec(game)
    kind = spec.payoff_kind
    rows = seat_rows(query, league)
    ratings = {r["entrant"]: r for r in query("SELECT * FROM league_ratings WHERE league = ?", [league])
               .iter_rows(named=True)}
    standings = [_standing(e, part, ratings.get(e), between=kind == RANKING, reference=kind == REFERENCE)
                 for (e,), part in rows.group_by("entrant", maintain_order=True)]
    standings.sort(key=lambda s: -s.score if math.isfinite(s.score) else math.inf)
    order = [s.entrant for s in standings]
    pairs = tuple(_pair(rows, a, b, kind=kind) for i, a in enumerate(order) for b in order[i + 1:])
    if kind == REFERENCE:
        labels = ("share of cases agreeing with the reference", "share of cases agreed",
                  "share of tests agreeing on more cases than b (ties 1/2)")
    elif kind == HOUSE:
        labels = (f"mean {spec.payoff_label} (common seeds)", f"mean {spec.payoff_label}",
                  f"paired difference in {spec.payoff_label}, same seeds")
    else:
        labels = ("openskill ordinal (mu - 3 sigma)", "mean win share", "share of shared games finishing ahead")
    return Leaderboard(league, game, *labels, tuple(standings), pairs)


def _standing(entrant: str, part: pl.DataFrame, rating: dict | None, *, between: bool,
              reference: bool) -> Standing:
    payoffs = part["payoff"].to_list()
    n = len(payoffs)
    if between:
        measure = sum(payoffs) / n
        p = wilson(sum(payoffs), n)
        low, high = p.low, p.high
        score = rating["ordinal"] if rating and rating["ordinal"] is not None else math.nan
    elif reference:  # cases, not tests, are the trials
        units = part["units"].to_list()
        agreed = sum(p * u for p, u in zip(payoffs, units, strict=True))
        measure = score = agreed / sum(units)
        p = wilson(agreed, sum(units))
        low, high = p.low, p.high
    else:
        measure, low, high = t_interval(payoffs)
        score = measure
    cpu = [c for c in part["cpu_seconds"].to_list() if c is not None]
    name, _, version = entrant.rpartition("@")
    return Standing(entrant=entrant, name=name, version=version, games=n, score=score, ci_low=low, ci_high=high,
                    measure=measure, mu=rating["mu"] if rating else None, sigma=rating["sigma"] if rating else None,
                    faults=sum(1 for f in part["fault"].to_list() if f),
                    cpu_seconds=sum(cpu) / len(cpu) if cpu else None,
                    fault_reasons=fault_reasons(part["fault"].to_list()))


_MEASURED = re.compile(r"\d+\.\d{3}")  # a measurement in a reason (CPU 0.012 s, wall 0.731 s): varies game to game


def fault_reasons(faults: list[str | None]) -> tuple[tuple[str, int], ...]:
    """(reason, games) most frequent first: reasons that differ only in what was measured count as one, shown
    by their first game's words."""
    counts, first = Counter(), {}
    for fault in faults:
        if fault:
            key = _MEASURED.sub("#", fault)
            counts[key] += 1
            first.setdefault(key, fault)
    return tuple((first[key], n) for key, n in counts.most_common(MAX_REASONS))


def _pair(rows: pl.DataFrame, a: str, b: str, *, kind: str) -> Pairing:
    if kind != HOUSE:  # games both played: a ahead = 1, tie = 1/2
        on, rank = ("round", -pl.col("payoff")) if kind == REFERENCE else ("game_key", pl.col("rank"))
        mine = rows.filter(pl.col("entrant") == a).select(on, ra=rank)
        theirs = rows.filter(pl.col("entrant") == b).select(on, rb=rank)
        both = mine.join(theirs, on=on)
        ahead = float(sum(1.0 if x < y else 0.5 if x == y else 0.0 for x, y in both.select("ra", "rb").iter_rows()))
        n = both.height
        p = wilson(ahead, n)
        low, high = p.low, p.high
        return Pairing(a, b, n, ahead / n if n else math.nan, low, high)
    mine = rows.filter(pl.col("entrant") == a).select("round", pa="payoff")
    theirs = rows.filter(pl.col("entrant") == b).select("round", pb="payoff")
    both = mine.join(theirs, on="round")
    mean, low, high = t_interval((both["pa"] - both["pb"]).to_numpy()) if both.height else (math.nan,) * 3
    return Pairing(a, b, both.height, mean, low, high)
