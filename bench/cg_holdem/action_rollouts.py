"""Which of the ranged bot's own decisions give value away, measured by counterfactual rollouts (issue 32). Bench
only: the bot, the engine and the opponents are unchanged.

    nice -n 10 .venv/bin/python -m bench.cg_holdem.action_rollouts --against style:tracker/style:tracker/aggressive \
        --games 40 --seed 13732 --save rollouts.csv

Games are played as judge.play_chunk plays them (the same units, seats and keys: judge.unit_seats, judge.Referee).
At each decision of the primary seat (the first entry, ``ranged`` by default; ``--sample`` of them, chosen by a
generator of its own seeded from the seed and unit) the referee's whole state (the Game, every seat's in-process
bot, the loop's bookkeeping) is copied after the bot has answered, and each other answer ``turn.possible`` allows
is played from a copy instead: fold (facing a bet), check or call, a raise of half the pot and of the pot (chips
added: the call plus that share of the pot after it) and all-in. Every program, the bot too, then plays on as
itself to the end of the hand. Answers the referee plays alike (a half-pot raise that is the minimum raise and the
bot's own minimum raise, say) are one branch: their gain is 0 and no rollout is played.

A branch is worth the bot's ICM equity at the hand's end (its stacks then, hands.icm over the places left, the
finish score's payouts: 1 first, 0 last, linear; a bust is worth the finish score of the place it took) or its
finish score if the game ended. The real game is the bot's own branch (a test checks that a copy played on with
the same answer is the game, bit for bit). A gain is an alternative's worth minus the own branch's: the cards to
come are fixed by the deal, so each is one sample of the runout and averaged over decisions it is unbiased for what
answering otherwise in that kind of decision would gain at the hand's end (not what the opponents would learn).
``--to-end K``: the first K sampled decisions also play every branch to the game's end (their finish score minus
the real game's), to check the hand-end figure against the score the arena ranks by.

Printed, for groupings of the decision kinds (street; facing: preflop unraised / a raise, postflop none / a bet;
the bot's action; the bet faced to the pot; live stacks 2 or 3-4; the opponent's program when one is left in the
hand, else multi; the bot's equity band, its last range_equity in the decision, '-' where it computed none; the depth,
its chips or the deepest opponent's in the hand if fewer, in big blinds: <12, 12-20, 20-30, 30-50, 50+) and each
alternative: decisions, decisions a game, the mean gain a decision and a game (gain x decisions a game =
finish score a game, scaled up by 1 / --sample), 95% normal intervals clustered by game; rows by the largest gain
a game, the top --top of each grouping (kinds seen in --least games or more). ``--save F.csv``: one row per
decision and alternative.
"""

import argparse
import copy
import csv
import math
import random
import time
from collections import defaultdict

from bench.cg_holdem.ranged_paired import maker, one_line_errors
from bots.cg_holdem.hands import icm
from engine.cg_holdem import judge
from engine.cg_holdem.protocol import parse_output
from engine.cg_holdem.rules import GameConfig
from engine.cg_holdem.state import Action, Game
from engine.core.seeds import match_key

ALTERNATIVES = ("fold", "call", "half", "pot", "allin")  # call: check when nothing is owed
DIMENSIONS = ("street", "facing", "action", "size", "live", "opponent", "equity", "depth")
GROUPINGS = ("street,facing,action", "street,facing,action,live", "live,facing,action,equity",
             "live,opponent,street,facing,action", ",".join(DIMENSIONS))
STREETS = {0: "pre", 3: "flop", 4: "turn", 5: "river"}
Z = 1.959964


def alternatives(game) -> dict[str, Action]:
    """The answers to compare at the acting seat's decision, as the referee plays them."""
    s, possible = game.to_act, game.possible_actions()
    call, pot, stack = game.call_amount(s), sum(game.total), game.stack[s]
    lines = {"call": "CHECK" if call == 0 else "CALL"}
    if call:
        lines["fold"] = "FOLD"
    least = next((int(p[4:]) for p in possible if p.startswith("BET_")), 0)
    if least:
        for name, share in (("half", 0.5), ("pot", 1.0)):
            add = max(least, int(call + share * (pot + call)))
            if add < stack:
                lines[name] = f"BET {add}"
    if "ALL-IN" in possible:
        lines["allin"] = "ALL-IN"
    return {name: game.replace(Action(*parse_output(line)[:2])) for name, line in lines.items()}


