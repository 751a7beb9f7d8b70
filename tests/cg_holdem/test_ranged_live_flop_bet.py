"""live_flop_bet (issue 32): at 3-4 live stacks, a flop the bot would check, it bets half the pot at or above that
equity; off by default, and it changes no other decision."""

from bench.cg_holdem.ranged_paired import maker
from bots.cg_holdem import BOTS
from bots.cg_holdem.ranged import RangedConfig
from engine.cg_holdem import judge
from engine.cg_holdem.protocol import parse_output
from engine.cg_holdem.rules import GameConfig
from engine.core.seeds import match_key

OPPONENTS = ["style:tracker", "style:tracker", "aggressive"]


def _answers(config: RangedConfig, unit: int):
    """The ranged seat's (turn, answer) in unit ``unit`` of a four-seat game against the first tracker table."""
    lineup = [lambda: BOTS["ranged"].make(config)] + [maker(o) for o in OPPONENTS]
    seats, seat_of, _, game_seed = judge.unit_seats(lineup, key=match_key(3), unit=unit)
    found = []
    judge.play_game(seats, seed=game_seed, config=GameConfig(players=4),
                    on_turn=lambda s, turn, answer: found.append((turn, answer)) if s == seat_of[0] else None)
    return found


def test_default_is_off():
    assert RangedConfig().live_flop_bet == 0.0


def test_the_first_change_is_a_half_pot_bet_on_a_flop_the_bot_checked_at_3_4_live_stacks():
    changed = 0
    for unit in range(2):
        off, on = _answers(RangedConfig(), unit), _answers(RangedConfig(live_flop_bet=0.3), unit)
        first = next((i for i, (a, b) in enumerate(zip(off, on, strict=False)) if a != b), None)
        if first is None:
            continue
        changed += 1
        turn, was = off[first]
        assert on[first][0] == turn  # the same spot: only the answer differs
        live = sum(1 for a, b in zip(turn.stacks, turn.chips, strict=True) if a + b > 0)
        assert len(turn.board) == 3 and live > 2 and "CHECK" in turn.possible and was == "CHECK"
        least = next(int(p[4:]) for p in turn.possible if p.startswith("BET_"))
        kind, amount, _ = parse_output(on[first][1])
        assert kind == "ALL-IN" or (kind, amount) == ("BET", max(least, int(0.5 * sum(turn.chips))))
    assert changed == 2
