"""Where the ranged bot's reading of the opponents' hands is wrong (issue 32): its ranges and its equity against the
actual cards, decision by decision. Bench only: the bot plays as ``ranged``, bit for bit (a test checks it).

    nice -n 10 .venv/bin/python -m bench.cg_holdem.range_calibration --against style:tracker/aggressive/style:lag \
        --games 200 --seed 13132 --save /tmp/h3/calib.npz

The default RangedBot (RangedConfig(), or ``--set k=v,...``'s settings) plays the games oracle_headroom plays (its
game_seed, DealtCards: the same seed, the same units); a subclass only watches. At each equity the bot decides on
(``range_equity`` against every opponent's narrowed range: postflop every decision, preflop facing a raise; the
pushes' explicit calling ranges are left out, the true hand need not be in them) it records, per opponent still in the
hand:

- the situation: ``pre_raise`` (preflop facing a raise), ``flop_bet`` / ``turn_bet`` / ``river_bet`` (postflop facing a
  bet), ``post_free`` (postflop, nothing to call), ``allin`` (the equity went to ``_call_allin_with``: a call of most
  of the chips, or 3-4 live stacks a call of a re-raise of the bot's raise);
- the opponent's program (the bench knows the seating) and the number of opponents in the hand;
- the range's mass per strength decile (its ``ranges[seat]``, cards I see taken out, binned as Reads bins a shown
  hand: preflop the class percentile CLASS_PCT, postflop the board percentile ``board_percentiles``) and the decile of
  the opponent's actual hand;
- my equity against that seat's range alone (the bot's own Monte Carlo, ``samples`` deals, on a generator of this tool)
  and against its actual cards (exact over the runouts from the flop on; preflop a seeded Monte Carlo of
  ``exact_samples`` boards); and, once per decision, the equity the decision used and the same against all actual
  cards.

Printed per opponent x situation: decisions, the mean mass on the true decile (uniform: 0.1), the range's mean mass in
the top three deciles beside how often the true hand was there, and the signed equity error (estimate minus actual)
with a 95% interval over decision-opponents (normal) and one clustered by game (decisions in a game are not
independent: same opponent, same reads). Then the decisions' own error (all opponents at once) by situation and the
lone opponent's program (``multi`` for several).
"""

import argparse
import math
import random
from itertools import combinations

import numpy as np

from bench.cg_holdem.oracle_headroom import PREFLOP_PCT, DealtCards, _bin, game_seed
from bench.cg_holdem.ranged_paired import maker, one_line_errors
from bots.base import build_config
from bots.cg_holdem.hands import COMBOS, board_percentiles, combo_index
from bots.cg_holdem.pure_eval import value7
from bots.cg_holdem.ranged import RangedBot, RangedConfig
from bots.cg_holdem.reads import BINS
from engine.cg_holdem import judge

SITUATIONS = ("pre_raise", "flop_bet", "turn_bet", "river_bet", "post_free", "allin", "pre_other")
TOP = 3  # the calibration table's top deciles


def known_equity(hole, board, holes, rng: random.Random, runs: int) -> float:
    """My pot share against the hands ``holes``: every runout when there are at most ``runs``, else ``runs`` random
    ones from ``rng``."""
    known = set(hole) | set(board) | {c for h in holes for c in h}
    deck = [c for c in range(52) if c not in known]
    need = 5 - len(board)
    every = math.comb(len(deck), need) <= runs
    share, count = 0.0, 0
    for run in combinations(deck, need) if every else (rng.sample(deck, need) for _ in range(runs)):
        full = [*board, *run]
        mine, theirs = value7([*hole, *full]), [value7([a, b, *full]) for a, b in holes]
        if mine >= max(theirs):  # ties split the pot
            share += 1.0 / (1 + theirs.count(mine))
        count += 1
    return share / count


