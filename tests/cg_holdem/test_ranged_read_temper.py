"""read_temper (issue 32): each seat's guess likelihoods raised to a temperature learned from its shown hands. Off by
default the narrowing is the soft steps' as before; the learning flattens the reads of a seat whose actions are spread
over all strengths and sharpens those of one that acts only with the top; a game replays bit for bit."""

import sys

from bots.cg_holdem import BOTS
from bots.cg_holdem.export import write_submission
from bots.cg_holdem.hands import CLASS_PCT, COMBO_CLASS, above
from bots.cg_holdem.ranged import RangedBot, RangedConfig, step_like
from bots.cg_holdem.reads import Q_GRID, TEMPERS, Temper
from engine.cg_holdem import judge
from engine.cg_holdem.judge import BotSeat, ProgramSeat, play_game
from engine.cg_holdem.protocol import Setup, Turn
from engine.cg_holdem.rules import GameConfig, parse_card_text


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card_text(t) for t in text.split())


def bot(read_temper: float = 0.0) -> RangedBot:
    b = BOTS["ranged"].make(BOTS["ranged"].config_from([f"read_temper={read_temper}", "read_weight=1e9"]))
    b.start(Setup(5, 10, 10, 2, 2400, 1, 2, 0))
    return b


def test_the_steps_are_the_likelihoods_narrowing_used_before():
    # the soft steps as written inline in _narrow before read_temper (2d7b1d7), for every shape
    cut, top = 0.62, 0.9
    before = {
        "pre_raise": lambda q: 0.02 + above(q, cut, 0.04),
        "pre_call": lambda q: 0.04 + above(q, cut, 0.07) * (1 - 0.6 * above(q, top, 0.03)),
        "pre_check": lambda q: 1 - 0.7 * above(q, cut, 0.04),
        "bet": lambda q: 0.04 + above(q, cut, 0.08),
        "call": lambda q: 0.06 + above(q, cut, 0.1) * (1 - 0.5 * above(q, top, 0.05)),
        "check": lambda q: 1 - 0.6 * above(q, cut, 0.06),
    }
    for shape, like in before.items():
        assert all(step_like((shape, cut, top), q) == like(q) for q in [*Q_GRID, *CLASS_PCT])


def test_off_by_default_nothing_is_learned_and_a_raise_narrows_by_the_step_alone():
    b = bot()
    assert RangedConfig().read_temper == 0
    b._observe(1, 1, "BET_30", (), True)
    pfr = b.seen[1].freq("pfr", b.config.prior_weight)  # counted before the range narrows, as _narrow reads it
    step = ("pre_raise", 1 - pfr, 0.0)  # a first raise: the top pfr of hands
    want = [step_like(step, CLASS_PCT[c]) for c in COMBO_CLASS]
    assert b.ranges[1] == want
    assert b.pending[-1][-1] is None  # no step kept for a temperature
    b._learn(1, (cards("AS AH"), cards("KD KC")))
    assert b.tempers[1].n == [0, 0]


def shown(qs, shape: str = "bet", cut: float = 0.7) -> Temper:
    t = Temper(1.0)
    for q in qs:
        t.add(1, lambda x: step_like((shape, cut, 0.0), x), q)
    return t


def test_bets_spread_over_all_strengths_flatten_and_bets_of_the_top_only_sharpen():
    spread = shown([(i + 0.5) / 30 for i in range(30)])  # uniform in q: the bets said nothing
    assert spread.tau(1) < 0.5
    top = shown([0.95 + 0.05 * i / 30 for i in range(30)])  # all far above the cut
    assert top.tau(1) > 2.0
    assert abs(Temper(1.0).tau(1) - 1.0) < 1e-9  # no evidence: the prior's tau 1
    # a strong prior holds the spread bets' evidence near 1
    strong = Temper(50.0)
    strong.scores = spread.scores
    assert spread.tau(1) < strong.tau(1) < 1.0


def test_a_learned_flat_temperature_keeps_weak_hands_in_a_raiser_s_range():
    def ratio(b: RangedBot) -> float:
        b._observe(1, 1, "BET_30", (), True)
        weights = b.ranges[1]
        strong = next(i for i, c in enumerate(COMBO_CLASS) if CLASS_PCT[c] > 0.97)
        weak = next(i for i, c in enumerate(COMBO_CLASS) if CLASS_PCT[c] < 0.2)
        return weights[strong] / weights[weak]

    off, flat = bot(), bot(1.0)
    flat.tempers[1].scores[0] = [-20 * abs(t - TEMPERS[0]) for t in TEMPERS]  # evidence for the flattest tau
    assert flat.tempers[1].tau(0) < 0.4
    assert ratio(flat) < ratio(off) ** 0.5


def test_act_scores_every_shown_non_fold_action_by_its_phase():
    b = bot(2.0)
    history = ((1, 1, 1, "BET_25", ()), (2, 1, 0, "CALL", ()), (3, 1, 1, "BET_30", cards("2C 7D KH")),
               (4, 1, 0, "FOLD", cards("2C 7D KH")))
    showdown = ((1, cards("2C 7D KH"), (cards("AS AH"), cards("7C 2D"))),)
    turn = Turn(5, 2, (2415, 2385), (5, 10), (), cards("KS QS"), history, showdown,
                ("CALL", "ALL-IN", "BET_15", "FOLD"))
    b.act(turn)
    assert b.tempers[1].n == [1, 1]  # its raise and its flop bet; my own call and fold are not read
    assert b.tempers[0].n == [0, 0]


def play(config: RangedConfig, seed: int):
    log = judge.play_chunk([lambda: RangedBot(config), BOTS["aggressive"].make], seed=seed, first=0, count=2)
    a = log.events.columns["actions"]
    return [list(a[c]) for c in ("round", "seat", "action", "chips")], list(log.payoffs)


def test_a_game_with_read_temper_replays_bit_for_bit_and_plays_otherwise_than_off():
    on = RangedConfig(read_temper=1.0)
    first = play(on, 11)
    assert play(on, 11) == first
    assert play(RangedConfig(), 11) != first


def test_the_exported_program_with_read_temper_plays_a_game_without_faults(tmp_path):
    spec = BOTS["ranged"]
    path = write_submission(tmp_path / "ranged.py", spec, spec.config_from(["read_temper=2", "samples=60"]))
    config = GameConfig(players=2, first_turn_ms=5000, turn_ms=1000)
    program = ProgramSeat([sys.executable, str(path)], first_turn_ms=5000, turn_ms=1000)
    result = play_game([program, BotSeat(BOTS["aggressive"].make())], seed=8, config=config)
    assert result.seat_reports[0]["failure"] is None and result.seat_reports[0]["answers"] > 10
    assert "TIMEOUT" not in {h.action for h in result.history}
