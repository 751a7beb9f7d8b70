"""bench/cg_holdem/oracle_headroom.py (issue 32): the ranged bot with exact equity against the opponents' actual cards
in one part of its decisions. The oracle's equity is the exact one against the known hands; the parts it does not
cover keep the bot's own equity; the cards it learns are the game's; the tool's wrapper changes no play."""

from itertools import combinations

import pytest

from bench.cg_holdem.oracle_headroom import (
    PARTS,
    PREFLOP_PCT,
    DealtCards,
    OracleBot,
    game_seed,
    oracle_part,
    places,
    play_units,
)
from bench.cg_holdem.ranged_paired import maker
from bots.cg_holdem.hands import CLASS_PCT, COMBO_CLASS, COMBOS, above, combo_index
from bots.cg_holdem.pure_eval import value7
from bots.cg_holdem.ranged import RangedBot, RangedConfig
from bots.cg_holdem.strategies import View
from engine.cg_holdem import judge
from engine.cg_holdem.protocol import Setup, Turn, seat_cards_text
from engine.core.cards import parse_card_name
from engine.core.errors import UnknownName


def cards(*names: str) -> tuple[int, ...]:
    return tuple(parse_card_name(n) for n in names)


class Known:
    """A DealtCards stand-in for a hand-made spot: the hands it was given."""

    def __init__(self, holes):
        self.given = holes

    def holes(self, turn, me):
        return self.given


