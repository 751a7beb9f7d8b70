"""A first CodinGame Hold'em bot: plays pairs and high cards, folds the rest.

The first turn starts with eight setup lines (small blind, big blind, hands per level, level
multiplier, buy-in, first big blind seat, players, your seat). Every turn then gives:
  round, hand; one `stack chips_in_hand` line per seat; the board (5 cards, X when not dealt);
  your two cards (e.g. As_Td); a count then the actions since your last turn; a count then the
  hands shown down since your last turn; a count then the actions you may answer with
  (CALL, ALL-IN, BET_<min>, CHECK, FOLD).
Answer one line: FOLD, CHECK, CALL, ALL-IN or BET x (x chips added now); `;text` after it is chat.
An answer the referee cannot read is a FOLD. Debug output goes to stderr.
"""

import sys

RANKS = "23456789TJQKA"
# the lowest card of a hand we play (pairs are always played); a sweep passes another as argv[1]
LOWEST = sys.argv[1] if len(sys.argv) > 1 else "T"


def line() -> str:
    text = sys.stdin.readline()
    if not text:
        sys.exit(0)  # the game is over
    return text.strip()


def lines_counted() -> list[str]:
    return [line() for _ in range(int(line()))]


def strong(cards: str) -> bool:
    """A pocket pair, or both cards LOWEST or better."""
    a, b = cards.split("_")
    return a[0] == b[0] or min(RANKS.index(a[0]), RANKS.index(b[0])) >= RANKS.index(LOWEST)


def main() -> None:
    setup = None
    while True:
        first = line()
        if setup is None:
            setup = [first] + [line() for _ in range(7)]
            first = line()
        players = int(setup[6])
        round_, hand = int(first), int(line())
        stacks = [tuple(map(int, line().split())) for _ in range(players)]
        board, cards = line(), line()
        lines_counted()  # actions since my last turn
        lines_counted()  # hands shown down since my last turn
        possible = lines_counted()
        if strong(cards):
            answer = next((a for a in ("CALL", "ALL-IN", "CHECK") if a in possible), "FOLD")
        else:
            answer = "CHECK" if "CHECK" in possible else "FOLD"
        print(f"{answer};{round_}/{hand} {len(stacks)} seats {board}", flush=True)


main()
