"""Style program: the loose-aggressive stealer. Raises nearly every hand first in, re-raises
often, c-bets every flop it raised before, barrels when checked to, gives up to resistance
without a made hand."""

from common import run

SEED = 11  # the program's own randomness: the same every game


def decide(t, memory, rng):
    if not t.opponents:
        return "CALL" if t.call else "CHECK"
    if not t.turn.board:
        if not t.raised:
            if t.strength > 0.36 or rng.random() < 0.5:
                memory["raised_pre"] = True
                return t.bet(3 * t.bb - t.mine)
            return t.passive() if t.call > t.bb / 2 else "CALL"
        if t.strength > 0.6 or (t.strength > 0.5 and rng.random() < 0.4):
            memory["raised_pre"] = True
            return t.bet(3 * t.call)
        return "CALL" if t.strength > 0.47 and t.call < 0.25 * t.stack else "FOLD"
    made = t.made()
    if t.call == 0:
        if made >= 2 or memory.get("raised_pre") or rng.random() < 0.45:
            return t.pot_bet(0.6 if made < 2 else 0.8)
        return "CHECK"
    if made >= 2:
        return t.pot_bet(1.0)
    if made == 1:
        return "CALL" if t.pot_odds() < 0.4 else "FOLD"
    return "FOLD"


if __name__ == "__main__":
    run(decide, seed=SEED)
