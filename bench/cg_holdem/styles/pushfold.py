"""Style program: pure push/fold at every stack. All-in first in with a share of hands that
grows as the stack shrinks against the blinds (Harrington's M zones), all-in over a raise with
the best, calls an all-in with a range by pot odds; never plays after the flop."""

from common import run


def decide(t, memory, rng):
    if not t.opponents:
        return "CALL" if t.call else "CHECK"
    if t.turn.board:
        return t.passive()
    m = (t.stack + t.mine) / (t.bb * 1.5 * max(1, len(t.opponents)))  # stack in orbits of blinds
    push_cut = 0.62 if m > 10 else 0.55 if m > 5 else 0.5 if m > 2 else 0.42
    if not t.raised:
        return "ALL-IN" if t.strength >= push_cut and "ALL-IN" in t.turn.possible else t.passive()
    return "CALL" if t.strength >= max(0.6, 0.45 + t.pot_odds() * 0.4) else "FOLD"


if __name__ == "__main__":
    run(decide)
