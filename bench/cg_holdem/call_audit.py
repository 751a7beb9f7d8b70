"""The ranged bot's answers to a last bet, valued exactly from the cards shown (issue 32).

Every hand ends with every seat's cards shown, folded ones too. Where the bot faces a bet or raise and a call
would end the betting (on the river; before it, when after the call at most one contender has chips behind),
nothing decides the hand after the call but the cards: on the river the showdown, before it every board that
could come (engine/cg_holdem/luck.py's enumeration, the cards nobody holds). So the chips calling would win over
folding are known for every such spot, folded or called; averaged over the spots the bot folded (or called) they
are an unbiased estimate of what calling is worth there, the opponents' holdings being what they were.

    python -m bench.cg_holdem.call_audit ranged@141a36f --against style:tracker --games 400 --seed 12732 \\
        --save /tmp/d2/tracker
    python -m bench.cg_holdem.call_audit --load /tmp/d2/tracker        # the report again from the saved spots

Per spot: the pot before the call, the call, the bot's own equity estimate at the decision (the last
``range_equity`` value it computed there), its answer (call, fold or raise), the live stacks and the gain of
calling over folding in chips, big blinds and finish score (ICM, luck.finish_value: at 3-4 live stacks chips are
not the score). Before the river, with two or more other contenders left with chips after a fold of mine, the
fold's ICM value takes them to check the hand down (my chips are exact either way); ``others_go_on`` marks those.
"""

import argparse
import math
from pathlib import Path

import numpy as np
import polars as pl

from bench.cg_holdem.ranged_endgame import TABLES, load, save
from bench.cg_holdem.ranged_paired import committed_module, maker, one_line_errors
from engine.cg_holdem import judge
from engine.cg_holdem.luck import board_outcomes, finish_value, settle
from engine.cg_holdem.protocol import parse_card_text

SPOTS = "spots.parquet"


def street(stacks, chips, folded, me: int, board, big_blind: int) -> str | None:
    """'river' or 'all-in' (before the river) when calling the bet I face would end the betting for good, else
    None. ``folded``: the seats out of the hand (folded or not dealt)."""
    top = max(chips)
    call = top - chips[me]
    if call <= 0 or (not board and top <= big_blind):  # nothing to call, or a blind (the big blind keeps its option)
        return None
    others = [s for s in range(len(chips)) if s != me and not folded[s]]
    if any(stacks[s] > 0 and chips[s] < top for s in others):  # someone behind me still answers the bet
        return None
    if len(board) == 5:
        return "river"
    # before the river the call must leave at most one contender with chips behind: nobody can bet again
    return "all-in" if sum(stacks[s] > 0 for s in others) + (stacks[me] > call) <= 1 else None


def spot_value(*, start, put_in, folded, hole, board, dealer: int, me: int, players: int):
    """(chips, finish score) calling gains over folding, exact: the mean over every board completing ``board`` of
    (my net after calling - my net after folding), and of the finish scores the stacks promise (luck.finish_value).
    ``put_in``: chips in the hand now; ``hole[s]`` the seat's cards (None: not dealt); ``folded`` before my answer.
    Also whether two or more others keep chips behind after my fold before the river (the fold's score then takes
    them to check down)."""
    n = len(start)
    call = max(put_in) - put_in[me]
    behind = [a - b for a, b in zip(start, put_in, strict=True)]
    paid = list(put_in)
    paid[me] += min(call, behind[me])
    contenders = [s for s in range(n) if hole[s] is not None and not folded[s]]
    rest = [s for s in contenders if s != me]
    gone = [folded[s] or hole[s] is None for s in range(n)]
    out = list(gone)
    out[me] = True
    dead = {c for h in hole if h is not None for c in h} | set(board)
    outcomes = board_outcomes(np.array([hole[s] for s in contenders]), tuple(board), dead)
    total = chips = score = 0.0
    for places, count in outcomes.items():
        called = settle(start, paid, gone, contenders, places, dealer)
        left = [p for s, p in zip(contenders, places, strict=True) if s != me]
        fold = settle(start, put_in, out, rest, left, dealer)
        chips += count * (called[me] - fold[me])
        score += count * (finish_value(called, paid, me, players) - finish_value(fold, put_in, me, players))
        total += count
    go_on = len(board) < 5 and sum(behind[s] > 0 for s in rest) >= 2
    return chips / total, score / total, go_on


