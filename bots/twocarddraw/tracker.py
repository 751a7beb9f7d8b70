"""What a bot can know about the hand in progress, rebuilt from the tester's calls alone.

The server's moves are never announced: a raise shows as the next round1/round2 call with
more bets, a call as draw/showdown (or round2 at the next level), a fold as the next
new_hand. The tracker turns that into an observation record per hand, and gives policy
bots the public history (round-1 history index, own draw) they index their tables with.
"""

import itertools
from dataclasses import dataclass

import numpy as np

from engine.core import seeds
from engine.twocarddraw import rules as R
from engine.twocarddraw.state import BET1, DRAW_PLAYER


@dataclass(frozen=True)
class Observation:
    """One finished hand as the player saw it (server hand only at showdown)."""

    moves1: tuple[tuple[int, int], ...]  # server (bets faced, action) in round 1
    history: int  # round-1 history index, -1 if round 1 ended in a fold
    player_drew: int
    server_drew: int
    moves2: tuple[tuple[int, int], ...]
    shown: int  # server's final hand index at showdown, else -1


class HandTracker:
    def __init__(self):
        self._reset()

    def _reset(self) -> None:
        self.moves = ([], [])
        self.pending: tuple[int, int] | None = None  # (round 0/1, bets the server faces)
        self.first = -1
        self.history = -1
        self.player_drew = -1
        self.server_drew = -1
        self.shown = -1
        self.active = False

    # --- events seen by the bot -------------------------------------------------------------
    def new_hand(self) -> Observation | None:
        """Close the previous hand (a pending server decision was a fold); returns its record."""
        finished = None
        if self.active:
            if self.pending is not None:
                self._resolve(R.FOLD)
            finished = self._observation()
        self._reset()
        self.active = True
        return finished

    def facing(self, round_: int, bets: int) -> None:
        """round1/round2 with bets > 0: the server raised to `bets`."""
        if self.pending is not None:
            self._resolve(R.RAISE)
        if self.first < 0 and round_ == 0:
            self.first = R.SERVER

    def round_closed(self, round_: int, bets: int = 0) -> None:
        """draw (round 0) or showdown/round2-open (after round 0): the server called."""
        if self.pending is not None:
            self._resolve(R.CALL)
        if round_ == 0 and self.history < 0:
            self.history = R.history_index(bets, R.SERVER if self.first == R.SERVER else R.PLAYER)

    def acted(self, round_: int, bets: int, code: int) -> None:
        """The player answered with code (0 fold, 1 call/check, 2 raise/bet) facing `bets`."""
        if code == R.RAISE:
            if round_ == 0 and self.first < 0:
                self.first = R.PLAYER
            self.pending = (round_, bets + 1)
        elif code == R.CALL and bets == 0:
            self.pending = (round_, 0)  # a check: the server acts at 0 bets
        else:
            self.pending = None  # a call closes the round; a fold is reported at the next hand

    def showdown(self, opp1: int, opp2: int) -> Observation:
        self.round_closed(1)
        self.shown = R.hand_index(opp1, opp2)
        self.active = False
        return self._observation()

    def _resolve(self, action: int) -> None:
        round_, bets = self.pending
        self.moves[round_].append((bets, action))
        self.pending = None

    def _observation(self) -> Observation:
        return Observation(
            tuple(self.moves[0]), self.history, self.player_drew, self.server_drew, tuple(self.moves[1]), self.shown
        )


