"""What exact reads of the opponents' hole cards would be worth to the ranged bot's decision rules (issue 32): a
headroom bound, decomposed by decision kind. Bench only: the bot, the engine and the opponents are unchanged.

    nice -n 10 .venv/bin/python -m bench.cg_holdem.oracle_headroom --against style:tracker/aggressive/style:lag \
        --games 200 --seed 13132 ranged oracle:all oracle:pre oracle:post oracle:allin

``oracle:PART`` is the default ranged bot (RangedBot, RangedConfig()) whose equity estimates (``range_equity``, which
every equity the bot decides on goes through) are made against each opponent's actual hole cards instead of its
narrowed range, in PART of its decisions:

- ``all``: every decision; ``pre``: preflop decisions only; ``post``: postflop decisions only;
- ``allin``: only the all-in valuations: the equity ``_call_allin_with`` weighs (by ICM, or pot odds against several
  bettors: facing a call of most of its chips pre- or postflop, and a re-raise of its own raise at 3-4 live stacks)
  and ``_push_value``'s (the first-in push of 3-4 seats, ``_shove``, and the re-steal, ``_resteals``);
- finer postflop parts: ``flop``, ``turn``, ``river`` (postflop decisions on that street), ``post_bet`` (postflop
  facing a bet: call, fold or raise, the all-in calls among them) and ``post_free`` (postflop with nothing to call:
  bet or check);
- ``none``: the control: it learns the cards and uses them nowhere (plays as ``ranged``, bit for bit).

``oracle:PART:decile`` knows less: only the strength decile of each opponent's actual hand (the bins Reads counts by,
reads.BINS: preflop the hand class's percentile, postflop its board percentile, RangedBot._table), and holds the bot's
own range (narrowed, or the calling range given) cut to that decile (each combo there at least 1e-5, so the actual hand
always stays in it): what an ideal reader of strength by bins could know at best, between the range and the cards.
``:tercile`` and ``:half`` know coarser still: the same with three and two equal strength bins.

It knows the opponents' two cards, nothing else: the board is still sampled (the same ``samples`` Monte Carlo deals,
on the bot's own seeded generator); its fold guesses, reads, thresholds, sizes and bluffs stay the bot's. Where the
bot gives an explicit calling range (``_push_value``: the likeliest caller's hands that call an all-in), the oracle uses
the actual hand only if it lies in that range (its calling step there at least 0.5: the range's weight on it over the
weight it had before the call cut, which is the seat's narrowed range for the re-steal's opener and all hands
otherwise), else the range as given: it does not learn whether the opponent would call.

How it learns the cards: a game's cards are a function of its seed (engine/cg_holdem/deck.py), and a unit's seed a
function of the match seed and the deal (judge.play_chunk). This tool plays each unit as its own one-unit play_chunk
(the same games, bit for bit, as one chunk of many), handing each oracle a DealtCards of its game's seed; at every
turn it rebuilds the hand's deck and finds the dealing order from its own two cards (which must match: a check).
Nothing any player sees changes. Printed: ranged_paired's report (mean finish score, mean position, firsts, each
candidate minus the first with a 95% paired normal interval over games) and each candidate's positions' counts.
"""

import argparse
from collections.abc import Callable
from contextlib import contextmanager

import numpy as np

from bench.cg_holdem.ranged_paired import maker, one_line_errors, report
from bots.cg_holdem.hands import CLASS_PCT, COMBO_CLASS, COMBOS, combo_index
from bots.cg_holdem.ranged import RangedBot, RangedConfig
from bots.cg_holdem.reads import BINS
from engine.cg_holdem import judge
from engine.cg_holdem.deck import DeckSource
from engine.core.errors import UnknownName
from engine.core.seeds import Purpose, match_key, unit_key

PARTS = ("none", "all", "pre", "post", "allin", "flop", "turn", "river", "post_bet", "post_free")
STREETS = {"flop": 3, "turn": 4, "river": 5}
# what an oracle knows of each opponent's hand: its two cards, or its strength bin of this many equal bins
KNOWS = {"cards": 0, "decile": BINS, "tercile": 3, "half": 2}
ORACLE = "oracle:"
PREFLOP_PCT = [CLASS_PCT[c] for c in COMBO_CLASS]  # each combo's preflop percentile