def action_name(game, action: Action) -> str:
    """The bot's answer as played: fold, check, call, bet (nothing owed), raise or allin."""
    if action.kind == "BET":
        return "raise" if game.call_amount(game.to_act) else "bet"
    return {"ALL-IN": "allin"}.get(action.kind, action.kind.lower())


def band(x: float, edges: tuple, names: tuple) -> str:
    return next((n for e, n in zip(edges, names, strict=False) if x < e), names[-1])


def kind_of(game, me: int, names: list[str], action: Action, equity: float | None) -> dict[str, str]:
    """The decision's kind (module doc) from the referee's state before the answer is played."""
    call, pot = game.call_amount(me), sum(game.total)
    preflop = not game.board
    facing = ("raise" if game.top > game.bb else "unraised") if preflop else ("bet" if call else "none")
    live = sum(1 for s in range(game.n) if game.stack[s] + game.total[s] > 0)
    rivals = [s for s in range(game.n)
              if s != me and not game.folded[s] and game.stack[s] + game.total[s] > 0]
    depth = min(game.stack[me] + game.total[me], max(game.stack[s] + game.total[s] for s in rivals)) / game.bb
    return {"street": STREETS[len(game.board)], "facing": facing, "action": action_name(game, action),
            "size": "-" if not call else band(call / pot, (0.34, 0.67, 1.01), ("<1/3", "1/3-2/3", "2/3-1", ">1")),
            "live": "2" if live == 2 else "3-4", "opponent": names[rivals[0]] if len(rivals) == 1 else "multi",
            "equity": "-" if equity is None else band(equity, (0.2, 0.4, 0.6, 0.8), ("<.2", ".2-.4", ".4-.6",
                                                                                  ".6-.8", ">.8")),
            "depth": band(depth, (12, 20, 30, 50), ("<12", "12-20", "20-30", "30-50", "50+"))}


def value(game, me: int, hands: int) -> float:
    """The bot's worth once hand ``hands`` + 1 is over (game.hands holds it): its finish score if the game ended or
    it busted (equal busts share the better place, as Game.positions ranks them), else its ICM equity over the
    places left at the hand's end stacks."""
    n = game.n
    if game.over:
        return (n - game.positions()[me]) / (n - 1)
    rank = game.rank[me]
    if rank is not None:
        return (rank + game.rank.count(rank) - 1) / (n - 1)
    stacks = game.hands[hands].end_stacks
    live = sum(1 for x in stacks if x > 0)
    return icm(stacks, [(n - 1 - j) / (n - 1) for j in range(live)])[me]


def play_out(referee: judge.Referee, *, hands: int | None) -> None:
    """Play on to the end of the hand after the first ``hands`` (None: to the game's end)."""
    game = referee.game
    while not game.over and (hands is None or len(game.hands) == hands):
        referee.play(*referee.ask())


_RECORDING: dict[type, type] = {}


def recording(bot) -> None:
    """Make ``bot`` keep its last range_equity as ``last_equity`` (the same play: the figure is only kept)."""
    base = type(bot)
    if base not in _RECORDING:
        def range_equity(self, *args, **kwargs):
            self.last_equity = base.range_equity(self, *args, **kwargs)
            return self.last_equity
        _RECORDING[base] = type(f"Recording{base.__name__}", (base,), {"range_equity": range_equity})
    bot.__class__ = _RECORDING[base]
    bot.last_equity = None


