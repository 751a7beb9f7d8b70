"""Whole games: invariants after every turn (property tests), game end and winners, replay."""

import json

from hypothesis import given, settings
from hypothesis import strategies as hs

from bots.splendor import BOTS
from engine.splendor import record
from engine.splendor import state as st
from engine.splendor.agents import InProcessAgent
from engine.splendor.judge import game_deal, play_game, play_match
from engine.splendor.rules import GEM_CHIPS, GOLD_CHIPS, HAND_LIMIT


def check_invariants(game: st.GameState) -> None:
    n = game.n
    for colour in range(6):
        total = game.board[colour] + sum(p.chips[colour] for p in game.players)
        assert total == (GOLD_CHIPS if colour == 5 else GEM_CHIPS[n])
        assert game.board[colour] >= 0
    assert all(0 <= min(p.chips) and sum(p.chips) <= HAND_LIMIT for p in game.players)
    places = [c for row in game.face_up for c in row if c] + [c for pile in game.piles for c in pile]
    for p in game.players:
        places += p.cards + p.reserved_ids()
        assert len(p.reserve) <= 3
        assert p.bonus == [sum(1 for c in p.cards if st.CARDS[c].bonus == k) for k in range(5)]
    assert sorted(places) == list(range(1, 91))
    for level, row in enumerate(game.face_up):  # an empty slot only once the pile is empty
        assert all(st.CARDS[c].level == level + 1 for c in row if c)
        assert 0 not in row or not game.piles[level]
    won = [x for p in game.players for x in p.nobles]
    assert len(set(won + game.nobles)) == len(won) + len(game.nobles)


def random_agents(n):
    return [InProcessAgent(f"r{i}", BOTS["random"].make()) for i in range(n)]


@settings(max_examples=12, deadline=None)
@given(seed=hs.integers(0, 2**32), players=hs.integers(2, 4))
def test_invariants_hold_after_every_turn_of_random_games(seed, players):
    agents = random_agents(players)
    for seat, agent in enumerate(agents):
        agent.new_game(seed * 7 + seat)
    result = play_game(agents, game_deal(seed, 0, players), on_turn=lambda g, _: check_invariants(g))
    assert result.rounds <= 100
    if result.winners:
        assert max(result.scores) >= 15
        best = result.winners[0]
        assert all(result.scores[w] == result.scores[best] and result.cards[w] == result.cards[best]
                   for w in result.winners)
    else:
        assert result.rounds == 100 and max(result.scores) < 15


def test_every_seat_gets_equal_turns_and_the_game_stops_after_the_round():
    result = play_game(random_agents(3), game_deal(5, 0, 3))
    assert len(result.turns) == 3 * result.rounds
    reached = [t.event.round for t in result.turns if t.points >= 15]
    assert reached and min(reached) == result.rounds


class Passer:
    def act(self, obs):
        return "1 0"


def test_passing_forever_hits_the_round_cap_with_no_winner():
    agents = [InProcessAgent("a", Passer()), InProcessAgent("b", Passer())]
    result = play_game(agents, game_deal(1, 0, 2))
    assert result.rounds == 100 and result.winners == () and len(result.turns) == 200


def test_replaying_a_saved_record_reproduces_every_state(tmp_path):
    states = []
    agents = [InProcessAgent("greedy", BOTS["greedy"].make()), InProcessAgent("random", BOTS["random"].make())]
    agents[1].new_game(3)
    result = play_game(agents, game_deal(11, 0, 2), on_turn=lambda g, _: states.append(g.copy()))
    path = record.save_game(result, tmp_path, 1)
    assert path.name == "game-001.json" and path.read_text().count("\n") == 1
    saved = record.load(path)
    assert saved["players"] == ["greedy", "random"] and len(saved["decks"][2]) == 20
    replayed = record.replay(saved)
    assert len(replayed) == len(states) + 1
    for mine, theirs in zip(replayed[1:], states, strict=True):
        assert mine == theirs


def test_match_rotates_seats_and_shares_points(tmp_path):
    agents = [InProcessAgent("g", BOTS["greedy"].make()), InProcessAgent("r", BOTS["random"].make())]
    result = play_match(agents, games=2, seed=3)
    assert [g.names for g in result.games] == [("g", "r"), ("r", "g")]
    total = sum(s.points for s in result.standings)
    assert abs(total - sum(1 for g in result.games if g.winners)) < 1e-9
    assert result.standings[0].name == "g"
    assert json.loads(record.dumps(record.record_of(result.games[0])))["nobles"] == list(result.games[0].deal.nobles)


def test_ctrl_c_keeps_the_games_already_finished():
    class Interrupting(InProcessAgent):
        def new_game(self, key):
            self.games = getattr(self, "games", 0) + 1
            if self.games == 3:
                raise KeyboardInterrupt
            super().new_game(key)

    agents = [Interrupting("g", BOTS["greedy"].make()), InProcessAgent("r", BOTS["random"].make())]
    result = play_match(agents, games=4, seed=3)
    whole = play_match([InProcessAgent("g", BOTS["greedy"].make()), InProcessAgent("r", BOTS["random"].make())],
                       games=2, seed=3)
    assert result.interrupted and len(result.games) == 2
    assert [g.scores for g in result.games] == [g.scores for g in whole.games]
