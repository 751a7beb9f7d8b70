"""A first Splendor agent: buys the face-up card worth most points it can afford, else takes chips.

The arbiter starts this program once per move, in this folder, with the position on stdin:
  players my_seat / round / the board's chips (red green blue white black gold) /
  three lines, one per level: cards left face down, then the four face-up ids (0 = empty) /
  the nobles (a count, then ids) / then four lines per seat: its chips, its bought cards, its
  reserved cards, its nobles (lists are a count then ids).
It prints one move: `1 k c1..ck` take k different colours, `2 c` take two of one colour,
`3 id` reserve, `4 id` buy; past 10 chips, one colour to give back per extra chip.
A move the arbiter refuses is a pass. State between moves only through files in this folder.
cards.csv (beside this file) lists every card: its level, bonus colour, points and cost.
"""

import csv
import sys
from pathlib import Path

COLOURS = ("red", "green", "blue", "white", "black")
GOLD = 5

cards = {}
with open(Path(__file__).with_name("cards.csv")) as table:
    for row in csv.DictReader(table):
        cards[int(row["id"])] = (int(row["points"]), int(row["bonus_index"]), [int(row[f"cost_{c}"]) for c in COLOURS])


def shortfall(card: int, chips: list[int], bonus: list[int]) -> int:
    """Chips missing to buy the card after bonuses; gold covers this much."""
    return sum(max(0, cost - bonus[i] - chips[i]) for i, cost in enumerate(cards[card][2]))


def main() -> None:
    rows = [[int(w) for w in text.split()] for text in sys.stdin.read().splitlines() if text.strip()]
    players, me = rows[0]
    board = rows[2]
    face_up = [c for level in rows[3:6] for c in level[1:] if c > 0]
    mine = 7 + 4 * (me - 1)  # after players/round/board/3 levels/nobles, four lines per seat
    chips, bought = rows[mine], rows[mine + 1][1:]
    bonus = [0] * 5
    for card in bought:
        bonus[cards[card][1]] += 1
    affordable = [c for c in face_up if shortfall(c, chips, bonus) <= chips[GOLD]]
    if affordable:
        print(f"4 {max(affordable, key=lambda c: (cards[c][0], -sum(cards[c][2])))}")
        return
    room = 10 - sum(chips)  # never pass 10 chips, so nothing need be given back
    take = [c for c in sorted(range(5), key=lambda c: -board[c]) if board[c] > 0][:max(0, min(3, room))]
    print(" ".join(map(str, [1, len(take), *take])))


main()