class Watcher(RangedBot):
    """The default ranged bot, recording its reads against the actual cards (module doc); its play is untouched: the
    extra equities run on generators of their own, the bot's ``_rng`` swapped out and back."""

    def __init__(self, config, cards: DealtCards, programs: list[str], game: int, exact_samples: int = 1000):
        super().__init__(config)
        self.cards, self.programs, self.game = cards, programs, game
        self.exact_samples = exact_samples
        self.rows: list[dict] = []  # one per decision and opponent
        self.decisions: list[dict] = []  # one per decision
        self.holes: dict[int, tuple[int, int]] = {}
        self.mine = random.Random(game)  # this tool's own draws; the bot's generator never sees them
        self.pcts: dict[tuple, list[float]] = {}

    def act(self, turn) -> str:
        self.holes = self.cards.holes(turn, self.setup.me)
        return super().act(turn)

    def _strength(self, view) -> list[float]:
        if view.preflop:
            return PREFLOP_PCT
        key = tuple(view.turn.board)
        if key not in self.pcts:
            self.pcts = {key: board_percentiles(view.turn.board)}
        return self.pcts[key]

    def _own_draws(self, view, seats) -> float:
        """RangedBot.range_equity on this tool's generator (the bot's is put back as it was)."""
        saved = self._rng
        self._rng = self.mine
        try:
            return RangedBot.range_equity(self, view, seats)
        finally:
            self._rng = saved

    def range_equity(self, view, seats=None, ranges=None) -> float:
        eq = super().range_equity(view, seats, ranges)
        if seats is None and ranges is None:
            self._record(view, eq)
        return eq

    def _record(self, view, eq: float) -> None:
        board, hole = list(view.turn.board), list(view.turn.cards)
        opponents = list(view.opponents)
        if view.preflop:
            situation = "pre_raise" if view.raised else "pre_other"
        elif view.call:
            situation = {3: "flop_bet", 4: "turn_bet", 5: "river_bet"}[len(board)]
        else:
            situation = "post_free"
        strength, dead = self._strength(view), set(hole) | set(board)
        decision = {"game": self.game, "hand": view.turn.hand, "situation": situation, "est": eq,
                    "n_opp": len(opponents), "program": self.programs[opponents[0]] if len(opponents) == 1 else "multi",
                    "exact": known_equity(hole, board, [self.holes[s] for s in opponents], self.mine,
                                          self.exact_samples)}
        self.decisions.append(decision)
        for s in opponents:
            weights = self.ranges.get(s) or [1.0] * len(COMBOS)
            mass = [0.0] * BINS
            for (a, b), x, q in zip(COMBOS, weights, strength, strict=True):
                if a not in dead and b not in dead:
                    mass[_bin(q, BINS)] += x
            total = sum(mass) or 1.0
            self.rows.append({"game": self.game, "hand": view.turn.hand, "situation": situation,
                              "program": self.programs[s], "n_opp": len(opponents),
                              "mass": [m / total for m in mass],
                              "true": _bin(strength[combo_index(*self.holes[s])], BINS),
                              "est": self._own_draws(view, [s]),
                              "exact": known_equity(hole, board, [self.holes[s]], self.mine, self.exact_samples),
                              "decision": len(self.decisions) - 1})

    def _call_allin_with(self, view, eq: float) -> bool:
        if self.decisions and self.decisions[-1]["hand"] == view.turn.hand and self.decisions[-1]["est"] == eq:
            last = self.decisions[-1]
            last["situation"] = "allin"
            for r in self.rows[::-1]:
                if r["decision"] != len(self.decisions) - 1:
                    break
                r["situation"] = "allin"
        return super()._call_allin_with(view, eq)


def watch(against: list[str], *, seed: int, games: int, first: int = 0, exact_samples: int = 1000,
          config: RangedConfig | None = None):
    """Units first..first+games-1 with the watcher first in the line-up: (rows, decisions, each unit's ChunkLog)."""
    config = config or RangedConfig()
    players = 1 + len(against)
    names = ["ranged", *against]
    makers = [maker(a) for a in against]
    rows, decisions, logs = [], [], []
    for unit in range(first, first + games):
        rotation = judge.unit_seating(unit, players)[1]
        programs = [names[(s - rotation) % players] for s in range(players)]  # seat -> line-up entry
        dealt = DealtCards(game_seed(seed, unit, players), players)
        bots: list = []

        def make(u=unit, p=programs, d=dealt, b=bots):
            b.append(Watcher(config, d, p, u, exact_samples))
            return b[-1]

        log = judge.play_chunk([make, *makers], seed=seed, first=unit, count=1)
        rows += bots[0].rows
        decisions += bots[0].decisions
        logs.append(log)
    return rows, decisions, logs


