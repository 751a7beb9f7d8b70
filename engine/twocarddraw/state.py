"""One hand's public state: whose turn, what is legal, and apply(action) -> frozen event.

Betting codes follow rules.py: 0 fold, 1 call (check when nothing is owed), 2 raise (bet).
Each round allows at most 3 bets, the opening bet included; the player always acts first.
"""

from dataclasses import dataclass, field

from engine.core.errors import IllegalMove
from engine.twocarddraw import rules as R

BET1, DRAW_PLAYER, DRAW_SERVER, BET2, OVER = "bet1", "draw_player", "draw_server", "bet2", "over"
LETTERS = {R.FOLD: "f", R.CALL: "c", R.RAISE: "r"}
OPEN_LETTERS = {R.CALL: "k", R.RAISE: "b"}


@dataclass(frozen=True)
class Event:
    phase: str
    actor: int  # rules.PLAYER or rules.SERVER
    code: int  # betting code, or cards drawn
    bets: int  # bets in the round after the action (draws: unused, 0)


@dataclass
class HandState:
    bets: R.BetSizes
    phase: str = BET1
    actor: int = R.PLAYER
    round_bets: int = 0
    put: list[int] = field(default_factory=lambda: [1, 1])  # ante included, [player, server]
    round_actions: int = 0
    first_raiser: int = -1
    history: int = -1  # index of the finished round-1 history (rules.HISTORIES)
    bets1: int = 0
    drew: list[int] = field(default_factory=lambda: [-1, -1])
    folded: int = -1  # who folded, -1 = nobody
    events: list[Event] = field(default_factory=list)

    def legal(self) -> tuple[int, ...]:
        if self.phase in (DRAW_PLAYER, DRAW_SERVER):
            return (0, 1, 2)
        if self.phase == OVER:
            return ()
        if self.round_actions == 0:
            return (R.CALL, R.RAISE)  # check or bet
        if self.round_bets == R.MAX_BETS:
            return (R.FOLD, R.CALL)
        return (R.FOLD, R.CALL, R.RAISE)

    def apply(self, code: int) -> Event:
        if code not in self.legal():
            raise IllegalMove(f"{code} is not legal in {self.phase} (legal: {self.legal()})")
        event = Event(self.phase, self.actor, code, self.round_bets)
        if self.phase == DRAW_PLAYER:
            self.drew[R.PLAYER] = code
            self.phase, self.actor = DRAW_SERVER, R.SERVER
        elif self.phase == DRAW_SERVER:
            self.drew[R.SERVER] = code
            self.phase, self.actor = BET2, R.PLAYER
            self.round_bets, self.round_actions, self.first_raiser = 0, 0, -1
        else:
            event = self._bet(code)
        self.events.append(event)
        return event

    @property
    def bet_size(self) -> int:
        return self.bets.bet1 if self.phase == BET1 else self.bets.bet2

    def profit(self, player_hand: int, server_hand: int) -> int:
        """The player's profit once the hand is over (hands as strength indexes)."""
        if self.folded == R.SERVER:
            return self.put[R.SERVER]
        if self.folded == R.PLAYER:
            return -self.put[R.PLAYER]
        return self.put[R.PLAYER] * ((player_hand > server_hand) - (player_hand < server_hand))

    def round_letters(self, phase: str) -> str:
        """The round's actions as letters, player first and alternating (k/b open, f/c/r after)."""
        letters = []
        for e in self.events:
            if e.phase == phase:
                opening = not letters and e.actor == R.PLAYER
                letters.append((OPEN_LETTERS if opening else LETTERS)[e.code])
        return "".join(letters)

    def _bet(self, code: int) -> Event:
        me, other, phase = self.actor, 1 - self.actor, self.phase
        opening = self.round_actions == 0
        self.round_actions += 1
        if code == R.FOLD:
            self.folded, self.phase = me, OVER
        elif code == R.RAISE:
            if self.first_raiser < 0:
                self.first_raiser = me
            self.round_bets += 1
            self.put[me] = self.put[other] + self.bet_size
            self.actor = other
        elif opening:  # a check passes the turn
            self.actor = other
        else:
            self.put[me] = self.put[other]
        event = Event(phase, me, code, self.round_bets)
        if code == R.CALL and not opening:
            self._end_round()
        return event

    def _end_round(self) -> None:
        if self.phase == BET1:
            self.bets1 = self.round_bets
            self.history = R.history_index(self.round_bets, R.SERVER if self.first_raiser == R.SERVER else R.PLAYER)
            self.phase, self.actor = DRAW_PLAYER, R.PLAYER
        else:
            self.phase = OVER