class DealtCards:
    """Every seat's hole cards in one game, from its seed: the referee's decks hand by hand (DeckSource)."""

    def __init__(self, game_seed: int, players: int):
        self.source = DeckSource(game_seed, players)
        self.decks: list[list[int]] = []

    def holes(self, turn, me: int) -> dict[int, tuple[int, int]]:
        """Seat -> its two cards in ``turn``'s hand. The dealing order is a rotation of the seats in the hand (chips
        behind or in the pot: they had chips at its start); the one that gives ``me`` its own cards is the one."""
        while len(self.decks) < turn.hand:  # one deck a hand, cancelled hands included (Game._start_hand)
            self.decks.append(self.source.next_hand())
        deck = self.decks[turn.hand - 1]
        live = [s for s in range(len(turn.stacks)) if turn.stacks[s] + turn.chips[s] > 0]
        count = len(live)
        for r in range(count):
            order = live[r:] + live[:r]
            i = order.index(me)
            if (deck[i], deck[count + i]) == tuple(turn.cards):
                return {s: (deck[j], deck[count + j]) for j, s in enumerate(order)}
        raise RuntimeError(f"hand {turn.hand}: no dealing order gives seat {me} its cards {turn.cards}: "
                           "not this game's seed")


def _one_hot(hole: tuple[int, int]) -> list[float]:
    weights = [0.0] * len(COMBOS)
    weights[combo_index(*hole)] = 1.0
    return weights


def _bin(q: float, bins: int) -> int:
    return min(bins - 1, int(q * bins))  # as Reads bins a strength (at BINS)


class OracleBot(RangedBot):
    """The ranged bot with exact equity against the opponents' actual cards in ``part`` of its decisions (module
    doc)."""

    def __init__(self, config, part: str, cards: DealtCards, knows: str = "cards"):
        super().__init__(config)
        if part not in PARTS:
            raise UnknownName(f"oracle part {part!r}: accepted: {', '.join(PARTS)}")
        if knows not in KNOWS:
            raise UnknownName(f"oracle knowledge {knows!r}: accepted: {', '.join(KNOWS)}")
        self.part, self.cards, self.knows = part, cards, knows
        self.holes: dict[int, tuple[int, int]] = {}
        self.valuing = 0  # > 0 inside an all-in valuation (part allin)
        self.resteal = False  # inside _resteals: its opener's calling range is cut from the opener's narrowed range

    def act(self, turn) -> str:
        self.holes = self.cards.holes(turn, self.setup.me)
        return super().act(turn)

    @contextmanager
    def _valuing(self):
        self.valuing += 1
        try:
            yield
        finally:
            self.valuing -= 1

    def _knows(self, view) -> bool:
        part, post = self.part, not view.preflop
        return (part == "all" or (part == "pre" and not post) or (part == "post" and post)
                or (part == "allin" and self.valuing > 0) or (post and STREETS.get(part) == len(view.turn.board))
                or (post and part == ("post_bet" if view.call else "post_free")))

    def _calls_with(self, seat: int, given, hole) -> bool:
        """Whether ``hole`` lies in the calling range ``given`` for ``seat``: its weight there over its weight before
        the call cut (the opener's narrowed range in a re-steal, else all hands alike) is at least 0.5."""
        i = combo_index(*hole)
        base = (self.ranges.get(seat) if self.resteal and seat == self.aggressor else None) or [1.0] * len(COMBOS)
        return given[i] >= 0.5 * base[i]

    def range_equity(self, view, seats=None, ranges=None) -> float:
        if not self._knows(view):
            return super().range_equity(view, seats, ranges)
        fixed = {}
        for s in view.opponents if seats is None else seats:
            given = ranges.get(s) if ranges is not None else None
            hole = self.holes[s]
            fixed[s] = given if given is not None and not self._calls_with(s, given, hole) else \
                self._known(view, s, hole, given)
        return super().range_equity(view, seats, fixed)

    def _known(self, view, seat: int, hole, given) -> list[float]:
        """The weights the oracle holds for ``seat``'s hand: its cards, or (decile) the range given or the seat's
        narrowed one cut to the actual hand's strength bin (decile, tercile, half)."""
        if self.knows == "cards":
            return _one_hot(hole)
        strength = PREFLOP_PCT if view.preflop else self._table(view.turn.board)
        bins = KNOWS[self.knows]
        mine = _bin(strength[combo_index(*hole)], bins)
        weights = given if given is not None else self.ranges.get(seat) or [1.0] * len(COMBOS)
        return [max(x, 1e-5) if _bin(q, bins) == mine else 0.0 for x, q in zip(weights, strength, strict=True)]

    def _push_value(self, view, callers):
        with self._valuing():
            return super()._push_value(view, callers)

    def _resteals(self, view) -> bool:
        self.resteal = True
        try:
            return super()._resteals(view)
        finally:
            self.resteal = False

    def _call_allin_with(self, view, eq: float) -> bool:
        if self.part == "allin":  # the equity it was given is the bot's own: the oracle's instead
            with self._valuing():
                eq = self.range_equity(view)
        return super()._call_allin_with(view, eq)


