"""The agent's stdin byte for byte (docs/rules/splendor.md#input-format, a worked example) and stdout token rules."""

from engine.splendor import rules
from engine.splendor import state as st
from engine.splendor.protocol import kibitzes, output_tokens, parse_input, render_input
from engine.splendor.rules import SplendorConfig

EXAMPLE = (
    "2 2\n3\n2 3 4 2 3 5\n35 29 14 23 37\n25 45 61 52 70\n16 88 74 90 81\n3 2 9 5\n"
    "1 0 0 0 0 0\n1 6\n1 -2\n0\n"
    "1 1 0 2 1 0\n0\n0\n0\n"
)


def example_state() -> st.GameState:
    """Seat 1 bought card 6, holds a red chip and a blind level-2 reservation (card 50)."""
    face_up = [[29, 14, 23, 37], [45, 61, 52, 70], [88, 74, 90, 81]]
    used = {c for row in face_up for c in row} | {6, 50}
    piles = [[c for c in range(lo, hi + 1) if c not in used] for lo, hi in rules.LEVEL_RANGES]
    piles = [piles[0][:35], piles[1][:25], piles[2][:16]]
    deal = st.Deal(tuple(tuple(r + p) for r, p in zip(face_up, piles, strict=True)), (2, 9, 5))
    game = st.GameState.new(deal, SplendorConfig(players=2))
    game.board = [2, 3, 4, 2, 3, 5]
    one, two = game.players
    one.chips = [1, 0, 0, 0, 0, 0]
    one.cards = [6]
    one.bonus[rules.CARDS[6].bonus] += 1
    one.reserve = [(50, True)]
    two.chips = [1, 1, 0, 2, 1, 0]
    game.round, game.seat = 3, 1
    return game


def test_worked_example_renders_byte_for_byte():
    assert render_input(st.observe(example_state(), 1)) == EXAMPLE


def test_owner_sees_own_blind_reservation():
    text = render_input(st.observe(example_state(), 0))
    assert text.startswith("2 1\n3\n")
    assert text.split("\n")[9] == "1 50"


def test_parse_then_render_round_trips():
    assert render_input(parse_input(EXAMPLE)) == EXAMPLE
    obs = parse_input(EXAMPLE)
    assert obs.me == 1 and obs.piles == (35, 25, 16) and obs.seats[0].reserved == (-2,)


def test_output_is_split_on_any_whitespace_after_trim():
    assert output_tokens("  1 3\n0\t1 2\r\n") == ["1", "3", "0", "1", "2"]
    assert output_tokens("\n\n") == []


def test_kibitz_lines_need_the_exact_prefix():
    err = "kibitz  sims 400 \nKibitz no\nkibitz\nnoise kibitz x\nkibitz p=0.6\n"
    assert kibitzes(err) == ["sims 400", "p=0.6"]
