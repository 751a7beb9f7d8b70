"""The clone's situation parts that follow a player's line within a hand (issue 27): the made hand its
cards take part in, raise sizes kept by situation, and the backoff level the made hand adds."""

from types import SimpleNamespace

from bots.cg_holdem.clone import CLASSES, FOLD, PASSIVE, RAISE, Line, all_situations, levels, made, size_keys
from flows.opponents.cg_holdem import Decision, _orders, _sizes, tables


def card(rank: int, suit: int) -> int:
    return suit * 13 + rank  # the referee's numbering: rank 0 is a deuce


def view(cards, board):
    return SimpleNamespace(preflop=not board, turn=SimpleNamespace(cards=tuple(cards), board=tuple(board)))


def test_made_counts_only_hands_my_cards_improve():
    board = [card(12, 0), card(12, 1), card(3, 2)]  # a pair of aces on the board
    assert made(view([card(0, 3), card(5, 3)], board)) == 0  # the board's pair alone is nothing
    assert made(view([card(3, 3), card(5, 3)], board)) == 2  # my four pairs the board: two pair, the category
    assert made(view([card(7, 0), card(5, 3)], [card(7, 1), card(9, 2), card(2, 3)])) == 1
    assert made(view([card(7, 0), card(9, 3)], [card(7, 1), card(9, 2), card(2, 3)])) == 2  # two pair
    assert made(view([card(7, 0), card(7, 3)], [card(7, 1), card(9, 2), card(2, 3)])) == 2  # trips kept with it
    assert made(view([card(7, 0), card(7, 3)], [])) == 0  # preflop: strength says it all


def test_situation_keys_and_levels_agree():
    keys = all_situations()
    assert len(set(keys)) == len(keys)
    flop = [k for k in keys if k.startswith("1|")]
    assert {k.split("|")[3] for k in flop} == {"0", "1", "2"}
    assert {k.split("|")[3] for k in keys if k.startswith("0|")} == {"0"}
    chain = levels("2|3|5|1|1|2|1")  # a model fitted before the line part
    assert chain == ("2|3", "2|3|5", "2|3|5|1", "2|3|5|1|1|2|1")
    # the line right after street|facing: facing a re-raise is apart from an open raise at the same pot odds
    assert levels("2|3|5|1|1|2|0|21") == ("2|3", "2|3|21", "2|3|21|5", "2|3|21|5|1", "2|3|5|1|1|2|0|21")
    assert levels("2|3|5|1|1|2|0|21", "line+none") == ("2|3", "2|3|21", "2|3|21|5", "2|3|5|1|2|0|21")  # no made
    assert levels("2|3|5|1|1|2|0|21", "first") == chain[:3] + ("2|3|5|1|1|2|0",)  # no line: as a key without one
    assert levels("0|3|5|0|1|2|0|2") == ("0|3", "0|3|2", "0|3|2|5", "0|3|5|1|2|0|2")
    assert {k.split("|")[7] for k in keys if k.startswith("0|0|")} == {"0"}  # nothing to call: no raise faced
    assert {k.split("|")[7] for k in keys if k.startswith("0|3|")} == {"0", "1", "2"}
    assert {k.split("|")[7] for k in keys if k.startswith("1|0|")} == {"00", "01"}
    assert {k.split("|")[7] for k in keys if k.startswith("3|2|")} == {"10", "11", "20", "21"}


def test_line_follows_the_raises_of_the_hand_and_street():
    line = Line()
    line.add(1, 0, 0, "BET_30")  # seat 0 opens
    assert line.part(1, 0, True) == "1"
    line.add(1, 1, 0, "BET_90")  # seat 1 re-raises: seat 0 faces two raises, at whatever pot odds
    assert line.part(0, 0, True) == "2"
    line.add(1, 0, 0, "CALL")
    assert line.part(1, 1, False) == "01" and line.last == 1  # the flop: both raised preflop, seat 1 last
    line.add(1, 1, 1, "CHECK")
    line.add(1, 0, 1, "ALL-IN")  # an all-in is a raise
    assert line.part(1, 1, True) == "11" and line.last == 0
    line.add(2, 0, 0, "CALL")  # the next hand starts clean
    assert line.part(1, 0, False) == "0" and line.last == -1
    line.add(2, 1, 0, "CHECK")
    assert line.part(1, 1, False) == "00"  # nobody raised preflop


