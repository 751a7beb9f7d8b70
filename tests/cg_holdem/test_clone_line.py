"""The clone follows a hand's line from the actions its turns report, and must read it exactly as the
fitter reads it from the referee's own record of the hand (issue 27): otherwise the model is fitted
on one situation and played in another."""

import random

from bots.cg_holdem.clone import Line, street_of
from engine.cg_holdem.judge import turn_for
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Game


def _answer(possible: tuple[str, ...], rng: random.Random) -> tuple[str, int]:
    """A random legal action, raising often so that lines with re-raises come up."""
    raises = [p for p in possible if p.startswith("BET_") or p == "ALL-IN"]
    choice = rng.choice(raises) if raises and rng.random() < 0.4 else rng.choice(possible)
    kind, _, amount = choice.partition("_")
    return kind, int(amount) if amount else 0


def test_the_clone_reads_the_line_from_its_turns_as_the_fitter_from_the_referee():
    rng = random.Random(27)
    compared, parts = 0, set()
    seed = 0
    while compared < 1500:  # random play ends games quickly: as many as it takes
        seed += 1
        players = 2 + seed % 3
        game = Game(GameConfig(players=players), seed)
        last_round, seen, lines = [0] * players, [0] * players, [Line() for _ in range(players)]
        while not game.over:
            s = game.to_act
            turn = turn_for(game, s, last_round[s], seen[s])
            last_round[s], seen[s] = game.round, len(game.showdowns)
            for _, hand, player, action, board in turn.actions:  # as CloneBot.act reads them
                lines[s].add(hand, player, street_of(board), action)
            referee = Line()  # as the fitter reads the hand (flows/opponents/cg_holdem.py _replay)
            for _, seat, text, _, street in game.actions:
                referee.add(game.hand_nb, seat, street, text)
            street = street_of(turn.board)
            for line in (lines[s], referee):
                line.at(turn.hand, street)
            for facing in (False, True):
                assert lines[s].part(s, street, facing) == referee.part(s, street, facing), (seed, turn)
            assert lines[s].last == referee.last
            parts.add(referee.part(s, street, True))
            compared += 1
            game.play(*_answer(game.possible_actions(), rng))
    assert {"0", "1", "2", "10", "11", "20", "21"} <= parts  # every line faced came up
