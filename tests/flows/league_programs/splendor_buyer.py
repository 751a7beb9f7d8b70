"""A stdlib Splendor agent for league tests: buys the best affordable face-up card (by points,
or the cheapest with `cheap`), else takes up to 3 colours without passing 10 chips.
Usage: splendor_buyer.py CARDS_CSV [points|cheap|take]; one move per run (stdin in, move out)."""

import csv
import sys

cards = {int(r["id"]): (int(r["points"]), int(r["bonus_index"]),
                        [int(r[f"cost_{c}"]) for c in ("red", "green", "blue", "white", "black")])
         for r in csv.DictReader(open(sys.argv[1]))}
style = sys.argv[2] if len(sys.argv) > 2 else "points"
rows = [[int(w) for w in line.split()] for line in sys.stdin.read().splitlines()]
players, me = rows[0]
board = rows[2]
face_up = [c for row in rows[3:6] for c in row[1:] if c > 0]
seat = 7 + 4 * (me - 1)
chips, owned = rows[seat], rows[seat + 1][1:]
bonus = [0] * 5
for c in owned:
    bonus[cards[c][1]] += 1


def short(card):
    return sum(max(0, cost - bonus[i] - chips[i]) for i, cost in enumerate(cards[card][2]))


affordable = [c for c in face_up if short(c) <= chips[5]]
if affordable and style != "take":
    key = (lambda c: (-cards[c][0], sum(cards[c][2]))) if style == "points" else (lambda c: sum(cards[c][2]))
    print(f"4 {min(affordable, key=key)}")
else:
    room = 10 - sum(chips)
    colours = [i for i in sorted(range(5), key=lambda i: -board[i]) if board[i] > 0][:max(0, min(3, room))]
    print(" ".join(map(str, [1, len(colours), *colours])))
