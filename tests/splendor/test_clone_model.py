"""The Splendor opponent model (flows/opponents/splendor.py) and its clone bot (bots/splendor/clone.py):
decisions rebuilt from a logged match and from arbiter records, held-out log-loss below uniform, the seat
round-trips through JSON, and the clone is deterministic per seed."""

import json

import numpy as np
import pytest

from bots.splendor import BOTS
from bots.splendor.clone import CLONE, FEATURES, CloneConfig, move_features, probabilities
from engine.core.errors import BadValue, NotFound
from engine.splendor import state as st
from engine.splendor.agents import InProcessAgent
from engine.splendor.judge import game_deal, play_game, play_match
from engine.splendor.record import save_game
from flows import events
from flows.games.splendor import SPEC, SplendorOptions
from flows.opponents import model_id
from flows.opponents import splendor as model
from flows.store import log_judged_match, read_only

GAMES = 12


def _log_greedy(db):
    """A small match: greedy (the candidate) against random, as `cardlab match` plays it, logged into `db`."""
    log = SPEC.play_chunk(BOTS["greedy"], BOTS["greedy"].default_config(), seed=3, first=0, count=GAMES,
                          options=SplendorOptions(opponent="random"))
    match_id = log_judged_match(SPEC, bot="greedy", config={}, seed=3, log=events.encode(log, SPEC), db=db,
                                options={"opponent": "random"})
    return match_id, log


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    db = tmp_path_factory.mktemp("clone") / "log.duckdb"
    match_id, log = _log_greedy(db)
    return read_only(db), match_id, log


@pytest.fixture(scope="module")
def fitted(logged):
    """One fit shared by the tests that read it (each fit chooses its shrinkage on inner games: seconds)."""
    return model.fit(logged[0], "greedy", holdout=0.5)


def test_the_same_games_logged_again_fit_the_same_model(logged, fitted, tmp_path):
    """The held-out split follows each game's deal, not the match id (new each time a match is logged)."""
    again = tmp_path / "again.duckdb"
    match_id = _log_greedy(again)[0]
    assert match_id != logged[1]
    fits = [fitted, model.fit(read_only(again), "greedy", holdout=0.5)]
    assert 0 < fits[0].heldout_decisions and 0 < fits[0].decisions  # both sides hold games (12 fixed deals)
    figures = [(f.params, f.decisions, f.heldout_decisions, f.heldout_logloss, f.baseline_logloss,
                f.uniform_logloss, f.calibration) for f in fits]
    assert figures[0] == figures[1]
    assert fits[0].sources != fits[1].sources and model_id(fits[0]) == model_id(fits[1])  # the id ignores match ids
    data = model.Decisions()
    model.read_log(read_only(again), "greedy", into=data)
    units = sorted(set(data.units))
    assert [model.in_heldout(u, 1, 0.5) for u in units] != [model.in_heldout(u, 2, 0.5) for u in units]  # seeded


def test_every_logged_move_is_rebuilt(logged):
    con, match_id, log = logged
    data = model.Decisions()
    sources, skipped = model.read_log(con, "greedy", into=data)
    turns = log.events["turns"]
    moved = [a != 0 for a in turns["action"]]
    assert sources == [match_id] and skipped == 0
    assert len(data) == sum(moved)  # nothing lost: every game replayed on its deal to the end
    assert data.players.count("greedy") == sum(m and c for m, c in zip(moved, turns["is_candidate"], strict=True))


def test_greedy_is_fitted_below_uniform_on_heldout_games(logged, fitted):
    con, match_id, _ = logged
    turns = con.execute("SELECT count(*) FROM spl_turns WHERE is_candidate AND action <> 0").fetchone()[0]
    assert fitted.heldout_decisions > 0 and fitted.decisions > 0
    assert fitted.decisions + fitted.heldout_decisions == turns
    assert fitted.heldout_logloss < fitted.uniform_logloss
    assert fitted.sources == (match_id,)
    overall = fitted.calibration[0]
    assert overall.situation == "all" and overall.decisions == fitted.heldout_decisions
    assert abs(sum(overall.predicted.values()) - 1) < 1e-3 and abs(sum(overall.observed.values()) - 1) < 1e-3


