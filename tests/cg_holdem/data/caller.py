"""A contestant program for the judge tests: reads the protocol, answers CALL.
argv[1] (optional): seconds to sleep before answering from that round on; argv[2]: the round;
argv[3]: another answer to give every turn (e.g. FOLD); argv[4] `once`: sleep at one turn only (a stall)."""

import sys
import time

delay = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
from_round = int(sys.argv[2]) if len(sys.argv) > 2 else 1
answer = sys.argv[3] if len(sys.argv) > 3 else "CALL;calling"
once = sys.argv[4:5] == ["once"]
players = None
while True:
    line = sys.stdin.readline()
    if not line:
        break
    if players is None:
        setup = [line] + [sys.stdin.readline() for _ in range(7)]
        players = int(setup[6])
        line = sys.stdin.readline()
    round_ = int(line)
    sys.stdin.readline()  # hand
    for _ in range(players + 2):  # stacks, board, cards
        sys.stdin.readline()
    for _ in range(3):  # actions, showdowns, possible actions
        for _ in range(int(sys.stdin.readline())):
            sys.stdin.readline()
    if delay and round_ >= from_round:
        time.sleep(delay)
        delay = 0.0 if once else delay
    print(answer, flush=True)