def test_size_keys_go_from_the_whole_situation_to_the_street_group():
    assert size_keys("2|3|5|1|1|2|1") == ("1|1|1|5", "1|1|1", "1|1", "1|5", "1")
    assert size_keys("0|0|4|0|1|3|0") == ("0|0|0|4", "0|0|0", "0|0", "0|4", "0")
    # with the line, an open raise's sizes are apart from a re-raise's first
    assert size_keys("0|3|4|0|1|3|0|2") == ("0|1|L2|0|4", "0|1|L2|0", "0|1|L2", "0|1|0|4", "0|1|0", "0|1", "0|4",
                                            "0")


def _decision(key: str, cls: str, size: float | None = None) -> Decision:
    return Decision(True, False, key, CLASSES.index(cls), (True,) * len(CLASSES), key.startswith("0|"), size)


def test_sizes_are_kept_apart_by_opening_or_raising():
    rows = [_decision("1|0|5|1|1|2|1", RAISE, 0.6)] * 6 + [_decision("1|2|5|2|1|2|0", RAISE, 1.0)] * 6
    rows += [_decision("1|2|?|?|1|2|0", RAISE, 2.0)]  # cards never shown: only where the cards are no part
    sizes = _sizes(rows)
    assert sizes["1|0|1|5"] == [0.6] * 6 and sizes["1|1|2"] == [1.0] * 6
    assert sizes["1|1"] == [1.0] * 6 + [2.0] and sorted(sizes["1"]) == [0.6] * 6 + [1.0] * 6 + [2.0]
    assert "1|?" not in sizes and not any("?" in k for k in sizes)


def test_model_tells_a_pair_from_nothing_at_the_same_strength():
    # a player that folds to a bet without a made hand and calls with a pair, at one equity band
    rows = [_decision("1|2|4|0|1|2|0|10", FOLD)] * 40 + [_decision("1|2|4|1|1|2|0|10", PASSIVE)] * 40
    player, _ = tables(rows, rows)
    assert player["1|2|4|0|1|2|0|10"][CLASSES.index(FOLD)] > 0.8
    assert player["1|2|4|1|1|2|0|10"][CLASSES.index(PASSIVE)] > 0.8


def test_made_hand_is_used_only_where_the_player_follows_it():
    # facing a bet (1|2) the player folds without a made hand and calls with a pair; checked to (1|0) it
    # bets or checks in turn whatever it holds: the made hand's level is chosen for the first spot only
    rows = []
    for i in range(160):
        hand = i % 2
        rows.append(_decision(f"1|2|4|{hand}|1|2|0|10", PASSIVE if hand else FOLD))
        rows.append(_decision(f"1|0|4|{hand}|1|2|0|00", RAISE if (i // 2) % 2 else PASSIVE, 0.5))
    order = _orders(rows)
    assert order["1|2"] != "none" and order["1|0"] == "none"
    player, _ = tables(rows, rows, order)
    assert player["1|2|4|0|1|2|0|10"][CLASSES.index(FOLD)] > 0.8
    raises = [player[f"1|0|4|{hand}|1|2|0|00"][CLASSES.index(RAISE)] for hand in (0, 1)]
    assert abs(raises[0] - raises[1]) < 1e-9


def test_line_is_used_only_where_the_player_follows_it():
    # preflop at the same pot odds (band 3) the player raises when nothing was raised and folds to a
    # re-raise; another raises whatever came before: the line's level is chosen for the first only
    follows = [_decision(f"0|3|4|0|1|2|0|{line}", RAISE if line == "0" else FOLD, 1.0) for line in ("0", "2") * 80]
    ignores = [_decision(f"0|3|4|0|1|2|0|{line}", RAISE if i % 2 else FOLD, 1.0) for i, line in
               enumerate(("0", "0", "2", "2") * 40)]
    assert _orders(follows)["0|3"] == "line+none" and _orders(ignores)["0|3"] == "none"
    player, _ = tables(follows, follows, _orders(follows))
    assert player["0|3|4|0|1|2|0|0"][CLASSES.index(RAISE)] > 0.8 and player["0|3|4|0|1|2|0|2"][0] > 0.8
