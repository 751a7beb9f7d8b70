"""Where a bot's chips go, heads-up or at 3-4 seats, in process: its net chips per hand in big blinds, summed by how
hands end (who folded on which street, or a showdown), by position (small blind / big blind) and by
the players' lines (their aggressive and passive actions per street), over the same games
ranged_paired plays. With 3-4 seats (opponents separated by '/') the position is BB, SB, BTN or EP
(earlier) and ``dealt`` counts the players dealt into the hand; ``chips`` is the net in chips and ``level``
the blind level (hand // 10), summed by level and players dealt in at 3-4 seats. There each hand also names
``opener`` (the line-up entry, ``i:NAME``, that raised first preflop before the bot acted, else ``none``), ``answer``
(the bot's first preflop action) and ``taker`` (the entry that won the most chips in the hand): where the bot's
losses go and how it answers each opponent's opens.

    python -m bench.cg_holdem.ranged_leaks --against aggressive --games 100 ranged
    python -m bench.cg_holdem.ranged_leaks --against style:lag --games 100 ranged@HEAD --top 15
    python -m bench.cg_holdem.ranged_leaks --against aggressive/style:rules/style:lag --games 100 ranged

A hand's line is written per street (p, f, t, r) as the actions in order, the bot's in capitals:
B bet or raise, C call, K check, F fold, A all-in; e.g. ``p:Bc f:kB`` is a preflop raise called, then
a flop where the opponent checked and the bot bet. Cancelled hands are left out.
"""

import argparse

import polars as pl

from bench.cg_holdem.ranged_paired import maker, one_line_errors
from engine.cg_holdem import judge
from engine.cg_holdem.rules import HANDS_PER_LEVEL

STREETS = "pftr"


def _letter(action: str) -> str:
    if action.startswith("BET"):
        return "B"
    return {"ALL-IN": "A", "CALL": "C", "CHECK": "K", "FOLD": "F", "TIMEOUT": "F"}.get(action, "?")


def hand_rows(candidate: str, against: list[str], *, games: int, seed: int) -> pl.DataFrame:
    """One row per hand the candidate (line-up member 0) was dealt into: its net chips in big
    blinds, position, how the hand ended and both lines; ``won`` is the game's finish score."""
    entries = [candidate, *against]
    log = judge.play_chunk([maker(e) for e in entries], seed=seed, first=0, count=games,
                           names=["me", *(f"{i}:{e}" for i, e in enumerate(against, 1))])
    ev = log.events.columns
    name = dict(zip(zip(ev["seats"]["unit"], ev["seats"]["seat"], strict=True), ev["seats"]["bot"], strict=True))
    primary = dict(zip(ev["games"]["unit"], ev["games"]["primary_seat"], strict=True))
    payoff = dict(zip(range(games), log.payoffs, strict=True))
    hands = pl.DataFrame(dict(ev["hands"])).filter(~pl.col("cancelled"))
    seats = pl.DataFrame(dict(ev["hand_seats"]))
    acts = pl.DataFrame(dict(ev["actions"])).sort("unit", "hand", "round")
    lines: dict[tuple[int, int], list[list[str]]] = {}
    folder: dict[tuple[int, int], tuple[int, int]] = {}
    opened: dict[tuple[int, int], list[str]] = {}  # [opener, the bot's first preflop action after the open]
    for unit, hand, seat, action, street in acts.select("unit", "hand", "seat", "action", "street").iter_rows():
        if action == "NONE":
            continue
        streets = lines.setdefault((unit, hand), [[], [], [], []])
        letter = _letter(action)
        if street == 0:
            spot = opened.setdefault((unit, hand), ["none", ""])
            if seat == primary[unit] and not spot[1]:
                spot[1] = letter
            if letter in "BA" and spot[0] == "none" and not spot[1]:
                spot[0] = name[(unit, seat)]
        streets[street].append(letter if seat == primary[unit] else letter.lower())
        if letter == "F":
            folder[(unit, hand)] = (seat, street)
    rows = []
    mine = seats.filter(pl.col("seat") == pl.col("unit").replace_strict(primary, default=-1))
    bb = dict(zip(zip(hands["unit"], hands["hand"], strict=True),
                  hands.select("big_blind", "bb_seat", "sb_seat", "dealer", "showdown").iter_rows(), strict=True))
    dealt = {(u, h): n for u, h, n in seats.filter(pl.col("cards") != "").group_by("unit", "hand").len().iter_rows()}
    taker = {(u, h): name[(u, s)] for u, h, s in seats.with_columns(net=pl.col("won") - pl.col("put_in"))
             .sort("net", descending=True).group_by("unit", "hand").first().select("unit", "hand", "seat").iter_rows()}
    for unit, hand, put_in, won, cards in mine.select("unit", "hand", "put_in", "won", "cards").iter_rows():
        if (unit, hand) not in bb or not cards:
            continue
        big_blind, bb_seat, sb_seat, dealer, showdown = bb[(unit, hand)]
        me = primary[unit]
        fold = folder.get((unit, hand))
        if showdown:
            end = "showdown"
        elif fold is None:
            end = "other"
        else:
            end = f"{'I' if fold[0] == me else 'they'} fold {STREETS[fold[1]]}"
        line = " ".join(f"{STREETS[k]}:{''.join(s)}" for k, s in enumerate(lines.get((unit, hand), [])) if s)
        rows.append({"unit": unit, "hand": hand, "net_bb": (won - put_in) / big_blind, "chips": won - put_in,
                     "level": hand // HANDS_PER_LEVEL,
                     "position": _position(me, bb_seat, sb_seat, dealer), "end": end, "line": line,
                     "dealt": dealt[(unit, hand)], "game_won": payoff[unit],
                     "opener": opened.get((unit, hand), ["none"])[0], "answer": opened.get((unit, hand), ["", ""])[1],
                     "taker": taker[(unit, hand)]})
    return pl.DataFrame(rows)