def bot(part: str | None, holes: dict, players: int, knows: str = "cards", **config):
    """The oracle for ``part`` (None: the ranged bot itself) seated at 0, started, its game key 5."""
    c = RangedConfig(**config)
    b = RangedBot(c) if part is None else OracleBot(c, part, Known(holes), knows)
    b.start(Setup(10, 20, 10, 2, 4800 // players, 0, players, 0))
    b.new_game(5)
    if part is not None:
        b.holes = holes
    return b


def view_of(b, turn) -> View:
    return View(b.setup, turn, set())


def exact(mine, board, others) -> float:
    """My pot share over every board completion, the others' hands fixed."""
    dead = set(mine) | set(board) | {c for h in others for c in h}
    total, n = 0.0, 0
    for run in combinations([c for c in range(52) if c not in dead], 5 - len(board)):
        full = [*board, *run]
        me = value7([*mine, *full])
        values = [value7([*h, *full]) for h in others]
        n += 1
        if me >= max(values):
            total += 1.0 / (1 + sum(v == me for v in values))
    return total / n


# heads-up river: top pair against the straight it cannot see; the opponent is all in for more than my stack
RIVER_ME, RIVER_BOARD, RIVER_OPP = cards("Kh", "Qd"), cards("Ks", "9c", "8d", "7h", "2s"), cards("Jh", "Tc")
RIVER_ALLIN = Turn(9, 1, (400, 0), (200, 600), RIVER_BOARD, RIVER_ME, (), (), ("CALL", "FOLD"))
RIVER_CHECKED = Turn(9, 1, (600, 300), (200, 200), RIVER_BOARD, RIVER_ME, (), (), ("CHECK", "BET_20", "ALL-IN"))
PREFLOP = Turn(1, 1, (2390, 2380), (10, 20), (), RIVER_ME, (), (), ("CALL", "BET_40", "ALL-IN", "FOLD"))


def test_the_river_equity_is_the_exact_one_and_the_all_in_call_follows_it():
    holes = {1: RIVER_OPP}
    assert exact(RIVER_ME, RIVER_BOARD, [RIVER_OPP]) == 0.0
    own = bot(None, {}, 2).range_equity(view_of(bot(None, {}, 2), RIVER_ALLIN))
    assert own > 0.6  # against all hands top pair is ahead: the bot calls
    oracle = bot("all", holes, 2)
    assert oracle.range_equity(view_of(oracle, RIVER_ALLIN)) == 0.0
    # the call of the all-in, by part: the river is postflop and an all-in valuation
    decisions = {part: bot(part, holes, 2).act(RIVER_ALLIN) for part in PARTS}
    assert bot(None, {}, 2).act(RIVER_ALLIN) == "CALL"
    assert decisions == {"none": "CALL", "all": "FOLD", "pre": "CALL", "post": "FOLD", "allin": "FOLD", "flop": "CALL",
                         "turn": "CALL", "river": "FOLD", "post_bet": "FOLD", "post_free": "CALL"}


def test_the_turn_equity_is_the_exact_one_within_monte_carlo_error():
    # a flush and straight draw against two sets: exactly 10 rivers of 42 win
    mine, board = cards("Ah", "Kh"), cards("Qh", "Jh", "2c", "3d")
    opp = {1: cards("Qc", "Qd"), 2: cards("Jc", "Jd")}
    truth = exact(mine, board, list(opp.values()))
    assert truth == pytest.approx(10 / 42)
    turn = Turn(9, 1, (1000, 1000, 1000), (100, 100, 100), board, mine, (), (), ("CHECK", "BET_20", "ALL-IN"))
    samples = 4000
    oracle = bot("all", opp, 3, samples=samples)
    got = oracle.range_equity(view_of(oracle, turn))
    bound = 4.5 * (truth * (1 - truth) / samples) ** 0.5  # 4.5 standard errors of the sampled rivers
    assert abs(got - truth) < bound
    own = bot(None, {}, 3, samples=samples)
    assert own.range_equity(view_of(own, turn)) - truth > 0.15  # the ranges' answer is far from it


def test_the_parts_it_does_not_cover_keep_the_bots_own_equity():
    holes = {1: RIVER_OPP}

    def equity(part, turn):
        b = bot(part, holes, 2)
        return b.range_equity(view_of(b, turn))

    for turn, outside, inside in ((PREFLOP, ("post", "river", "post_free"), ("pre",)),
                                  (RIVER_CHECKED, ("pre", "flop", "turn", "post_bet"), ("post", "river", "post_free"))):
        for part in outside:  # the same generator, the same draws: the same figure
            assert equity(part, turn) == equity(None, turn)
        for part in inside:
            assert equity(part, turn) != equity(None, turn)
        assert equity("allin", turn) == equity(None, turn)  # not an all-in valuation
        assert equity("none", turn) == equity(None, turn)
    assert equity("all", RIVER_CHECKED) == 0.0


def test_a_calling_range_given_keeps_a_hand_outside_it_and_takes_one_inside():
    top = [above(CLASS_PCT[c], 0.9, 0.02) + 1e-4 for c in COMBO_CLASS]  # _push_value's top 10% of all hands
    turn = Turn(1, 1, (1590, 1580, 1600), (10, 20, 0), (), cards("Td", "Tc"), (), (),
                ("CALL", "BET_40", "ALL-IN", "FOLD"))

    def equity(part, hole, ranges):
        b = bot(part, {1: hole, 2: cards("3c", "4d")}, 3)
        return b.range_equity(view_of(b, turn), [1], ranges)

    aces, junk = cards("As", "Ad"), cards("7s", "2d")
    one_hot = {1: [1.0 if c == (aces[0], aces[1]) else 0.0 for c in COMBOS]}
    assert equity("all", aces, {1: top}) == equity(None, aces, one_hot)  # in the range: the actual hand
    assert equity("all", aces, {1: top}) != equity(None, aces, {1: top})
    assert equity("all", junk, {1: top}) == equity(None, junk, {1: top})  # outside: the range as given
    # the re-steal's opener: its calling range is cut from its narrowed range, not from all hands
    b = bot("all", {1: aces}, 3)
    b.ranges[1] = [0.1] * len(COMBOS)
    b.aggressor = 1
    narrowed = [x * 0.1 for x in top]
    assert not b._calls_with(1, narrowed, aces)
    b.resteal = True
    assert b._calls_with(1, narrowed, aces) and not b._calls_with(1, narrowed, junk)


def test_the_re_steal_marks_its_opener_for_the_calling_range(monkeypatch):
    monkeypatch.setattr(RangedBot, "_resteals", lambda self, view: self.resteal)  # what it sees inside
    b = bot("all", {}, 3)
    assert b._resteals(None) is True and b.resteal is False


def test_the_all_in_part_covers_the_push_value():
    turn = Turn(1, 1, (390, 2380, 2400), (0, 10, 20), (), cards("9d", "8d"), (), (),
                ("CALL", "BET_40", "ALL-IN", "FOLD"))
    holes = {1: cards("As", "Ad"), 2: cards("3c", "4d")}
    callers = [(1, 0.3, None), (2, 0.1, None)]

    def value(part):
        b = bot(part, holes, 3)
        return b._push_value(view_of(b, turn), callers)

    assert value("allin") == value("all") == value("pre")
    assert value("allin") != value(None) and value("post") == value(None) == value("none")


def test_the_cards_it_learns_are_the_games_and_a_wrong_seed_is_refused(monkeypatch):
    lineup, seed = ["oracle:none", "aggressive", "pushfold", "aggressive"], 5
    learned = []
    real = DealtCards.holes

    def spy(self, turn, me):
        found = real(self, turn, me)
        learned.append((turn.hand, found))
        return found

    monkeypatch.setattr(DealtCards, "holes", spy)
    log = play_units(lineup, seed=seed, first=0, count=1)[0]
    rows = log.events.columns["hand_seats"]
    dealt = {(h, s): c for h, s, c in zip(rows["hand"], rows["seat"], rows["cards"], strict=True)}
    assert len({h for h, _ in learned}) > 10
    for hand, found in learned:
        assert len(found) > 1
        for s, hole in found.items():
            assert seat_cards_text([hole]) == dealt[(hand, s)]
    monkeypatch.setattr(DealtCards, "holes", real)
    hand, found = learned[0]
    assert hand == 1  # all four live: the turn below is that hand's as the oracle saw it
    turn = Turn(1, hand, (1200,) * 4, (0,) * 4, (), found[0], (), (), ())
    assert DealtCards(game_seed(seed, 0, 4), 4).holes(turn, 0) == found
    with pytest.raises(RuntimeError, match="dealing order"):
        DealtCards(game_seed(seed + 1, 0, 4), 4).holes(turn, 0)


def test_the_wrapper_changes_no_play():
    rest, seed = ["aggressive"], 5  # heads-up: a short game (the four-seat dealing is the test above's)
    plain = judge.play_chunk([maker("ranged"), *[maker(e) for e in rest]], seed=seed, first=0, count=1)
    for entry in ("ranged", "oracle:none"):
        log = play_units([entry, *rest], seed=seed, first=0, count=1)[0]
        assert list(log.payoffs) == list(plain.payoffs)
        for column in ("round", "seat", "action", "chips"):
            assert list(log.events.columns["actions"][column]) == list(plain.events.columns["actions"][column])


def test_entries_and_places():
    assert oracle_part("oracle:allin") == ("allin", "cards") and oracle_part("ranged") is None
    assert oracle_part("oracle:post:decile") == ("post", "decile")
    assert oracle_part("oracle:all:half") == ("all", "half")
    for wrong in ("oracle:preflop", "oracle:all:suit"):
        with pytest.raises(UnknownName):
            oracle_part(wrong)
    assert places([1.0, 2 / 3, 0.0, 1.0], 4) == [2, 1, 0, 1]


def test_the_decile_oracle_holds_the_range_cut_to_the_actual_hands_strength_decile():
    holes = {1: RIVER_OPP}
    b = bot("all", holes, 2, knows="decile")
    view = view_of(b, RIVER_CHECKED)
    b.ranges[1] = [0.0 if i % 2 else 0.5 for i in range(len(COMBOS))]  # a narrowed range, the actual hand out of it
    weights = b._known(view, 1, RIVER_OPP, None)
    q = b._table(RIVER_BOARD)
    kept = [i for i, x in enumerate(weights) if x > 0]
    assert weights[combo_index(*RIVER_OPP)] > 0 and all(q[i] >= 0.9 for i in kept)  # the straight: the top decile
    assert {weights[i] for i in kept} == {0.5, 1e-5}  # the bot's own weights there, none dropped
    assert 1 < len(kept) < 120  # more than the hand, far less than the range
    own = bot(None, {}, 2).range_equity(view_of(bot(None, {}, 2), RIVER_CHECKED))
    assert b.range_equity(view) < own - 0.3  # every top-decile hand beats top pair here
    pre = bot("all", {1: cards("As", "Ad")}, 2, knows="decile")
    top = [i for i, x in enumerate(pre._known(view_of(pre, PREFLOP), 1, cards("As", "Ad"), None)) if x > 0]
    assert all(PREFLOP_PCT[i] >= 0.9 for i in top) and len(top) > 50
    pre = bot("all", {1: cards("As", "Ad")}, 2, knows="tercile")
    third = [i for i, x in enumerate(pre._known(view_of(pre, PREFLOP), 1, cards("As", "Ad"), None)) if x > 0]
    assert all(PREFLOP_PCT[i] >= 2 / 3 for i in third) and 3 * len(top) < len(third) < 0.4 * len(COMBOS)
