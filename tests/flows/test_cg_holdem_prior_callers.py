"""The field's callers in the read prior (issue 32, call_prior): watching a logged game counts each seat's answers
to lone first-in all-ins by depth band and its vpip / pfr / fold-to-raise counts as a seated bot counting them
(count_calls, as with call_prior) counts them, and they reach `read_prior` under the player's name."""

import json

from bots.cg_holdem import BOTS
from bots.cg_holdem.ranged import RangedBot, RangedConfig
from bots.cg_holdem.reads import CALLER_STATS, CALLERS, check_prior
from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Game
from flows.opponents.cg_holdem_prior import text, watch


class Counting(RangedBot):
    """A seated bot that counts the answers to lone pushes without reading them (its play is the config's)."""

    def start(self, setup) -> None:
        super().start(setup)
        self.count_calls = True


def test_watching_counts_the_answers_to_pushes_a_seated_bot_counted():
    # steal_postflop off: the play this game was chosen on (it holds enough lone pushes to count; the counting,
    # not the play, is what is tested)
    me = Counting(RangedConfig(samples=40, steal_postflop=0.0))
    names = {0: "ranged", 1: "pushfold", 2: "aggressive"}
    result = play_game([BotSeat(me), BotSeat(BOTS["pushfold"].make()), BotSeat(BOTS["aggressive"].make())], seed=5)
    game, starts = Game(GameConfig(players=3), 5), {}
    for line in result.history:
        starts.setdefault(game.hand_nb, game.start_stacks)
        kind, _, amount = line.action.partition("_")
        game.play(kind, int(amount) if amount else 0)
    counts: dict = {}
    callers: dict = {}
    watch(game, {0, 1, 2}, counts, starts=starts, names=names, callers=callers)
    assert set(callers) == set(names.values())
    assert sum(f for seat in names for f, _ in me.calls[seat]) >= 10  # lone pushes answered, over 4 bands
    for seat, name in names.items():  # the same counts, but for the game's last action, which the bot never saw
        own, watched = me.calls[seat], callers[name]["calls"]
        gap = sum(w[0] - o[0] for w, o in zip(watched, own, strict=True))
        assert all(w[0] >= o[0] and w[1] >= o[1] for w, o in zip(watched, own, strict=True)) and gap <= 1
    theirs = callers["pushfold"]["seen"]
    for stat in CALLER_STATS:  # its preflop frequencies as the seated bot saw them (the last action aside)
        assert 0 <= theirs[stat][0] - me.seen[1].n[stat] <= 1 and theirs[stat][0] >= 10
    prior = text({**counts, CALLERS: callers})
    assert check_prior(prior) is None and json.loads(prior)[CALLERS]["pushfold"] == callers["pushfold"]
