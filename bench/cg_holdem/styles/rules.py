"""Style program: rule-based. Preflop tiers by equity against a random hand (premium raises and
calls all-ins, good hands open and call, the rest folds); postflop by the made hand (two pair
or better bets and raises, a pair bets small and calls, nothing checks and folds)."""

from common import run

PREMIUM, GOOD, PLAYABLE = 0.63, 0.56, 0.50


def decide(t, memory, rng):
    if not t.opponents:
        return "CALL" if t.call else "CHECK"
    s = t.strength
    if not t.turn.board:
        if s >= PREMIUM:
            return t.bet(max(3 * t.call, 3 * t.bb))
        if not t.raised:
            return t.bet(2.5 * t.bb - t.mine) if s >= PLAYABLE else t.passive()
        return "CALL" if s >= GOOD and t.call <= 0.3 * (t.stack + t.mine) else t.passive()
    made = t.made()
    if made >= 2:
        return t.pot_bet(0.75)
    if made == 1:
        if t.call == 0:
            return t.pot_bet(0.4)
        return "CALL" if t.call <= 0.5 * t.pot else "FOLD"
    return t.passive()


if __name__ == "__main__":
    run(decide)
