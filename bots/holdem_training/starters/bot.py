"""A first Hold'em Training bot: asks the judge for its winning chances, raises when they are good.

The judge writes the number of hands, then before each decision three lines:
  STATE hand round my_stack opp_stack pot board_count
  ALICE suit1 value1 suit2 value2
  BOARD (board_count cards, as suit value pairs)
Answer one of: ACTION CHECK | ACTION FOLD | ACTION RAISE x  (1 <= x <= my_stack)
or RATE t first (t random deals; the judge answers `RATES win tie` and waits for your action).
Between decisions you may read OPP ..., RESULT delta; after the last hand, SCORE w.
Debug output goes to stderr: stdout is read by the judge.
"""

import sys

ROLLOUTS = 60  # the match allows 3,000,000 rollouts: 10,000 hands x 4 rounds x 60 stays inside
# winning chance (ties count half) from which we put chips in; a sweep passes other values as argv[1]
RAISE_ABOVE = float(sys.argv[1]) if len(sys.argv) > 1 else 0.62


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def words() -> list[str]:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)  # the judge closed the match
    return line.split()


def decide(my_stack: int, pot: int) -> str:
    say(f"RATE {ROLLOUTS}")
    _, win, tie = words()  # RATES win tie
    chance = float(win) + float(tie) / 2
    if chance >= RAISE_ABOVE and my_stack > 0:
        return f"ACTION RAISE {max(1, min(my_stack, pot))}"
    return "ACTION CHECK"


def main() -> None:
    words()  # the number of hands
    while True:
        first = words()
        if first[0] == "SCORE":
            return
        if first[0] != "STATE":  # OPP ... or RESULT ...: nothing to answer
            continue
        _, hand, round_, my_stack, opp_stack, pot, board_count = first
        words()  # ALICE: your two cards
        words()  # BOARD: the cards on the table
        say(decide(int(my_stack), int(pot)))


main()