def play_unit(entries: list[str], *, seed: int, unit: int, sample: float = 1.0, to_end: int = 0,
              on_decision=None) -> tuple[list[dict], float]:
    """One unit's game with the rollouts of the primary's sampled decisions: (rows, its finish score). A row per
    decision and alternative: unit, decision (its number among the sampled), hand, the kind's dimensions, alt, gain
    (hand's end) and, for the first ``to_end`` decisions, end_gain (game's end), else None."""
    players = len(entries)
    seats, seat_of, rotation, game_seed = judge.unit_seats([maker(e) for e in entries], key=match_key(seed),
                                                           unit=unit)
    names = [entries[(s - rotation) % players] for s in range(players)]
    me = seat_of[0]
    bot = seats[me].bot
    has_equity = hasattr(bot, "range_equity")
    if has_equity:
        recording(bot)
    referee = judge.Referee(seats, Game(GameConfig(players=players), game_seed))
    game, pick = referee.game, random.Random(f"{seed}/{unit}")
    pending: list[tuple[int, dict, dict]] = []  # (hands before, kind, {alt: value at the hand's end or None})
    ends: dict[int, dict] = {}  # decision -> {alt: finish score of the branch played to the end}
    ends_all: list[int] = []  # the sampled decisions so far
    rows: list[dict] = []
    while not game.over:
        if game.to_act == me and has_equity:
            bot.last_equity = None
        s, turn, answer = referee.ask()
        if on_decision is not None:
            on_decision(referee, s, turn, answer)
        if s == me and pick.random() < sample:
            own = game.replace(Action(*parse_output(answer)[:2]))
            hands = len(game.hands)
            equity = bot.last_equity if has_equity else None
            kind = {"decision": len(ends_all), "hand": game.hand_nb, **kind_of(game, me, names, own, equity)}
            branches, finals = {}, {}
            for alt, action in alternatives(game).items():
                if action == own:
                    branches[alt] = None  # the bot's own answer: gain 0
                    continue
                line = "BET " + str(action.amount) if action.kind == "BET" else action.kind
                branch = copy.deepcopy(referee)
                branch.play(s, turn, line)
                if len(ends) < to_end:
                    mark = copy.deepcopy(branch)
                    play_out(mark, hands=None)
                    finals[alt] = (mark.game.n - mark.game.positions()[me]) / (mark.game.n - 1)
                play_out(branch, hands=hands)
                branches[alt] = value(branch.game, me, hands)
            pending.append((hands, kind, branches))
            if len(ends) < to_end:
                ends[len(ends_all)] = finals
            ends_all.append(len(ends_all))
        referee.play(s, turn, answer)
        done = [p for p in pending if len(game.hands) > p[0]]
        for hands, kind, branches in done:
            own_value = value(game, me, hands)
            for alt, v in branches.items():
                rows.append({"unit": unit, **kind, "alt": alt, "gain": 0.0 if v is None else v - own_value,
                             "end_gain": None})
        pending = [p for p in pending if len(game.hands) <= p[0]]
    score = (game.n - game.positions()[me]) / (game.n - 1)
    for row in rows:
        finals = ends.get(row["decision"])
        if finals is not None:
            row["end_gain"] = finals[row["alt"]] - score if row["alt"] in finals else 0.0
    for seat in seats:
        seat.close()
    return rows, score


def clustered(rows: list[dict], games: list[int], sample: float) -> dict:
    """Count, decisions a game and the mean gain a decision and a game with 95% intervals clustered by game."""
    per = {g: [0.0, 0] for g in games}
    for r in rows:
        per[r["unit"]][0] += r["gain"]
        per[r["unit"]][1] += 1
    sums, counts = [per[g][0] for g in games], [per[g][1] for g in games]
    G, N = len(games), sum(counts)
    seen = sum(1 for c in counts if c)
    total = sum(sums)
    mean = total / N
    rate = [x / sample for x in sums]
    game_mean = sum(rate) / G
    sd_game = math.sqrt(sum((x - game_mean) ** 2 for x in rate) / (G - 1)) if G > 1 else float("nan")
    resid = [x - mean * c for x, c in zip(sums, counts, strict=True)]
    se = math.sqrt(G / (G - 1) * sum(e * e for e in resid)) / N if G > 1 else float("nan")
    half = Z * sd_game / math.sqrt(G)
    return {"n": N, "games": seen, "per_game": N / sample / G,
            "gain": mean, "gain_lo": mean - Z * se, "gain_hi": mean + Z * se,
            "game": game_mean, "game_lo": game_mean - half, "game_hi": game_mean + half}


def report(rows: list[dict], games: list[int], *, sample: float, by: str, top: int, least: int = 5) -> list[str]:
    """The top (kind, alternative)s of grouping ``by`` seen in at least ``least`` games, by the gain a game."""
    dims = by.split(",")
    groups = defaultdict(list)
    for r in rows:
        groups[(tuple(r[d] for d in dims), r["alt"])].append(r)
    found = [(key, alt, clustered(rs, games, sample)) for (key, alt), rs in groups.items()]
    found = sorted((f for f in found if f[2]["games"] >= least), key=lambda x: -x[2]["game"])
    out = [f"by {by}: top {top} of {len(found)} (kind, alternative) seen in {least}+ games, by the gain a game",
           f"  {'kind':<44} {'alt':<6} {'n':>5} {'/game':>6} {'gain a decision [95%]':>28} "
           f"{'finish score a game [95%]':>30}"]
    for key, alt, c in found[:top]:
        out.append(f"  {'/'.join(key):<44} {alt:<6} {c['n']:>5} {c['per_game']:>6.2f} "
                   f"{c['gain']:>+8.4f} [{c['gain_lo']:+.4f}, {c['gain_hi']:+.4f}] "
                   f"{c['game']:>+9.4f} [{c['game_lo']:+.4f}, {c['game_hi']:+.4f}]")
    return out


