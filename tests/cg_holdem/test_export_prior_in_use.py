"""The export embeds only the parts of a read prior its settings read (``prior_in_use``): the arena caps a
submission's length, and a prior with each player's tables split by phase is about 2.5 times the pooled one. The
trimmed prior must play exactly as the whole one."""

import json
from dataclasses import replace

import pytest

from bots.cg_holdem import BOTS
from bots.cg_holdem.export import prior_in_use, submission_source
from bots.cg_holdem.reads import CALLERS, PLAYERS, PLAYERS_BY_LIVE, SEEN_BY_LIVE
from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.rules import GameConfig
from tests.cg_holdem.test_ranged_seat_prior_phase import NEW

SPEC = BOTS["ranged"]
# a pooled table beside the players' own, so that dropping one or the other shows
WHOLE = {**NEW, "facing": NEW["pre_first"]}
POOLED = {"pre_first", "facing"}


@pytest.mark.parametrize("settings, kept", [
    ([], {CALLERS, PLAYERS}),  # seat_prior's default 5: the players' tables, not the pool
    (["seat_prior_phase=1"], {CALLERS, PLAYERS, SEEN_BY_LIVE, PLAYERS_BY_LIVE}),
    (["seat_prior=0"], POOLED),
    (["seat_prior=0", "call_prior=10"], POOLED | {CALLERS}),
    (["seat_prior=0", "call_prior=10", "seat_prior_phase=1"], POOLED | {CALLERS, SEEN_BY_LIVE}),
])
def test_only_the_read_parts_are_kept_and_the_bot_plays_as_with_the_whole_prior(settings, kept):
    config = SPEC.config_from([f"read_prior={json.dumps(WHOLE)}", "samples=30", *settings])
    trimmed = replace(config, read_prior=prior_in_use(config))
    assert set(json.loads(trimmed.read_prior)) == kept
    assert play(config).history == play(trimmed).history


def play(config):
    others = ("aggressive", "montecarlo", "station")  # made afresh for each game: their RNGs start alike
    return play_game([BotSeat(SPEC.make(config)), *(BotSeat(BOTS[b].make()) for b in others)], seed=5,
                     config=GameConfig(players=4))


def test_the_export_embeds_the_trimmed_prior_and_is_shorter():
    config = SPEC.config_from([f"read_prior={json.dumps(WHOLE)}"])
    whole = submission_source(SPEC, config)
    assert repr(prior_in_use(config)) in whole  # the config's repr carries the trimmed text
    phased = submission_source(SPEC, replace(config, seat_prior_phase=1.0))
    assert len(whole) < len(phased)
    assert prior_in_use(replace(config, read_prior="")) == ""  # no prior: nothing to trim
    # the games above would match trivially if the prior changed nothing: it does
    samples = replace(config, samples=30)
    assert play(samples).history != play(replace(samples, read_prior="")).history
