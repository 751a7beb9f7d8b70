"""The final heads-up of 3-4 seat games, in process: who the bot faces there, the stacks in big blinds when
it starts, how often the bot wins it (first against second place) per opponent, and its first-in push/fold
and its calls of shoves against the heads-up equilibrium chart (bots/cg_holdem/pushfold_chart.py).

    python -m bench.cg_holdem.ranged_endgame ranged --against aggressive/style:rules/style:lag --games 100
    python -m bench.cg_holdem.ranged_endgame ranged --against ... --save /tmp/e32/head   # keep the events
    python -m bench.cg_holdem.ranged_endgame --load /tmp/e32/head                       # read them again

Chart checks use the effective stack (the smaller of the two) at the hand's start, in big blinds.
"""

import argparse
from pathlib import Path

import polars as pl

from bench.cg_holdem.ranged_paired import maker, one_line_errors
from bots.cg_holdem.hands import combo_class
from bots.cg_holdem.pushfold_chart import CALL_DEPTH, PUSH_DEPTH
from engine.cg_holdem import judge
from engine.cg_holdem.protocol import parse_card_text

TABLES = ("games", "seats", "hands", "hand_seats", "actions")


def play(candidate: str, against: list[str], *, games: int, seed: int) -> dict[str, pl.DataFrame]:
    log = judge.play_chunk([maker(e) for e in [candidate, *against]], seed=seed, first=0, count=games,
                           names=[candidate, *against])
    ev = log.events.columns
    return {t: pl.DataFrame(dict(ev[t])) for t in TABLES}