def interval(x: np.ndarray, games: np.ndarray) -> tuple[float, float, float]:
    """(mean, normal 95% half-width over items, the same clustered by game: the per-game sums of deviations)."""
    n = len(x)
    if n < 2:
        return (float(x.mean()) if n else float("nan"), float("nan"), float("nan"))
    mean = float(x.mean())
    plain = 1.96 * float(x.std(ddof=1)) / np.sqrt(n)
    ids, inv = np.unique(games, return_inverse=True)
    sums = np.bincount(inv, weights=x - mean)
    g = len(ids)
    cluster = 1.96 * float(np.sqrt((sums ** 2).sum() * g / max(g - 1, 1))) / n
    return mean, plain, cluster


def tables(rows: list[dict], decisions: list[dict], programs: list[str]) -> list[str]:
    """The printed tables (module doc)."""
    out = ["per opponent x situation: n, mass on the true decile, range's top-3 mass vs true top-3 share, "
           "signed equity error vs that seat alone (mean [normal 95%] [cluster-by-game 95%])"]
    for program in programs:
        for sit in SITUATIONS:
            sel = [r for r in rows if r["program"] == program and r["situation"] == sit]
            if not sel:
                continue
            mass = np.array([r["mass"] for r in sel])
            true = np.array([r["true"] for r in sel])
            on = mass[np.arange(len(sel)), true].mean()
            top_mass = mass[:, BINS - TOP:].sum(axis=1).mean()
            top_true = (true >= BINS - TOP).mean()
            err = np.array([r["est"] - r["exact"] for r in sel])
            m, h, hc = interval(err, np.array([r["game"] for r in sel]))
            out.append(f"  {program:14s} {sit:9s} n={len(sel):5d} on-true {on:.3f}  top3 range {top_mass:.3f} "
                       f"true {top_true:.3f}  err {m:+.3f} [{m - h:+.3f}, {m + h:+.3f}] "
                       f"[{m - hc:+.3f}, {m + hc:+.3f}]")
    out.append("deciles (range mass / true share), per opponent, postflop facing a bet (flop/turn/river_bet):")
    for program in programs:
        sel = [r for r in rows if r["program"] == program and r["situation"].endswith("_bet")]
        if sel:
            mass = np.array([r["mass"] for r in sel]).mean(axis=0)
            true = np.bincount([r["true"] for r in sel], minlength=BINS) / len(sel)
            out.append(f"  {program:14s} " + " ".join(f"{a:.2f}/{b:.2f}" for a, b in zip(mass, true, strict=True)))
    out.append("decisions (all opponents at once): situation x lone opponent ('multi': several), "
               "equity used minus against all actual cards")
    for program in [*programs, "multi"]:
        for sit in SITUATIONS:
            sel = [d for d in decisions if d["program"] == program and d["situation"] == sit]
            if not sel:
                continue
            err = np.array([d["est"] - d["exact"] for d in sel])
            m, h, hc = interval(err, np.array([d["game"] for d in sel]))
            out.append(f"  {program:14s} {sit:9s} n={len(sel):5d} err {m:+.3f} [{m - h:+.3f}, {m + h:+.3f}] "
                       f"[{m - hc:+.3f}, {m + hc:+.3f}]")
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--exact-samples", type=int, default=1000,
                    help="the equity vs actual cards: every runout when there are at most this many, else this many")
    ap.add_argument("--save", help="save the rows (.npz)")
    ap.add_argument("--set", default="", help="the watcher's settings, k=v,... (RangedConfig; default: none)")
    args = ap.parse_args(argv)
    against = [a for a in args.against.split("/") if a]
    with one_line_errors(ap):
        for entry in against:
            maker(entry)
        config = build_config(RangedConfig, [x for x in args.set.split(",") if x], owner="--set")
        rows, decisions, logs = watch(against, seed=args.seed, games=args.games, exact_samples=args.exact_samples,
                                      config=config)
    payoffs = np.concatenate([log.payoffs for log in logs])
    print(f"against {'/'.join(against)}, seed {args.seed}, {args.games} games: mean finish score "
          f"{payoffs.mean():.3f}, {len(decisions)} decisions, {len(rows)} decision-opponents")
    print("\n".join(tables(rows, decisions, list(dict.fromkeys(against)))))
    if args.save:
        np.savez(args.save, payoffs=payoffs,
                 **{f"row_{k}": np.array([r[k] for r in rows]) for k in rows[0]},
                 **{f"dec_{k}": np.array([d[k] for d in decisions]) for k in decisions[0]})


if __name__ == "__main__":
    main()
