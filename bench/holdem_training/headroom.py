"""Headroom study: what the exploit bot leaves on the table, measured on the same deals.

    cardlab bench holdem-training headroom --seeds 2 --hands 3000   # about 4 minutes here

Each variant plays the same hands as the default exploit bot, in process, and is compared
hand by hand (a paired difference, so the deal's luck cancels):

- `turn-lookahead`: on the flop every option (check and each raise) is valued by making the
  turn decision on each of the 47 possible turn cards, with the posterior after Bob's answer,
  instead of the default's tuned `future_flop` term. This is the planning step the default
  leaves out; it costs tens of milliseconds per flop decision, far beyond the contest's
  1 ms per hand, so it shows what better planning could gain, not a submission.
- `seer`: the same planner told Bob's two cards (its posterior is a point mass from the
  flop on; preflop it keeps the plan, so it is if anything an underestimate). No contestant
  can have this: the gap is what the information Bob keeps is worth.
- `changed`: the exploit bot with other settings: how one planning change is measured
  paired on the same deals.

`--vary k=v` settings apply to every variant (not to the exploit baseline): `changed`
needs them, and `turn-lookahead --vary runouts_flop=16 ...` measures the best planning
known here at any CPU against the default.
"""

import time
from dataclasses import dataclass

import numpy as np

from bots.holdem_training import _kernels as K
from bots.holdem_training.exploit import ExploitBot, ExploitConfig
from engine.core.errors import BadValue
from engine.core.stats import summarize
from engine.holdem_training.judge import dealt_cards, play_match
from engine.holdem_training.rules import BOB_ROLLOUTS, View, view_of

_NO_FUTURE = np.zeros(3)
_NO_RAISES = np.zeros(0, np.int64)  # the turn's later-street term is the river lookahead itself


class SeerBot(ExploitBot):
    """The exploit planner with Bob's cards revealed: `bob_cards[i]` are hand i + 1's."""

    def __init__(self, config: ExploitConfig, bob_cards: np.ndarray):
        self._bob = np.asarray(bob_cards)
        super().__init__(config)

    def new_hand(self, view: View) -> None:
        super().new_hand(view)
        if view.hand == 0:  # the preflop plan's hands (see exploit.preflop_plan): nothing to see
            return
        self.reveal(K.pair_index(int(self._bob[view.hand - 1, 0]), int(self._bob[view.hand - 1, 1])))


TURN_CARDS = 47  # every turn card the flop leaves


class TurnLookaheadBot(ExploitBot):
    """The exploit bot whose flop decision looks at every turn card (see the module text), or
    at a random sample of `turn_cards` of them per decision (the cheap form of the lookahead)."""

    def __init__(self, config: ExploitConfig, turn_cards: int = TURN_CARDS):
        self._turn_cards = turn_cards
        super().__init__(config)

    def decide(self, view: View, street, *, candidates: int = 0, max_holdings: int = 0):
        if len(view.board) != 3:
            return super().decide(view, street, candidates=candidates, max_holdings=max_holdings)
        options, values, active = flop_values(self, view, street, self._turn_cards)
        return int(options[int(np.argmax(values))]), active


def flop_values(bot: ExploitBot, view: View, street,
                turn_cards: int = TURN_CARDS) -> tuple[list[int], np.ndarray, np.ndarray]:
    """(options, expected final profit of each, the holdings kept): 0 = CHECK, else the raise. After a fold Alice
    has stack + pot - 100; after a call (or the check) the value is the best turn option's,
    averaged over turn cards with the posterior post * P(call) minus the holdings the card
    touches (a holding's 45 possible turn cards are equally likely). With turn_cards < 47,
    the average is over that many turn cards drawn from the bot's stream, the same for every
    option (so options are compared on the same cards)."""
    post = bot.posterior
    active = np.flatnonzero(post > bot.config.prune * post.max())
    mass = post[active].sum()
    sizes = K.raise_sizes(bot.raise_fractions, view.pot, view.stack, True)
    seen = set(view.hole) | set(view.board)
    unseen = np.array([c for c in range(52) if c not in seen])
    turns = [int(c) for c in K.subsample(unseen, turn_cards, bot.stream)]
    share = len(unseen) / len(turns)  # each drawn card stands for this many
    def turn_view(c: int, x: int) -> View:  # after a raise x was called (or x = 0: checked)
        return view_of(view.hand, 3, view.stack - x, view.opp_stack - x, view.pot + 2 * x, view.hole, view.board + (c,))

    turn_streets = {c: bot.street(turn_view(c, 0)) for c in turns}  # Bob's views do not depend on the pot
    options = [0] + [int(x) for x in sizes]
    values = np.empty(len(options))
    for k, x in enumerate(options):
        calls = np.ones(K.PAIRS) if x == 0 else bot.call_chances(view.round, street.bob_w, street.bob_d, active,
                                                                 view.pot, x)
        folded = (post[active] * (1.0 - calls[active])).sum() * (view.stack + view.pot - 100)
        after = np.zeros(K.PAIRS)
        after[active] = post[active] * calls[active]
        called = 0.0
        for c in turns:
            branch = after.copy()
            branch[bot.holdings_touching(c)] = 0.0
            weight = branch.sum()
            if weight > 0:
                called += weight * turn_value(bot, turn_view(c, x), turn_streets[c], branch)
        values[k] = (folded + share * called / 45.0) / mass
    return options, values, active