def save(tables: dict[str, pl.DataFrame], folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, frame in tables.items():
        frame.write_parquet(folder / f"{name}.parquet")


def load(folder: Path) -> dict[str, pl.DataFrame]:
    return {t: pl.read_parquet(folder / f"{t}.parquet") for t in TABLES}


def _class(cards: str) -> int:
    a, b = (parse_card_text(t) for t in cards.split("_"))
    return combo_class(a, b)


def _kind(action: str, chips: int, behind: int) -> str:
    """'shove' (all in, or at least 90% of the chips the seat had behind), 'raise', 'call', 'check' or 'fold'."""
    if action == "ALL-IN" or (action.startswith("BET") and chips >= 0.9 * behind):
        return "shove"
    if action.startswith("BET"):
        return "raise"
    return {"CALL": "call", "CHECK": "check"}.get(action, "fold")


def endgame(tables: dict[str, pl.DataFrame]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(one row per game whose final two include the bot: the opponent, both stacks in big blinds at the
    heads-up's first hand, its chip share then, hands played and whether the bot won; one row per heads-up
    hand: the bot's preflop spot, its hand's chart depths, its and the opponent's first preflop actions,
    its net chips and big blinds)."""
    games, seats = tables["games"], tables["seats"]
    primary = dict(zip(games["unit"], games["primary_seat"], strict=True))
    position = dict(zip(games["unit"], games["primary_position"], strict=True))
    bot = {(u, s): b for u, s, b in seats.select("unit", "seat", "bot").iter_rows()}
    hands = tables["hands"].filter(~pl.col("cancelled"))
    info = {(u, h): (bb, sb) for u, h, bb, sb in hands.select("unit", "hand", "big_blind", "sb_seat").iter_rows()}
    hs = tables["hand_seats"].filter(pl.col("cards") != "")
    dealt: dict[tuple[int, int], dict[int, tuple]] = {}
    for u, h, s, cards, start, put_in, won in hs.select(
            "unit", "hand", "seat", "cards", "start_stack", "put_in", "won").iter_rows():
        dealt.setdefault((u, h), {})[s] = (cards, start, won - put_in)
    acts: dict[tuple[int, int], list[tuple[int, str, int]]] = {}
    for u, h, s, action, chips, street in tables["actions"].sort("unit", "hand", "round").select(
            "unit", "hand", "seat", "action", "chips", "street").iter_rows():
        if street == 0 and action != "NONE":
            acts.setdefault((u, h), []).append((s, action, chips))
    games_rows, hand_rows = [], []
    for (u, h) in sorted(dealt):
        me, seat_info = primary[u], dealt[(u, h)]
        if len(seat_info) != 2 or me not in seat_info or (u, h) not in info:
            continue
        opp = next(s for s in seat_info if s != me)
        big, sb_seat = info[(u, h)]
        (cards, start, net), (_, opp_start, _) = seat_info[me], seat_info[opp]
        if not games_rows or games_rows[-1]["unit"] != u:
            games_rows.append({"unit": u, "opponent": bot[(u, opp)], "start_hand": h, "my_bb": start / big,
                               "opp_bb": opp_start / big, "share": start / (start + opp_start), "hands": 0,
                               "won": position[u] == 1})
        games_rows[-1]["hands"] += 1
        eff, cls = min(start, opp_start) / big, _class(cards)
        first = {}
        for s, action, chips in acts.get((u, h), []):
            first.setdefault(s, _kind(action, chips, seat_info[s][1]))
        line = [(s, _kind(a, c, seat_info[s][1])) for s, a, c in acts.get((u, h), [])]
        opp_shoved_first = next((k for s, k in line if s == opp), None) == "shove" or any(
            s == opp and k == "shove" for s, k in line[:2])
        hand_rows.append({"unit": u, "hand": h, "opponent": bot[(u, opp)], "eff_bb": eff, "chips": net,
                          "net_bb": net / big, "sb": me == sb_seat, "push_depth": PUSH_DEPTH[cls],
                          "call_depth": CALL_DEPTH[cls], "mine": first.get(me, "none"),
                          "theirs": first.get(opp, "none"), "opp_shoved": opp_shoved_first,
                          "line": " ".join(("M" if s == me else "o") + k for s, k in line)})
    return pl.DataFrame(games_rows), pl.DataFrame(hand_rows)


def _depth(bb: pl.Expr) -> pl.Expr:
    return (pl.when(bb <= 5).then(pl.lit("<=5")).when(bb <= 10).then(pl.lit("5-10"))
            .when(bb <= 15).then(pl.lit("10-15")).otherwise(pl.lit(">15")))


def report(tables: dict[str, pl.DataFrame]) -> None:
    games, hands = endgame(tables)
    n = tables["games"].height
    print(f"{n} games, the bot in the final heads-up in {games.height}")
    if games.is_empty():
        return
    with pl.Config(tbl_rows=60, fmt_str_lengths=60, tbl_hide_dataframe_shape=True):
        # a heads-up between equals is won about in proportion to the chips: the share is the par to beat
        print(games.group_by("opponent").agg(
            games=pl.len(), won=pl.col("won").sum(), win_rate=pl.col("won").mean().round(3),
            chip_share=pl.col("share").mean().round(3), my_bb=pl.col("my_bb").median().round(1),
            opp_bb=pl.col("opp_bb").median().round(1), hands=pl.col("hands").mean().round(1)).sort("opponent"))
        spots = hands.with_columns(seat=pl.when(pl.col("sb")).then(pl.lit("SB")).otherwise(pl.lit("BB")),
                                   depth=_depth(pl.col("eff_bb")))
        print(spots.group_by("opponent", "seat").agg(
            hands=pl.len(), chips=pl.col("chips").sum(), net_bb=pl.col("net_bb").sum().round(1))
              .sort("opponent", "seat"))
        sb = spots.filter(pl.col("sb"))
        print("bot first in (SB) against the chart's push:")
        print(sb.with_columns(chart_push=pl.col("push_depth") >= pl.col("eff_bb")).group_by(
            "depth", "chart_push", "mine").agg(hands=pl.len(), net_bb=pl.col("net_bb").sum().round(1))
            .sort("depth", "chart_push", "mine"))
        bb = spots.filter(~pl.col("sb") & (pl.col("theirs") == "shove"))
        print("bot facing the opponent's first-in shove (BB) against the chart's call:")
        print(bb.with_columns(chart_call=pl.col("call_depth") >= pl.col("eff_bb")).group_by(
            "opponent", "chart_call", "mine").agg(hands=pl.len(), net_bb=pl.col("net_bb").sum().round(1))
            .sort("opponent", "chart_call", "mine"))
        print("the opponent first in (bot BB), by depth:")
        print(spots.filter(~pl.col("sb")).group_by("opponent", "depth", "theirs").agg(
            hands=pl.len(), net_bb=pl.col("net_bb").sum().round(1)).sort("opponent", "depth", "theirs"))
        print("the bot's lines, biggest losses (bb):")
        print(spots.group_by("opponent", "seat", "line").agg(hands=pl.len(), net_bb=pl.col("net_bb").sum().round(1))
              .sort("net_bb").head(15))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", nargs="?", help="bot entry (as ranged_paired takes it); not with --load")
    ap.add_argument("--against", default="aggressive/style:rules/style:lag", help="opponents separated by '/'")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--save", type=Path, help="write the events here (parquet)")
    ap.add_argument("--load", type=Path, help="read saved events instead of playing")
    args = ap.parse_args(argv)
    if args.load:
        tables = load(args.load)
    else:
        if not args.candidate:
            ap.error("a candidate, or --load FOLDER")
        with one_line_errors(ap):
            tables = play(args.candidate, [a for a in args.against.split("/") if a], games=args.games, seed=args.seed)
        if args.save:
            save(tables, args.save)
    report(tables)


if __name__ == "__main__":
    main()
