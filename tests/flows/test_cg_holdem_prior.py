"""The ranged bot's read prior from logged games (issue 32, flows/opponents/cg_holdem_prior.py): the
games are counted the way the bot counts within a game, a fitted model names its games, and a bad
`read_prior` is refused in one line."""

import json

import pytest

from bots.cg_holdem import BOTS
from bots.cg_holdem.reads import AGGRESSIVE, BINS, FOLD, check_prior
from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Game
from engine.core.errors import BadValue, MissingFile, NotFound
from flows import opponents
from flows.match import MatchPlan, run_match
from flows.opponents.cg_holdem_prior import resolve, resolve_settings, watch
from flows.store import HandLog
from tests.scratch import scratch_home


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    """A hand log of one short heads-up match, ranged against aggressive."""
    with scratch_home(tmp_path_factory, "ranged_prior") as home:
        with HandLog() as store:
            plan = MatchPlan(game="cg-holdem", bot="ranged", options=(("opponents", "aggressive"), ("players", "2")),
                             seed=11, units=6, chunk_size=6)
            run_match(plan, store)
        yield home


def total(counts) -> float:
    return sum(x for table in counts.values() for row in table for x in row)


def test_watching_a_game_counts_what_the_seated_bot_counted():
    me = BOTS["ranged"].make()
    result = play_game([BotSeat(me), BotSeat(BOTS["aggressive"].make())], seed=5)
    game = Game(GameConfig(players=2), 5)
    for line in result.history:
        kind, _, amount = line.action.partition("_")
        game.play(kind, int(amount) if amount else 0)
    watched: dict = {}
    watch(game, {1}, watched)
    own = me.reads[1].counts
    assert total(own) > 20 and set(own) <= set(watched)
    for key, table in own.items():  # the same counts, but for the last hand, whose cards the seat never saw
        for k in range(3):
            for b in range(BINS):
                assert table[k][b] <= watched[key][k][b] + 1e-9
    last = max(line.hand for line in result.history)
    assert total(watched) - total(own) <= 2 * sum(1 for line in result.history if line.hand == last)


def test_a_model_names_the_games_it_was_fitted_on(workspace):
    model = opponents.fit("cg-holdem", "aggressive", seed=3)
    with HandLog() as store:
        stored = opponents.save(model, store=store, mlflow=False)
    prior = resolve(f"model:{stored.model_id}")
    assert prior == resolve("log:aggressive") and check_prior(prior) is None
    assert resolve(f"model:{stored.model_id}+model:{stored.model_id}") == prior  # the same games, once
    first = json.loads(prior)["pre_first"]  # aggressive raises the top first in and folds the bottom

    def mean_bin(row):
        return sum(b * x for b, x in enumerate(row)) / sum(row)

    assert mean_bin(first[AGGRESSIVE]) > mean_bin(first[FOLD]) + 2
    assert resolve_settings(["samples=9", f"read_prior=model:{stored.model_id}"]) == ["samples=9",
                                                                                    f"read_prior={prior}"]


def test_a_bad_prior_is_refused_in_one_line(workspace, tmp_path):
    (tmp_path / "bad.json").write_text('{"lead": [1, 2]}')
    (tmp_path / "broken.json").write_text("{oops")
    cases = [("model:nope", NotFound), ("log:nobody", NotFound), (str(tmp_path / "none.json"), MissingFile),
             (str(tmp_path / "bad.json"), BadValue), (str(tmp_path / "broken.json"), BadValue)]
    for value, error in cases:
        with pytest.raises(error) as err:
            resolve(value)
        assert "\n" not in str(err.value) and ("accepted" in str(err.value) or "not" in str(err.value)), value
