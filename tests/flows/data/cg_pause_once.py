"""A CodinGame Hold'em contestant that always answers CALL, but waits argv[1] seconds (asleep: no CPU)
before its third answer: a busy machine's stall, for the CPU-clock tests."""

import sys
import time

pause = float(sys.argv[1])
players = None
answers = 0
while True:
    line = sys.stdin.readline()
    if not line:
        break
    if players is None:
        setup = [line] + [sys.stdin.readline() for _ in range(7)]
        players = int(setup[6])
        line = sys.stdin.readline()
    sys.stdin.readline()  # hand
    for _ in range(players + 2):  # stacks, board, cards
        sys.stdin.readline()
    for _ in range(3):  # actions, showdowns, possible actions
        for _ in range(int(sys.stdin.readline())):
            sys.stdin.readline()
    answers += 1
    if answers == 3:
        time.sleep(pause)
    print("CALL", flush=True)