def _position(me: int, bb_seat: int, sb_seat: int, dealer: int) -> str:
    # heads-up the dealer posts the small blind, so SB is checked before BTN
    return "BB" if me == bb_seat else "SB" if me == sb_seat else "BTN" if me == dealer else "EP"


def summary(rows: pl.DataFrame, by: list[str], top: int, value: str = "net_bb") -> pl.DataFrame:
    """Net big blinds (or ``value``: chips) summed per group, the biggest losses first."""
    return (rows.group_by(by).agg(hands=pl.len(), **{value: pl.col(value).sum().round(1)},
                                  per_hand=pl.col(value).mean().round(2))
            .sort(value).head(top))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", help="bot entry (as ranged_paired takes it)")
    ap.add_argument("--against", required=True, help="the opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--top", type=int, default=12, help="lines shown, the biggest losses first")
    args = ap.parse_args(argv)
    with one_line_errors(ap):
        rows = hand_rows(args.candidate, [a for a in args.against.split("/") if a], games=args.games, seed=args.seed)
    print(f"{args.candidate} vs {args.against}, seed {args.seed}, {args.games} games: finish score "
          f"{rows.group_by('unit').agg(pl.col('game_won').first())['game_won'].mean():.3f}, "
          f"{len(rows)} hands, net {rows['net_bb'].sum():+.1f} bb")
    with pl.Config(tbl_rows=60, fmt_str_lengths=60, tbl_hide_dataframe_shape=True):
        if rows["dealt"].max() > 2:
            print(summary(rows, ["dealt", "position"], 20))
            # chips, not big blinds: the blinds double every 10 hands, so big blinds hide the later levels' stakes
            print(summary(rows, ["level", "dealt"], 20, "chips").sort("level", "dealt"))
            multi = rows.filter(pl.col("dealt") > 2)
            print(summary(multi.filter(pl.col("net_bb") < 0), ["taker"], 10))  # who takes the bot's losses there
            print(summary(multi, ["opener", "position", "answer"], 60).sort("opener", "position", "answer"))
        print(summary(rows, ["position", "end"], 20))
        print(summary(rows, ["position", "line"], args.top))


if __name__ == "__main__":
    main()