def turn_value(bot: ExploitBot, view: View, street, post: np.ndarray) -> float:
    """Expected final profit of the best turn option under `post`, valued as the bot's own
    turn decision values it (myopic value plus the river lookahead), every raise included."""
    cfg = bot.config
    active = np.flatnonzero(post > cfg.prune * post.max())
    some = K.subsample(active, cfg.max_holdings, bot.stream)
    sizes = K.raise_sizes(bot.raise_fractions, view.pot, view.stack, True) if view.stack >= 1 else _NO_RAISES
    bob = bot.call_model(view.round)
    values = K.option_values(bob, post, street.bob_w, street.bob_d, street.alice_eq, np.zeros(sizes.shape[0] + 1),
                             some, view.pot, view.stack, sizes, _NO_FUTURE, BOB_ROLLOUTS)
    if sizes.shape[0] > 0 and cfg.river_lookahead:
        extra = K.river_values(bob, post, street.bob_w, street.bob_d, street.river, some, view.pot, view.stack,
                               sizes, bot.river_fractions, BOB_ROLLOUTS)
        values = values + extra / post[some].sum()
    return float(values.max())


@dataclass(frozen=True)
class Variant:
    name: str
    payoffs: np.ndarray  # per hand, all seeds in order
    cpu_seconds: float


def paired_difference(variant: np.ndarray, base: np.ndarray) -> tuple[float, float]:
    """Mean of variant - base per hand and its 95% half-width (normal: thousands of hands)."""
    d = np.asarray(variant, float) - np.asarray(base, float)
    s = summarize(d)
    return s.mean, s.half_width


VARIANTS = ("turn-lookahead", "seer", "changed")  # each compared with the exploit bot


def check_variants(names: list[str]) -> None:
    """BadValue naming the first unknown variant (before any hand is played)."""
    for name in names:
        if name not in VARIANTS:
            raise BadValue(f"unknown variant {name!r}: expected {', '.join(VARIANTS)} (comma-separated)")


def play(name: str, seeds: list[int], hands: int, config: ExploitConfig, *, turn_cards: int = TURN_CARDS) -> Variant:
    """The exploit bot ("exploit") or a variant, in process, over `hands` hands of each seed
    (`changed` is the exploit bot: its caller passes the changed config; `turn_cards` is the
    turn-lookahead's sample, TURN_CARDS for all)."""
    check_variants([name] if name != "exploit" else [])
    payoffs, cpu = [], 0.0
    for seed in seeds:
        if name in ("exploit", "changed"):
            bot = ExploitBot(config)
        elif name == "turn-lookahead":
            bot = TurnLookaheadBot(config, turn_cards)
        else:
            bot = SeerBot(config, dealt_cards(seed, hands)[:, 2:4])
        start = time.process_time()
        result = play_match(bot, seed=seed, hands=hands)
        cpu += time.process_time() - start
        if not result.complete:
            raise RuntimeError(f"{name} did not finish seed {seed}: {result.status} {result.reason}")
        payoffs.append(np.asarray(result.log.payoffs))
    return Variant(name, np.concatenate(payoffs), cpu)


def report(v: Variant, base: Variant | None) -> str:
    line = f"{v.name:15s} W = {v.payoffs.mean():7.3f}  CPU {1000 * v.cpu_seconds / len(v.payoffs):6.2f} ms/hand"
    if base is not None:
        diff, half = paired_difference(v.payoffs, base.payoffs)
        line += f"  vs exploit {diff:+.3f} +- {half:.3f} (95% CI, paired over {len(v.payoffs)} hands)"
    return line
