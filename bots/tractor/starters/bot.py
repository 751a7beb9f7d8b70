"""A first Tractor simulator: reads every case and answers in the contest's shape.

Input: the number of cases; per case a header `Main Dealer CR1 CR2` (main suit H S C D or O,
the dealer's name, the two teams' current ranks), then the tricks: four plays each, the leader's
first, every play a run of two-letter cards (suit then rank, or BJ / RJ), until each player has
played 25 cards. Output per case: `Case #k:`, the points P, then `CR1 CR2 NextDealer` (or
`Winner: Team X`). This starter reads the tricks but scores nothing yet: working out who won each
trick, the points and the next ranks is the contest.
"""

import sys


def main() -> None:
    tokens = sys.stdin.read().split()
    at = 0
    cases = int(tokens[at])
    at += 1
    out = []
    for k in range(1, cases + 1):
        main_suit, dealer, rank1, rank2 = tokens[at:at + 4]
        at += 4
        played = 0
        while played < 4 * 25:  # a play is one token of concatenated two-letter cards
            played += len(tokens[at]) // 2
            at += 1
        out += [f"Case #{k}:", "0", f"{rank1} {rank2} {dealer}"]
    print("\n".join(out))


main()