def oracle_part(entry: str) -> tuple[str, str] | None:
    """(PART, what it knows) of an ``oracle:PART[:KNOWS]`` entry (checked), else None."""
    if not entry.startswith(ORACLE):
        return None
    part, _, knows = entry[len(ORACLE):].partition(":")
    if part not in PARTS:
        raise UnknownName(f"oracle part {part!r}: accepted: {', '.join(PARTS)}")
    if (knows or "cards") not in KNOWS:
        raise UnknownName(f"oracle knowledge {knows!r}: accepted: {', '.join(KNOWS)}")
    return part, knows or "cards"


def game_seed(seed: int, unit: int, players: int) -> int:
    """The seed of unit ``unit``'s game, as judge.play_chunk deals it (a test checks the cards against its log)."""
    deal, _ = judge.unit_seating(unit, players)
    return judge.java_seed(unit_key(match_key(seed), deal, Purpose.DEAL))


def play_units(entries: list[str], *, seed: int, first: int, count: int):
    """Units first..first+count-1 of the line-up ``entries`` (the first is the primary), each its own one-unit
    play_chunk, oracles handed their game's cards: the ChunkLog of each."""
    players = len(entries)
    parts = [oracle_part(e) for e in entries]
    fixed: list[Callable | None] = [None if p else maker(e) for e, p in zip(entries, parts, strict=True)]
    logs = []
    for unit in range(first, first + count):
        game = game_seed(seed, unit, players)
        lineup = [m or (lambda p=p, g=game: OracleBot(RangedConfig(), p[0], DealtCards(g, players), p[1]))
                  for m, p in zip(fixed, parts, strict=True)]
        logs.append(judge.play_chunk(lineup, seed=seed, first=unit, count=1))
    return logs


def payoffs(candidate: str, against: list[str], *, games: int, seed: int, first: int = 0) -> np.ndarray:
    """The candidate's finish score per game, as ranged_paired.payoffs plays them."""
    logs = play_units([candidate, *against], seed=seed, first=first, count=games)
    return np.concatenate([log.payoffs for log in logs])


def places(scores: np.ndarray, players: int) -> list[int]:
    """How many games finished 1st, 2nd, ... from finish scores (players - position) / (players - 1)."""
    found = np.rint(players - (players - 1) * np.asarray(scores)).astype(int)
    return [int((found == p).sum()) for p in range(1, players + 1)]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("candidates", nargs="+", help="ranged_paired entries or oracle:PART; the first is the baseline")
    ap.add_argument("--against", required=True, help="opponents separated by '/': bots or style:NAME")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--save", help="save every candidate's scores per game here (.npz)")
    args = ap.parse_args(argv)
    against = [a for a in args.against.split("/") if a]
    with one_line_errors(ap):
        for entry in [*args.candidates, *against]:  # every name checked before the first game
            if oracle_part(entry) is None:
                maker(entry)
        print(f"against {'/'.join(against)}, seed {args.seed}:", flush=True)
        scores = {}
        for c in args.candidates:
            scores[c] = payoffs(c, against, games=args.games, seed=args.seed)
            print(f"  {c} done: {scores[c].mean():.3f}", flush=True)
    players = 1 + len(against)
    print("\n".join(report(scores, players=players)))
    for c, s in scores.items():
        print(f"{c}: places 1st..{players}th {places(s, players)}")
    if args.save:
        np.savez(args.save, **scores)


if __name__ == "__main__":
    main()
