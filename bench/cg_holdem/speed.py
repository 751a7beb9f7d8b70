"""Complete 4-player games per CPU second with in-process bots against PokerKit replaying the same hands."""

import gc
import time
from dataclasses import dataclass

from bench.cg_holdem.bots import makers
from bench.cg_holdem.pokerkit_peer import pokerkit_plan, pokerkit_replay, require_pokerkit
from engine.cg_holdem.judge import BotSeat, java_seed, play_game
from engine.cg_holdem.phh import pokerkit_can_replay
from engine.cg_holdem.rules import GameConfig
from engine.core.seeds import Purpose, match_key, unit_key

OUR_PASSES = 3


@dataclass(frozen=True)
class Speed:
    """Best CPU seconds of each side over the same games; the counts say what was compared."""

    games: int
    hands: int  # ours, cancelled hands included
    replayed_hands: int  # replayed in PokerKit
    inexpressible_hands: int  # short big blind, no more than another post: PokerKit cannot open them
    mismatches: int  # PokerKit replays with other final stacks, another actor, or refused
    ours_cpu: float  # one pass over the games, bots included
    pokerkit_cpu: float  # PokerKit's state machine alone
    bots_alone_cpu: float  # the bots answering their recorded inputs alone
    repeats: int

    @property
    def ratio(self) -> float:
        return self.pokerkit_cpu / self.ours_cpu

    @property
    def bots_share(self) -> float:
        return min(1.0, self.bots_alone_cpu / self.ours_cpu)

    def figures(self) -> list[tuple[str, float | int]]:
        """(label, value) rows as the benchmark prints them."""
        return [("games", self.games), ("hands (ours, incl. cancelled)", self.hands),
                ("hands replayed in PokerKit", self.replayed_hands),
                ("hands PokerKit cannot express (short big blind, no more than another post)",
                 self.inexpressible_hands),
                ("PokerKit replays with other final stacks, another actor, or refused", self.mismatches),
                ("ours: games per CPU second (bots included)", self.games / self.ours_cpu),
                ("PokerKit: games per CPU second (state machine only)", self.games / self.pokerkit_cpu),
                ("ours: hands per CPU second", self.hands / self.ours_cpu),
                ("PokerKit: hands per CPU second", self.replayed_hands / self.pokerkit_cpu),
                ("speed ratio (ours / PokerKit)", self.ratio),
                ("breakdown: bots' share of our time (their inputs replayed alone, approx.)", self.bots_share),
                (f"repeats (best time kept; ours: mean of {OUR_PASSES} passes each)", self.repeats)]


def speed(entries: list[str], *, games: int, seed: int, repeats: int = 3) -> Speed:
    require_pokerkit()  # before the games, not after them
    bot_makers = makers(entries)
    key = match_key(seed)
    config = GameConfig(players=4)

    def fresh_bots(g):
        bots = [m() for m in bot_makers]
        for k, b in enumerate(bots):
            b.new_game(unit_key(key, g * 4 + k, Purpose.BOT))
        return bots

    def one(g, seat=BotSeat):
        return play_game([seat(b) for b in fresh_bots(g)], seed=java_seed(unit_key(key, g, Purpose.DEAL)),
                         config=config)

    one(games)  # warm-up: loads the compiled kernels, not timed
    shown = [[] for _ in range(games)]  # per game, per seat: what the bot was shown (untimed)
    results = [one(g, seat=_recording_seat(BotSeat, shown[g])) for g in range(games)]
    played = [h for r in results for h in r.hands if not h.cancelled]
    plans = [pokerkit_plan(h) for h in played if pokerkit_can_replay(h)]
    mismatches = pokerkit_replay(plans, check_actors=True)  # untimed: the strict check
    ours = theirs = bots_alone = float("inf")
    # Both sides run single-threaded in this process; CPU time (not wall time) keeps other
    # work on a shared machine out of the figures. Alternate them, keep each side's best.
    # Our side is ~40x shorter, so one repeat times OUR_PASSES passes over the same games
    # (their mean, warm-up pass included) to be less at the mercy of a noisy moment.
    # The harness's own objects (recorded games, inputs, plans, PokerKit's modules) are
    # frozen out of the garbage collector: a full collection would otherwise walk them all
    # inside whichever side happens to trigger it. Each side's own garbage is still collected.
    gc.collect()
    gc.freeze()
    try:
        for _ in range(repeats):
            started = time.process_time()
            for _ in range(OUR_PASSES):
                replayed = [one(g).scores for g in range(games)]
            ours = min(ours, (time.process_time() - started) / OUR_PASSES)
            started = time.process_time()
            pokerkit_replay(plans)
            theirs = min(theirs, time.process_time() - started)
            started = time.process_time()
            _replay_bots([fresh_bots(g) for g in range(games)], shown)
            bots_alone = min(bots_alone, time.process_time() - started)
    finally:
        gc.unfreeze()
    assert replayed == [r.scores for r in results], "games must replay identically"
    return Speed(games=games, hands=sum(len(r.hands) for r in results), replayed_hands=len(plans),
                 inexpressible_hands=len(played) - len(plans), mismatches=mismatches, ours_cpu=ours,
                 pokerkit_cpu=theirs, bots_alone_cpu=bots_alone, repeats=repeats)


def _recording_seat(seat_class, shown: list):
    """A seat class that also keeps, per seat, every (setup, turn) its bot was shown."""

    def make(bot):
        seat = seat_class(bot)
        inputs = []
        shown.append(inputs)
        decide = seat.decide

        def recording_decide(setup, turn):
            inputs.append((setup, turn))
            return decide(setup, turn)

        seat.decide = recording_decide
        return seat

    return make


def _replay_bots(bots_per_game, shown) -> None:
    """Each fresh bot answers the inputs it was shown, in order (answers depend only on them)."""
    for bots, inputs in zip(bots_per_game, shown, strict=True):
        for bot, calls in zip(bots, inputs, strict=True):
            for setup, turn in calls:
                if setup is not None:
                    bot.start(setup)
                bot.act(turn)
