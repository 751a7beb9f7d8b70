"""Small real sweeps written straight into the test hand log (no Prefect): every config plays
the same units, the first config is the bot's defaults (the baseline)."""

from datetime import UTC, datetime

import pytest

from flows import sweep_record
from flows.league import LEAGUE_SQL
from flows.league_ratings import openskill_ratings, seat_rows
from flows.match import MatchPlan, record_match, run_match
from flows.store import HandLog, new_match_id, read_only
from flows.sweep import SweepSpec


def make_sweep(game: str, bot: str, configs: list[tuple], *, units: int, seed: int = 3, options=()) -> str:
    key = sorted({k for c in configs for k, _ in c})
    grid = tuple((k, tuple(dict.fromkeys(dict(c).get(k) for c in configs if k in dict(c)))) for k in key)
    spec = SweepSpec(game=game, bot=bot, grid=grid, units=units, seed=seed, chunk_size=units, options=options,
                     baseline=())
    sweep_id = new_match_id("s")
    with HandLog() as store:
        store.begin_sweep(sweep_id=sweep_id, game=game, bot=bot, grid={k: list(v) for k, v in grid}, units=units,
                          seed=seed, spec=spec.to_json())
        for i, overrides in enumerate(configs):
            plan = MatchPlan(game=game, bot=bot, overrides=tuple(overrides), options=tuple(options), seed=seed,
                             units=units, chunk_size=units)
            match_id = f"{sweep_id}-c{i}"
            record_match(store, plan, match_id, source="sweep", sweep_id=sweep_id)
            run_match(plan, store, match_id=match_id, source="sweep")
        con = store.con
        best = sweep_record.ranked(sweep_record.results(con, sweep_id))[0]
        store.finish_sweep(sweep_id, best_match=best.match_id, mlflow_run=None)
    return sweep_id


@pytest.fixture(scope="session")
def ht_sweep() -> str:
    return make_sweep("holdem-training", "exploit", [(), (("future_flop", "0.2"),), (("future_flop", "0.5"),)],
                      units=600)


@pytest.fixture(scope="session")
def cg_sweep() -> str:
    return make_sweep("cg-holdem", "aggressive", [(("samples", "40"),), (("samples", "40"), ("bet_respect", "0.6"))],
                      units=6, options=(("players", "3"), ("opponents", "montecarlo/pushfold")))


@pytest.fixture(scope="session")
def league(cg_sweep) -> tuple[str, list[str]]:
    """Two real CodinGame matches of the sweep as the two games of a league of two entrants, one of whose
    seats faulted (the rows a league run writes, without playing it again)."""
    name = f"page-{cg_sweep}"
    games = [("r0:a@aaa111,b@bbb222", f"{cg_sweep}-c0", (1, 2), ("", "no answer within 0.05 s")),
             ("r1:b@bbb222,a@aaa111", f"{cg_sweep}-c1", (2, 1), ("", ""))]
    now = datetime.now(UTC).replace(tzinfo=None)
    with HandLog() as store:
        store.apply_sql(LEAGUE_SQL)  # as a league run does first
        store.put("leagues", [{"league": name, "game": "cg-holdem", "seed": 1, "players": 2, "options": "{}",
                               "created_at": now}])
        for k, (key, match, ranks, faults) in enumerate(games):
            store.put("league_games", [{"league": name, "game_key": key, "round": k, "seed": k, "match_id": match,
                                        "seconds": 0.1, "played_at": now}])
            store.put("league_seats", [{"league": name, "game_key": key, "seat": seat, "entrant": entrant,
                                        "payoff": 1.0 if ranks[seat] == 1 else 0.0, "units": 1, "rank": ranks[seat],
                                        "fault": faults[seat]}
                                       for seat, entrant in enumerate(key.split(":")[1].split(","))])
        store.put("league_ratings", [{"league": name, "entrant": entrant, "mu": mu, "sigma": sigma, "ordinal": ordinal,
                                      "games": 2, "updated_at": now}
                                     for entrant, (mu, sigma, ordinal) in openskill_ratings(
                                         seat_rows(store.query, name)).items()])
    return name, [m for _, m, _, _ in games]


def connect():
    return read_only()