def audited(rev: str, first: int = 0):
    """(a maker of the ranged bot at ``rev`` that records its answers, the records): one record per decision facing
    a bet, with the game's unit (play_chunk makes the primary bot once a game, units in order from ``first``)."""
    module = committed_module(rev)
    records: list[dict] = []
    made = [first - 1]

    class Audited(module.RangedBot):
        def range_equity(self, *args, **kwargs):
            self.last_eq = super().range_equity(*args, **kwargs)
            return self.last_eq

        def act(self, turn):
            self.last_eq = math.nan
            answer = super().act(turn)
            if max(turn.chips) > turn.chips[self.setup.me]:
                records.append({"unit": self.unit, "hand": turn.hand, "stacks": turn.stacks, "chips": turn.chips,
                                "board": turn.board, "folded": tuple(sorted(self.folded)), "answer": answer,
                                "eq": self.last_eq, "me": self.setup.me})
            return answer

    def make():
        made[0] += 1
        bot = Audited(module.RangedConfig())
        bot.unit = made[0]
        return bot

    return make, records


def _kind(answer: str, stack: int, call: int) -> str:
    if answer == "FOLD":
        return "fold"
    if answer == "CALL" or (answer == "ALL-IN" and stack <= call):
        return "call"
    return "raise"


def spots(records: list[dict], tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per recorded decision whose call would end the betting, valued by spot_value."""
    players = dict(zip(tables["games"]["unit"], tables["games"]["players"], strict=True))
    hands = {(u, h): (bb, d) for u, h, bb, d in
             tables["hands"].select("unit", "hand", "big_blind", "dealer").iter_rows()}
    seats: dict[tuple[int, int], dict[int, tuple]] = {}
    for u, h, s, cards, start in tables["hand_seats"].select(
            "unit", "hand", "seat", "cards", "start_stack").iter_rows():
        hole = tuple(parse_card_text(t) for t in cards.split("_")) if cards else None
        seats.setdefault((u, h), {})[s] = (hole, start)
    rows = []
    for r in records:
        unit, hand, me = r["unit"], r["hand"], r["me"]
        big_blind, dealer = hands[(unit, hand)]
        info = seats[(unit, hand)]
        n = len(r["chips"])
        hole = [info[s][0] for s in range(n)]
        folded = [s in r["folded"] or hole[s] is None for s in range(n)]
        board = tuple(r["board"])
        where = street(r["stacks"], r["chips"], folded, me, board, big_blind)
        if where is None:
            continue
        call = max(r["chips"]) - r["chips"][me]
        stack = r["stacks"][me]
        chips, score, go_on = spot_value(start=[info[s][1] for s in range(n)], put_in=r["chips"], folded=folded,
                                         hole=hole, board=board, dealer=dealer, me=me, players=players[unit])
        live = sum(1 for a, b in zip(r["stacks"], r["chips"], strict=True) if a + b > 0)
        pot = sum(r["chips"])
        paid = min(call, stack)
        rows.append({"unit": unit, "hand": hand, "street": where, "board": len(board), "live": live,
                     "contenders": n - sum(folded), "pot_bb": pot / big_blind, "call_bb": paid / big_blind,
                     "odds": paid / (pot + paid), "eq": r["eq"], "answer": _kind(r["answer"], stack, call),
                     "gain_bb": chips / big_blind, "gain_chips": chips, "gain_score": score, "others_go_on": go_on})
    return pl.DataFrame(rows)


def _interval(x: pl.Expr) -> list[pl.Expr]:
    """Mean and its normal 95% interval over the spots (spots of one game are not independent: a rough interval)."""
    half = 1.96 * x.std() / x.count().sqrt()
    return [x.mean().round(3).alias("mean"), (x.mean() - half).round(3).alias("low"),
            (x.mean() + half).round(3).alias("high")]


def table(frame: pl.DataFrame, by: list[str], value: str, games: int) -> pl.DataFrame:
    """Per group: spots, folds, calls, raises; the mean gain of calling over folding (``value``) at the folded and
    the called spots with normal 95% intervals, and the sum over the folded spots per game."""
    counts = frame.group_by(by).agg(spots=pl.len(), folds=(pl.col("answer") == "fold").sum(),
                                    calls=(pl.col("answer") == "call").sum(),
                                    raises=(pl.col("answer") == "raise").sum())
    parts = [counts]
    for kind in ("fold", "call"):
        mean, low, high = _interval(pl.col(value))
        part = frame.filter(pl.col("answer") == kind).group_by(by).agg(
            mean.alias(f"{kind}_mean"), low.alias(f"{kind}_low"), high.alias(f"{kind}_high"),
            (pl.col(value).sum() / games).round(4).alias(f"{kind}_per_game"))
        parts.append(part)
    out = parts[0]
    for part in parts[1:]:
        out = out.join(part, on=by, how="left")
    return out.sort(by)


def _bins(frame: pl.DataFrame) -> pl.DataFrame:
    """The bot's equity estimate less the pot odds, and the pot odds, in bands."""
    margin = pl.col("eq") - pl.col("odds")
    return frame.with_columns(
        margin=pl.when(margin.is_nan()).then(pl.lit("n/a")).when(margin < -0.2).then(pl.lit("a <-0.20"))
        .when(margin < -0.1).then(pl.lit("b -0.20..-0.10")).when(margin < -0.05).then(pl.lit("c -0.10..-0.05"))
        .when(margin < 0).then(pl.lit("d -0.05..0")).when(margin < 0.05).then(pl.lit("e 0..0.05"))
        .when(margin < 0.1).then(pl.lit("f 0.05..0.10")).otherwise(pl.lit("g >=0.10")),
        odds_band=pl.when(pl.col("odds") < 0.2).then(pl.lit("<0.20")).when(pl.col("odds") < 0.3)
        .then(pl.lit("0.20-0.30")).when(pl.col("odds") < 0.4).then(pl.lit("0.30-0.40")).otherwise(pl.lit(">=0.40")))


def report(frame: pl.DataFrame, games: int, title: str) -> None:
    print(f"{title}: {games} games, {frame.height} spots where a call ends the betting "
          f"({frame['others_go_on'].sum()} with others going on after a fold)")
    if frame.is_empty():
        return
    frame = _bins(frame.with_columns(stacks=pl.when(pl.col("live") <= 2).then(pl.lit("2")).otherwise(pl.lit("3-4"))))
    with pl.Config(tbl_rows=80, tbl_cols=20, tbl_width_chars=200, tbl_hide_dataframe_shape=True):
        print("gain of calling over folding, bb a spot (normal 95% over spots); *_per_game: summed bb a game")
        print(table(frame, ["street", "stacks"], "gain_bb", games))
        if (frame["stacks"] == "3-4").any():
            print("the same in finish score (ICM, luck.finish_value)")
            print(table(frame, ["street", "stacks"], "gain_score", games))
        print("by the bot's equity estimate less the pot odds")
        print(table(frame, ["street", "stacks", "margin"], "gain_bb", games))
        print("by the pot odds")
        print(table(frame, ["street", "stacks", "odds_band"], "gain_bb", games))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidate", nargs="?", help="ranged@REV (the ranged bot as committed there); not with --load")
    ap.add_argument("--against", help="opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--save", type=Path, help="write the events and the spots here (parquet)")
    ap.add_argument("--load", type=Path, help="read saved spots instead of playing")
    args = ap.parse_args(argv)
    if args.load:
        frame = pl.read_parquet(args.load / SPOTS)
        games = load(args.load)["games"].height
        report(frame, games, str(args.load))
        return
    if not args.candidate or not args.candidate.startswith("ranged@") or not args.against:
        ap.error("ranged@REV and --against, or --load FOLDER")
    against = [a for a in args.against.split("/") if a]
    with one_line_errors(ap):  # a mistyped revision or opponent: one line, before any game
        make, records = audited(args.candidate.split("@", 1)[1])
        opponents = [maker(a) for a in against]
    log = judge.play_chunk([make, *opponents], seed=args.seed, first=0, count=args.games,
                           names=[args.candidate, *against])
    tables = {t: pl.DataFrame(dict(log.events.columns[t])) for t in TABLES}
    frame = spots(records, tables)
    rivers = sum(len(r["board"]) == 5 for r in records)
    print(f"river decisions facing a bet: {rivers}, of them a call ends the betting: "
          f"{0 if frame.is_empty() else (frame['street'] == 'river').sum()}")
    if args.save:
        save(tables, args.save)
        frame.write_parquet(args.save / SPOTS)
    report(frame, args.games, f"{args.candidate} vs {args.against}, seed {args.seed}")


if __name__ == "__main__":
    main()