class TrackingBot:
    """Base for bots that answer from the public history: subclasses implement choose_*."""

    learns_across_hands = False
    judge_key: int | None = None  # the judge's key for this bot's own draws in the match (new_match)

    def __init__(self):
        self.tracker = HandTracker()
        self.bets = R.BetSizes()
        self._table = None

    def new_match(self, key: int) -> None:
        """Called by cardlab's judge before init (the contest's API gives a bot no seed): the match's key for
        the bot's own draws, so a match replays from its seed and two seeds draw differently."""
        self.judge_key = key

    def draw_key(self, seed: int) -> int:
        """The key of a stream of the bot's own draws: its config `seed`, mixed with the judge's match key when
        one was given (without it, as in a submission, the config seed alone)."""
        key = seeds.match_key(seed)
        return key if self.judge_key is None else seeds.unit_key(self.judge_key, key, seeds.Purpose.BOT)

    def init(self, bet1: int, bet2: int) -> int:
        self.bets = R.BetSizes(bet1, bet2)
        self.on_init()
        return 0

    def new_hand(self, card1: int, card2: int, winnings: int) -> int:
        finished = self.tracker.new_hand()
        if finished is not None:
            self.on_hand_over(finished)
        code = self.choose_round1(R.hand_index(card1, card2), 0)
        self.tracker.acted(0, 0, code)
        return code - 1  # 0 check, 1 bet

    def round1(self, card1: int, card2: int, bets: int) -> int:
        self.tracker.facing(0, bets)
        code = self.choose_round1(R.hand_index(card1, card2), bets)
        self.tracker.acted(0, bets, code)
        return code

    def draw(self, card1: int, card2: int, bets: int) -> int:
        self.tracker.round_closed(0, bets)
        drew = self.choose_draw(R.hand_index(card1, card2), self.tracker.history)
        self.tracker.player_drew = drew
        return drew

    def round2(self, card1: int, card2: int, bets1: int, bets2: int, drew: int) -> int:
        t = self.tracker
        if bets2 == 0:
            t.server_drew = drew
        else:
            t.facing(1, bets2)
        code = self.choose_round2(R.hand_index(card1, card2), t.history, t.player_drew, drew, bets2)
        t.acted(1, bets2, code)
        return code

    def showdown(self, card1: int, card2: int, opp1: int, opp2: int) -> int:
        self.on_hand_over(self.tracker.showdown(opp1, opp2))
        return 0

    def act(self, view) -> int:
        """The heads-up bot shape (engine.core.contract.HeadsUpPokerBot): the player's decision in a
        view of engine/twocarddraw/game.py, answered by the same choose_* hooks the contest's calls
        ask (betting codes 0 fold, 1 call/check, 2 raise/bet; a draw is the cards drawn). It reads
        the view only, so it changes nothing in the bot."""
        hand = R.hand_index(*view.cards)
        if view.phase == BET1:
            return self.choose_round1(hand, view.round_bets)
        if view.phase == DRAW_PLAYER:
            return self.choose_draw(hand, view.history)
        return self.choose_round2(hand, view.history, view.drew[R.PLAYER], view.drew[R.SERVER], view.round_bets)

    def current_policy(self) -> np.ndarray:
        """The answer in every situation of the hand about to be played (rules.py layout), asked
        of the choose_* hooks, which must not change the bot. A bot that does not learn across
        hands is asked once."""
        if self._table is None or getattr(self, "learns_across_hands", False):
            self._table = policy_table(self)
        return self._table

    # --- hooks ------------------------------------------------------------------------------
    def on_init(self) -> None:
        pass

    def on_hand_over(self, observation: Observation) -> None:
        pass

    def choose_round1(self, hand: int, bets: int) -> int:
        raise NotImplementedError

    def choose_draw(self, hand: int, history: int) -> int:
        raise NotImplementedError

    def choose_round2(self, hand: int, history: int, player_drew: int, server_drew: int, bets2: int) -> int:
        raise NotImplementedError


def policy_table(bot: TrackingBot) -> np.ndarray:
    table = np.zeros(R.N_PLAYER_ROWS, dtype=np.int64)
    for hand in range(R.N_HANDS):
        for bets in range(R.MAX_BETS + 1):
            table[R.player_round1_row(bets, hand)] = bot.choose_round1(hand, bets)
        for o in range(R.N_HISTORIES):
            table[R.player_draw_row(o, hand)] = bot.choose_draw(hand, o)
            for dp, ds, bets in itertools.product(range(3), range(3), range(R.MAX_BETS + 1)):
                table[R.player_round2_row(o, dp, ds, bets, hand)] = bot.choose_round2(hand, o, dp, ds, bets)
    return table


class PolicyBot(TrackingBot):
    """Plays a fixed table of player action codes (rules.py layout), e.g. a best response."""

    def __init__(self):
        super().__init__()
        self.policy = None

    def choose_round1(self, hand: int, bets: int) -> int:
        return int(self.policy[R.player_round1_row(bets, hand)])

    def choose_draw(self, hand: int, history: int) -> int:
        return int(self.policy[R.player_draw_row(history, hand)])

    def choose_round2(self, hand: int, history: int, player_drew: int, server_drew: int, bets2: int) -> int:
        return int(self.policy[R.player_round2_row(history, player_drew, server_drew, bets2, hand)])

    def current_policy(self) -> np.ndarray:
        return self.policy
