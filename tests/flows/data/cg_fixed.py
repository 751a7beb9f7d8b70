"""A CodinGame Hold'em contestant for program sweeps: answers argv[1] (e.g. CALL, FOLD) every turn."""

import sys

answer = sys.argv[1]
players = None
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
    print(answer, flush=True)