def test_greedys_model_picks_greedys_move_on_held_out_games(logged, fitted):
    """The lookahead and order features span greedy's evaluation, so the fitted model's most likely move is
    greedy's on most held-out decisions (0.85 from 6 games here, 0.98 from 96; 0.71 before those features),
    well beyond the population's (greedy and random pooled)."""
    con, _, _ = logged
    data = model.Decisions()
    model.read_log(con, "greedy", into=data)
    mine = np.array([p == "greedy" for p in data.players])
    held = np.array([model.in_heldout(u, 1, 0.5) for u in data.units])
    test = model.Stacked.of(data, mine & held)

    def picked(weights):
        scores = test.x @ np.array(weights)
        return float(np.mean(scores[test.chosen] >= np.maximum.reduceat(scores, test.starts) - 1e-9))

    assert len(test) == fitted.heldout_decisions
    assert picked(fitted.params["weights"]) >= max(0.8, picked(fitted.params["population"]) + 0.15)
    assert fitted.heldout_logloss < 0.75 * fitted.baseline_logloss
    assert fitted.params["shrink"] in model.SHRINKS and len(fitted.params["inner_logloss"]) == len(model.SHRINKS) + 1


def test_the_fit_plays_the_most_likely_move_for_a_deterministic_player_only():
    """Argmax or drawing is chosen on the inner games: a player that keeps the first of its best valued moves
    (as greedy does: small whole-number values, so ties are common) is played by argmax, one that draws
    from the same values is drawn from."""
    rng = np.random.default_rng(5)
    truth = np.zeros(len(FEATURES))
    truth[:3] = (1.0, 2.0, -1.0)
    order = FEATURES.index("order")

    def player(deterministic: bool) -> model.Decisions:
        data = model.Decisions()
        for k in range(600):
            rows = np.zeros((8, len(FEATURES)))
            rows[:, :3] = rng.integers(0, 3, size=(8, 3))
            rows[:, order] = -np.arange(8) / 8
            value = rows[:, :3] @ truth[:3]
            p = np.exp(value - value.max())
            data.rows.append(rows)
            data.chosen.append(int(np.argmax(value)) if deterministic else int(rng.choice(8, p=p / p.sum())))
            data.kinds.append(np.zeros(8, dtype=np.int64))
            data.players.append("p")
            data.rounds.append(1)
            data.units.append(f"deal {k}")
        return data

    for deterministic in (True, False):
        data = player(deterministic)
        shrink, argmax, losses = model.choose_shrink(data, np.ones(len(data), bool), np.zeros(len(FEATURES)), 1)
        assert argmax is deterministic, losses
        assert losses["argmax"] != losses[str(shrink)]


def test_an_absent_player_is_named_with_the_players_seen(logged):
    con, _, _ = logged
    with pytest.raises(NotFound, match="players seen: greedy, random"):
        model.fit(con, "mcts")


def test_arbiter_records_give_the_same_decisions_as_the_game(tmp_path):
    agents = [InProcessAgent("alpha", BOTS["greedy"].make()), InProcessAgent("beta", BOTS["random"].make())]
    result = play_match(agents, games=1, seed=4).games[0]
    path = save_game(result, tmp_path, 1)
    data = model.Decisions()
    assert model.read_records([path], "beta", into=data) == [str(path)]
    played = [t.event for t in result.turns if t.event.move is not None]
    assert data.players == [result.names[e.seat] for e in played]
    folder = model.Decisions()
    model.read_records([tmp_path], "beta", into=folder)  # a folder stands for its game-*.json files
    assert folder.players == data.players
    bad = tmp_path / "other" / "game-002.json"
    bad.parent.mkdir()
    bad.write_text("{}")
    with pytest.raises(BadValue, match="not a Splendor game record"):
        model.read_records([bad], "beta", into=data)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(BadValue, match="no game-.*json records"):
        model.read_records([empty], "beta", into=data)


def test_the_seat_plays_the_model_file_and_is_deterministic_per_seed(logged):
    con, _, _ = logged
    params = json.loads(json.dumps(model.fit(con, "greedy").params))
    spec, config = model.seat(params)
    assert spec is CLONE and np.allclose(config.weight_vector(), params["weights"])
    assert model.seat({**params, "argmax": True})[1].argmax and not model.seat({**params, "argmax": False})[1].argmax

    def game(seed):
        agents = [InProcessAgent("clone", spec.make(config)), InProcessAgent("random", BOTS["random"].make())]
        return [t.event.tokens for t in play_match(agents, games=1, seed=seed).games[0].turns]

    assert game(11) == game(11)
    assert game(11) != game(12)
    with pytest.raises(BadValue, match="features"):
        model.seat({**params, "features": list(FEATURES[:-1])})


