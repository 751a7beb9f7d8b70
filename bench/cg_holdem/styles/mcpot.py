"""Style program: Monte Carlo against pot odds. Equity against as many random hands as there are
opponents (a fixed 150 deals); bets the pot in proportion to the edge over a fair share, calls
when the equity beats the pot odds, checks or folds otherwise."""

from common import pure_eval, run

SEED = 5  # the program's own randomness: the same every game


def decide(t, memory, rng):
    if not t.opponents:
        return "CALL" if t.call else "CHECK"
    n = len(t.opponents)
    eq = pure_eval.equity_vs_random_py(t.turn.cards, t.turn.board, n, 150, rng)
    fair = 1 / (n + 1)
    if eq > fair + 0.25 and t.min_bet:
        return t.pot_bet(min(1.5, (eq - fair) * 2))
    if t.call == 0:
        return "CHECK"
    return "CALL" if eq > t.pot_odds() else "FOLD"


if __name__ == "__main__":
    run(decide, seed=SEED)
