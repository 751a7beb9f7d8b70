"""Each logged player's own action tables in the read prior (issue 32, seat_prior): watching a logged game keeps,
per player, exactly what the watcher counts of that player's seats alone, the players' tables sum to the pooled
ones, and they reach `read_prior` under "players" (a prior without them stays valid)."""

import json

from bots.cg_holdem import BOTS
from bots.cg_holdem.reads import BINS, CALLERS, PLAYERS, check_prior
from engine.cg_holdem.judge import BotSeat, play_game
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Game
from flows.opponents.cg_holdem_prior import text, watch


def test_watching_keeps_each_players_own_tables():
    names = {0: "pushfold", 1: "aggressive", 2: "aggressive", 3: "ranged"}  # two seats of one player
    seats = [BotSeat(BOTS[n].make()) for n in ("pushfold", "aggressive", "aggressive", "pushfold")]
    result = play_game(seats, seed=5)
    game, starts = Game(GameConfig(players=4), 5), {}
    for line in (x for x in result.history if x.hand <= 25):  # its first hands are enough (and fast)
        starts.setdefault(game.hand_nb, game.start_stacks)
        kind, _, amount = line.action.partition("_")
        game.play(kind, int(amount) if amount else 0)
    pooled: dict = {}
    players: dict = {}
    watch(game, {0, 1, 2}, pooled, starts=starts, names=names, callers={}, players=players)
    assert set(players) == {"pushfold", "aggressive"}  # the watched seats' players only, not seat 3's
    for player, mine in (("pushfold", {0}), ("aggressive", {1, 2})):
        alone: dict = {}
        watch(game, mine, alone)
        assert players[player] == alone and sum(x for t in alone.values() for row in t for x in row) > 10
    for key, table in pooled.items():  # the pool is the players' tables summed
        assert all(abs(table[k][b] - sum(p[key][k][b] for p in players.values() if key in p)) < 1e-9
                   for k in range(3) for b in range(BINS))
    prior = json.loads(text({**pooled, CALLERS: {}, PLAYERS: players}))
    assert check_prior(json.dumps(prior)) is None and sorted(prior[PLAYERS]) == ["aggressive", "pushfold"]
    del prior[PLAYERS]  # a prior of before (no players) is still valid
    assert check_prior(json.dumps(prior)) is None
