"""The read prior's counts split by the stacks live (issue 32, seat_prior_phase): watching a logged game keeps, per
player, its vpip / pfr / fold-to-raise counts and its own tables apart for hands begun with two live stacks and with
three or four; the phases sum to the pooled counts, each phase holds exactly its hands' actions, and they reach
`read_prior` as "seen_by_live" / "players_by_live" (a prior without them stays valid)."""

import json
from functools import cache

from bots.cg_holdem import BOTS
from bots.cg_holdem.reads import BINS, CALLER_STATS, CALLERS, PLAYERS, PLAYERS_BY_LIVE, SEEN_BY_LIVE, check_prior
from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Game
from flows.opponents.cg_holdem_prior import text, watch

NAMES = {0: "pushfold", 1: "aggressive", 2: "aggressive", 3: "ranged"}
SPLIT = 8  # hands after it are marked as begun with two live stacks


@cache
def history() -> tuple:
    seats = [BotSeat(BOTS[n].make()) for n in ("pushfold", "aggressive", "aggressive", "pushfold")]
    return tuple(play_game(seats, seed=5).history)


def replayed(last: int):
    """A four-seat game's first ``last`` hands replayed, and each hand's stacks before the blinds with two of them
    zeroed after SPLIT (the watcher's phase comes from those stacks alone)."""
    game, starts = Game(GameConfig(players=4), 5), {}
    for line in (x for x in history() if x.hand <= last):
        starts.setdefault(game.hand_nb, game.start_stacks)
        kind, _, amount = line.action.partition("_")
        game.play(kind, int(amount) if amount else 0)
    starts = {h: tuple(x if h <= SPLIT or s in (0, 1) else 0 for s, x in enumerate(c)) for h, c in starts.items()}
    return game, starts


def counted(last: int, by_live=None):
    game, starts = replayed(last)
    pooled, callers, players = {}, {}, {}
    watch(game, {0, 1, 2}, pooled, starts=starts, names=NAMES, callers=callers, players=players, by_live=by_live)
    return pooled, callers, players


def test_the_phases_split_each_players_counts():
    by_live: dict = {}
    pooled, callers, players = counted(16, by_live)
    assert sorted(by_live[SEEN_BY_LIVE]) == ["2", "3-4"] and sorted(by_live[PLAYERS_BY_LIVE]) == ["2", "3-4"]
    _, early_callers, early_players = counted(SPLIT)  # hands 1-12 alone: the three-four phase
    for p in ("pushfold", "aggressive"):
        four, two = by_live[SEEN_BY_LIVE]["3-4"][p], by_live[SEEN_BY_LIVE]["2"][p]
        assert four == early_callers[p]["seen"] and two[CALLER_STATS[0]][0] > 0
        assert all(four[k][i] + two[k][i] == callers[p]["seen"][k][i] for k in CALLER_STATS for i in (0, 1))
        assert by_live[PLAYERS_BY_LIVE]["3-4"][p] == early_players[p]
        for key, t in players[p].items():  # the phases' tables sum to the player's own
            parts = [by_live[PLAYERS_BY_LIVE][ph][p].get(key) for ph in ("2", "3-4")]
            assert all(abs(t[k][b] - sum(x[k][b] for x in parts if x)) < 1e-9 for k in range(3) for b in range(BINS))
    prior = json.loads(text({**pooled, CALLERS: callers, PLAYERS: players, **by_live}))
    assert check_prior(json.dumps(prior)) is None and sorted(prior[SEEN_BY_LIVE]["2"]) == ["aggressive", "pushfold"]
    for key in (SEEN_BY_LIVE, PLAYERS_BY_LIVE):  # a prior of before (no phases) is still valid
        del prior[key]
    assert check_prior(json.dumps(prior)) is None


def test_without_by_live_nothing_changes():
    plain = counted(16)
    assert counted(16, {}) == plain  # asking for the split leaves the pooled counts as they were
