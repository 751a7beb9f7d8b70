"""bench/cg_holdem/ranged_leaks.py at four seats (issue 32): each hand's row names the bot's seat
role and how many players were dealt in, so the second four-seat table's leaks can be read."""

from bench.cg_holdem.ranged_leaks import _position, hand_rows, summary


def test_seat_roles_heads_up_and_at_four_seats():
    assert _position(1, 1, 0, 0) == "BB"
    assert _position(0, 1, 0, 0) == "SB"  # heads-up the dealer posts the small blind
    assert _position(3, 1, 0, 3) == "BTN"
    assert _position(2, 0, 3, 2) == "BTN"
    assert _position(2, 1, 0, 3) == "EP"


def test_four_seat_rows_carry_roles_and_players_dealt_in():
    rows = hand_rows("ranged", ["station", "pushfold", "station"], games=2, seed=32)
    four = rows.filter(rows["dealt"] == 4)
    assert len(four) > 0
    assert set(four["position"]) == {"BB", "SB", "BTN", "EP"}  # every seat role comes round
    assert rows["dealt"].min() >= 2 and rows["dealt"].max() == 4
    assert set(rows.filter(rows["dealt"] == 2)["position"]) <= {"BB", "SB"}
    by_role = summary(rows, ["dealt", "position"], 20)
    assert by_role["hands"].sum() == len(rows)
    assert abs(by_role["net_bb"].sum() - rows["net_bb"].sum()) < 0.1 * len(by_role)  # each sum rounded to 0.1
    by_level = summary(rows, ["level", "dealt"], 40, "chips")
    assert by_level["chips"].sum() == rows["chips"].sum()  # whole chips: no rounding
    assert (rows["level"] == rows["hand"] // 10).all()


def test_four_seat_rows_name_the_opener_the_bots_answer_and_who_took_the_chips():
    rows = hand_rows("ranged", ["station", "pushfold", "station"], games=2, seed=32)
    entries = {"none", "1:station", "2:pushfold", "3:station"}
    assert set(rows["opener"]) <= entries and len(set(rows["opener"])) > 1
    assert set(rows["taker"]) <= entries - {"none"} | {"me"}
    assert set(rows["answer"]) <= {"", "B", "C", "K", "F", "A"}
    # a hand the bot lost chips in was taken by someone else; one it won, by it, unless pots split at a showdown left
    # another seat more (the taker is the seat that won the most: seen with other play at seed 32, hand 32 of game 1)
    won = rows.filter(rows["net_bb"] > 0)
    assert ((won["taker"] == "me") | (won["end"] == "showdown")).all() and (won["taker"] == "me").any()
    assert (rows.filter(rows["net_bb"] < 0)["taker"] != "me").all()
    # an opponent's open before the bot acted: the bot then had an action to answer it with
    assert (rows.filter(rows["opener"] != "none")["answer"] != "").all()
