"""Small real sweeps written straight into the test hand log (no Prefect): every config plays
the same units, the first config is the bot's defaults (the baseline)."""

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
    with HandLog() as store:
        store.apply_sql(LEAGUE_SQL)  # as a league run does first
        con = store.con
        con.execute("INSERT INTO leagues VALUES (?, 'cg-holdem', 1, 2, '{}', now())", [name])
        for k, (key, match, ranks, faults) in enumerate(games):
            con.execute("INSERT INTO league_games VALUES (?, ?, ?, ?, ?, 0.1, now())", [name, key, k, k, match])
            for seat, entrant in enumerate(key.split(":")[1].split(",")):
                con.execute("INSERT INTO league_seats VALUES (?, ?, ?, ?, ?, 1, ?, ?, NULL)",
                            [name, key, seat, entrant, 1.0 if ranks[seat] == 1 else 0.0, ranks[seat], faults[seat]])
        for entrant, (mu, sigma, ordinal) in openskill_ratings(seat_rows(store.query, name)).items():
            con.execute("INSERT INTO league_ratings VALUES (?, ?, ?, ?, ?, 2, now())",
                        [name, entrant, mu, sigma, ordinal])
    return name, [m for _, m, _, _ in games]


def connect():
    return read_only()