def agreement(rows: list[dict]) -> list[str]:
    """The hand-end gains against the game-end ones where both were played (--to-end)."""
    pairs = [(r["gain"], r["end_gain"]) for r in rows if r["end_gain"] is not None and r["gain"] != 0.0]
    if len(pairs) < 3:
        return ["to-end check: fewer than 3 rolled-out alternatives"]
    n = len(pairs)
    hx = sum(p[0] for p in pairs) / n
    ex = sum(p[1] for p in pairs) / n
    sh = math.sqrt(sum((p[0] - hx) ** 2 for p in pairs) / (n - 1))
    se = math.sqrt(sum((p[1] - ex) ** 2 for p in pairs) / (n - 1))
    cov = sum((p[0] - hx) * (p[1] - ex) for p in pairs) / (n - 1)
    signs = sum(1 for h, e in pairs if (h > 0) == (e > 0) and h != 0 and e != 0)
    nonzero = sum(1 for h, e in pairs if h != 0 and e != 0)
    corr = cov / (sh * se) if sh > 0 and se > 0 else float("nan")
    return [f"to-end check over {n} rolled-out alternatives: mean gain at the hand's end {hx:+.4f} "
            f"[{hx - Z * sh / math.sqrt(n):+.4f}, {hx + Z * sh / math.sqrt(n):+.4f}], at the game's end {ex:+.4f} "
            f"[{ex - Z * se / math.sqrt(n):+.4f}, {ex + Z * se / math.sqrt(n):+.4f}]; correlation {corr:.3f}; "
            f"same sign in {signs} of {nonzero} where both are nonzero"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="ranged", help="the primary entry whose decisions are rolled out")
    ap.add_argument("--against", required=True, help="opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="the first unit")
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--sample", type=float, default=1.0, help="share of the bot's decisions rolled out")
    ap.add_argument("--to-end", type=int, default=0, help="decisions whose branches are also played to the end")
    ap.add_argument("--by", action="append", help=f"a grouping, dimensions of {','.join(DIMENSIONS)} "
                    "(repeatable; default: several)")
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--least", type=int, default=5, help="kinds seen in fewer games are not shown")
    ap.add_argument("--save", help="one row per decision and alternative here (.csv)")
    args = ap.parse_args(argv)
    entries = [args.bot, *(a for a in args.against.split("/") if a)]
    with one_line_errors(ap):
        for entry in entries:
            maker(entry)
        for by in args.by or []:
            if not by or any(d not in DIMENSIONS for d in by.split(",")):
                raise SystemExit(f"--by {by!r}: dimensions are {', '.join(DIMENSIONS)}")
    print(f"{args.bot} against {'/'.join(entries[1:])}, seed {args.seed}, units {args.first}.."
          f"{args.first + args.games - 1}, sample {args.sample}", flush=True)
    rows, scores, started = [], [], time.monotonic()
    games = list(range(args.first, args.first + args.games))
    for unit in games:
        checked = len({(r["unit"], r["decision"]) for r in rows if r["end_gain"] is not None})
        found, score = play_unit(entries, seed=args.seed, unit=unit, sample=args.sample,
                                 to_end=max(0, args.to_end - checked))
        rows += found
        scores.append(score)
        print(f"  unit {unit}: finish score {score:.3f}, {len({r['decision'] for r in found})} decisions, "
              f"{time.monotonic() - started:.0f} s", flush=True)
    n = len(scores)
    mean = sum(scores) / n
    players = len(entries)
    print(f"finish score a game {mean:.3f} over {n} games (mean position {players - (players - 1) * mean:.3f})")
    for by in args.by or GROUPINGS:
        print("\n".join(report(rows, games, sample=args.sample, by=by, top=args.top, least=args.least)))
    print("\n".join(agreement(rows)))
    if args.save:
        with open(args.save, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
