"""A first TwoCardDraw bot: bets and calls with pairs, draws to its high card otherwise.

Cards are values 0..4; a hand is two cards, pairs beat non-pairs. The tester calls these
methods (answers: 0 fold, 1 check/call, 2 bet/raise; a fold is never needed when checking is free):
init(bet1, bet2) once; new_hand(c1, c2, winnings) -> 0 check or 1 bet;
round1(c1, c2, bets) after the server raised; draw(c1, c2, bets) -> cards to replace (0..2,
drawing 1 replaces the lower card); round2(c1, c2, bets1, bets2, drew) -> 0/1/2;
showdown(c1, c2, o1, o2) when the hand is shown. Keep state on self: one object plays the test.
"""

MAX_BETS = 3


class Bot:
    def init(self, bet1, bet2):
        self.bets = (bet1, bet2)
        return 0

    def new_hand(self, c1, c2, winnings):
        return 1 if c1 == c2 else 0

    def round1(self, c1, c2, bets):
        if c1 == c2:
            return 2 if bets < MAX_BETS else 1
        return 1 if max(c1, c2) >= 3 else 0

    def draw(self, c1, c2, bets):
        return 0 if c1 == c2 else 1

    def round2(self, c1, c2, bets1, bets2, drew):
        if c1 == c2:
            return 2 if bets2 < MAX_BETS else 1
        return 1 if bets2 == 0 or max(c1, c2) == 4 else 0

    def showdown(self, c1, c2, o1, o2):
        return 0
