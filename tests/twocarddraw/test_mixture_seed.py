"""The mixture bot's Thompson draws (and the robust bot's per-hand choice) follow the match seed the judge
gives: a match replays bit for bit from its seed, chunked or not, and two seeds draw differently."""

import numpy as np

from bots.twocarddraw import BOTS
from engine.twocarddraw import judge as J

SMALL = {"buckets": "2", "bucket_count": "3"}  # small banks keep the test fast to build
THOMPSON = {**SMALL, "explore": "thompson"}


def _bot(name: str, settings: dict):
    return BOTS[name].make(BOTS[name].config_from(settings))


def _first_draw(server, seed: int, settings: dict = THOMPSON) -> np.ndarray:
    """The policy the bot plays from its first posterior draw, made when the judge inits it (no hand played)."""
    bot = _bot("mixture", settings)
    J.play_bot(bot, server, seed=seed, count=0)
    return bot.policy.copy()


def test_two_match_seeds_give_different_thompson_draws(generated_12):
    draws = [_first_draw(generated_12, seed) for seed in (5, 6, 7)]
    assert not np.array_equal(draws[0], draws[1]) and not np.array_equal(draws[1], draws[2])


def test_the_same_seed_draws_the_same_and_the_mean_ignores_the_seed(generated_12):
    assert np.array_equal(_first_draw(generated_12, 5), _first_draw(generated_12, 5))
    assert np.array_equal(_first_draw(generated_12, 5, SMALL), _first_draw(generated_12, 6, SMALL))  # no draws


def test_the_config_seed_still_changes_the_draws_on_one_match_seed(generated_12):
    assert not np.array_equal(_first_draw(generated_12, 5), _first_draw(generated_12, 5, {**THOMPSON,
                                                                                         "explore_seed": "1"}))


def test_a_match_replays_bit_for_bit_from_its_seed_whole_or_chunked(generated_12):
    spec = BOTS["mixture"]
    config = spec.config_from({**THOMPSON, "resolve_every": "3"})
    whole = J.play_bot(spec.make(config), generated_12, seed=11, count=30).profits
    again = J.play_bot(spec.make(config), generated_12, seed=11, count=30).profits
    chunk = J.play_bot(spec.make(config), generated_12, seed=11, first=20, count=10).profits
    assert np.array_equal(whole, again) and np.array_equal(whole[20:], chunk)


def test_the_robust_bots_per_hand_choice_follows_the_match_seed(generated_12):
    def choices(match_seed):
        bot = _bot("robust", {**SMALL, "eq_iterations": "10"})
        J.play_bot(bot, generated_12, seed=match_seed, count=0)
        return bot.mix_rng.random(8)

    assert np.array_equal(choices(5), choices(5)) and not np.array_equal(choices(5), choices(6))