def test_argmax_plays_the_most_likely_move_and_zero_weights_are_uniform():
    game = st.GameState.new(game_deal(1, 0, 2), st.SplendorConfig(players=2))
    codes = st.legal_codes(game)
    weights = np.zeros(len(FEATURES))
    weights[FEATURES.index("take2")] = 5.0
    bot = CLONE.make(CloneConfig(weights=",".join(map(str, weights)), argmax=True))
    assert bot.choose(game, np.zeros(1, np.uint64)) == st.CODE_TAKE_TWO  # the first take-two: ties go to the first
    assert np.array_equal(probabilities(move_features(game, codes), weights * 0), np.full(len(codes), 1 / len(codes)))
    uniform = CLONE.make(CloneConfig())
    counts = np.zeros(st.NUM_CODES)
    rng = np.array([7], np.uint64)
    for _ in range(1000):  # each draw computes every legal move's features: the draws are the test's time
        counts[uniform.choose(game, rng)] += 1
    share = counts[codes] / 1000
    assert move_features(game, codes).shape == (len(codes), len(FEATURES))
    assert abs(share.mean() - 1 / len(codes)) < 1e-12 and share.min() > 0.3 / len(codes)


def test_a_clone_game_is_a_whole_game():
    agents = [InProcessAgent("clone", CLONE.make()), InProcessAgent("greedy", BOTS["greedy"].make())]
    result = play_game(agents, game_deal(2, 0, 2))
    assert result.rounds >= 1 and all(t.event.move is not None for t in result.turns)  # no pass: every move legal


def test_players_are_named_as_the_cli_spells_bots():
    from dataclasses import asdict

    greedy = asdict(BOTS["greedy"].default_config())
    assert model.bot_name("greedy", greedy) == "greedy"
    assert model.bot_name("greedy", {**greedy, "target": 6.0}) == "greedy:target=6.0"
    assert model.canonical("greedy:target=6") == model.canonical("greedy:target=6.0") == "greedy:target=6.0"
    assert model.canonical("rival@abc") == "rival@abc"
    # a match: the candidate (a non-default config) among copies of its opponent, set with k=v;k=v
    assert model.seat_names("greedy", {**greedy, "target": 6.0}, {"opponent": "greedy", "opponent_set": "noble=2"},
                            2, 1, 1) == ["greedy:noble=2.0", "greedy:target=6.0"]
    # a judged match: the agents rotate one seat each game, as the arbiter seats them
    assert model.seat_names("external:a", {}, {"agents": {"a": "x", "b": "y", "c": "z"}}, 3, 1, 2) == ["b", "c", "a"]
    assert model.seat_names("league", {}, {"seats": ["p@1", "q@2"]}, 2, 0, 0) == ["p@1", "q@2"]
    assert model.seat_names("league", {}, {"seats": ["p@1"]}, 2, 0, 0) is None


@pytest.mark.slow  # two whole games of a clone, whose every move scores the legal moves' lookahead features
def test_a_model_entrant_plays_a_full_league_game(logged):
    from flows import opponents
    from flows.league_play import plan_games
    from flows.league_spec import build

    con, _, _ = logged
    stored = opponents.save(model.fit(con, "greedy"), mlflow=False)
    entrants = [("orig", "bot:greedy"), ("clone", f"model:{stored.model_id}")]
    league = build(name="clones", game="splendor", programs=entrants, games=1, players=2)
    plan = plan_games(league)[0]

    def play():
        payoffs, ranks, faults, _, log = SPEC.league.play(league, plan)
        return payoffs, ranks, faults, log.events["turns"]["tokens"]

    payoffs, ranks, faults, tokens = play()
    assert faults == ["", ""] and sum(payoffs) in (0.0, 1.0) and set(ranks) <= {1, 2}
    assert len(tokens) > 20  # played to the end, not stopped early
    assert play()[3] == tokens  # the same moves on the same seed


def test_a_judged_match_on_the_arbiters_deals_is_rebuilt(tmp_path):
    """`cardlab judge splendor --deals php --log`: three agents rotating seats, dealt by PHP's generator."""
    from engine.splendor.judge import match_chunk

    agents = [InProcessAgent("a", BOTS["greedy"].make()), InProcessAgent("b", BOTS["random"].make()),
              InProcessAgent("c", BOTS["random"].make())]
    result = play_match(agents, games=2, seed=5, deals="php")
    db = tmp_path / "log.duckdb"
    log_judged_match(SPEC, bot="external:a", config={}, seed=5, log=events.encode(match_chunk(result, "a"), SPEC),
                     db=db, options={"agents": {"a": "./a", "b": "./b", "c": "./c"}})
    data = model.Decisions()
    _, skipped = model.read_log(read_only(db), "c", into=data)
    moved = [(g.names[t.event.seat]) for g in result.games for t in g.turns if t.event.move is not None]
    assert skipped == 0 and data.players == moved
