"""Opponent models (issue 27): fit a cg-holdem player from a small hand log, store and load it, and
play it as `model:ID` in a match and a league game, deterministically per seed."""

import pytest

from bots.base import ConfigError
from flows import opponents
from flows.games.cg_holdem import SPEC, MatchOptions
from flows.league_play import plan_games
from flows.league_spec import build
from flows.match import MatchPlan, run_match
from flows.store import HandLog, read_only
from tests.scratch import scratch_home


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A hand log of two short heads-up matches: station and pushfold, each against aggressive."""
    with scratch_home(tmp_path_factory, "opponents") as home:
        with HandLog() as store:
            for k, bot in enumerate(("station", "pushfold")):
                plan = MatchPlan(game="cg-holdem", bot=bot, options=(("opponents", "aggressive"), ("players", "2")),
                                 seed=11 + k, units=30, chunk_size=30)
                run_match(plan, store)
        yield home


@pytest.fixture(scope="module")
def station(workspace):
    return opponents.fit("cg-holdem", "station", seed=3)


@pytest.fixture(scope="module")
def stored(workspace, station):
    with HandLog() as store:
        return opponents.save(station, store=store, mlflow=False)


def test_fit_predicts_held_out_decisions_better_than_uniform(station):
    assert station.decisions > 50 and station.heldout_decisions > 10
    # the station only checks or calls: its own model beats the field's, which beats uniform
    assert station.heldout_logloss < station.baseline_logloss < station.uniform_logloss
    assert station.heldout_logloss < 0.1
    assert all(c.observed["PASSIVE"] == 1.0 for c in station.calibration)


def test_pushfold_model_pushes_or_folds_preflop(workspace):
    model = opponents.fit("cg-holdem", "pushfold", seed=3)
    preflop = [c for c in model.calibration if c.situation.startswith("street 0")]
    assert preflop and model.heldout_logloss < model.uniform_logloss
    assert all(c.predicted["RAISE"] < 0.05 for c in preflop)  # it never makes a sized raise


def test_refit_on_the_same_data_is_the_same_model(workspace, station):
    again = opponents.fit("cg-holdem", "station", seed=3)
    assert opponents.model_id(again) == opponents.model_id(station)
    other_split = opponents.fit("cg-holdem", "station", seed=4)
    assert other_split.heldout_decisions != station.heldout_decisions or other_split.params != station.params


def test_stored_model_is_in_the_hand_log_and_loads_back(workspace, station, stored):
    con = read_only(str(workspace / "handlog.duckdb"))
    try:
        row = con.execute("SELECT game, player, decisions, method, path FROM opponent_models WHERE model_id = ?",
                          [stored.model_id]).fetchone()
    finally:
        con.close()
    assert row == ("cg-holdem", "station", station.decisions, station.method, str(stored.path.resolve()))
    assert opponents.load(stored.model_id) == station


def _actions(stored, seed):
    spec = SPEC.spec("aggressive")
    log = SPEC.play_chunk(spec, spec.config_from(["samples=40"]), seed=seed, first=0, count=4,
                          options=MatchOptions(players=2, opponents=f"model:{stored.model_id}"))
    t = log.events["actions"]
    return list(zip(t["unit"], t["hand"], t["seat"], t["action"], strict=True))


def test_model_seat_plays_the_same_moves_on_the_same_seed(stored):
    first, again = _actions(stored, 5), _actions(stored, 5)
    assert len(first) > 20 and first == again
    assert _actions(stored, 6) != first  # another seed deals other games


def test_model_entrant_plays_a_full_league_game(stored):
    league = build(name="clones", game="cg-holdem", programs=[("orig", "bot:station"),
                                                              ("clone", f"model:{stored.model_id}")],
                   games=1, players=2)
    plan = plan_games(league)[0]
    payoffs, ranks, faults, _, log = SPEC.league.play(league, plan)
    assert sorted(ranks) == [1, 2] and sorted(payoffs) == [0.0, 1.0] and faults == ["", ""]
    assert set(log.events["seats"]["bot"]) == {e.key for e in plan.seats}
    assert log.events["games"]["hands"][0] > 1  # played to the end, not stopped at the first hand


def test_unknown_model_is_refused_in_one_line(workspace):
    with pytest.raises(ConfigError, match="no opponent model 'nope'") as caught:
        MatchOptions(players=2, opponents="model:nope")
    assert "\n" not in str(caught.value)


def test_game_without_a_fitter_says_which_have_one():
    with pytest.raises(opponents.NoOpponentModel, match="tractor has no opponent model; accepted: .*cg-holdem"):
        opponents.fitter("tractor")


def test_clone_test_of_an_exact_clone_agrees_and_ranks_the_same(stored):
    from flows.opponents.clone_test import clone_test

    result = clone_test("cg-holdem", stored.model_id, "station", ["pushfold", "station"], games=8, seed=2)
    assert [r.candidate for r in result.results] == ["pushfold", "station"]
    mirror = next(r for r in result.results if r.candidate == "station")
    assert mirror.vs_original == 0.5  # the station against itself, every deal in both seats
    assert result.same_ranking and result.all_agree
    assert result.as_dict()["ranking_clone"] == result.ranking_original


def test_hud_mart_reads_each_style(workspace):
    con = read_only(str(workspace / "handlog.duckdb"))
    try:
        rows = con.execute("SELECT bot, sum(hands), max(pfr), max(three_bet), max(fold_to_cbet), max(wtsd), "
                           "sum(cbet_chances) FROM mart_cgh_hud GROUP BY bot").fetchall()
    finally:
        con.close()
    hud = {bot: rest for bot, *rest in rows}
    assert set(hud) == {"station", "pushfold", "aggressive"} and all(r[0] > 0 for r in hud.values())
    _, pfr, three_bet, fold_cbet, wtsd, _ = hud["station"]
    assert pfr == 0 and three_bet in (0, None) and fold_cbet in (0, None)  # it only ever calls
    assert wtsd in (1, None)  # a flop seen is a showdown reached
    assert hud["aggressive"][1] > 0.2 and hud["aggressive"][5] > 0  # raises first in, c-bets
    assert hud["pushfold"][5] == 0  # never raises preflop except all-in, never bets the flop
