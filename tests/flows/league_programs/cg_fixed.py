"""A stdlib CodinGame Hold'em program for leagues: reads every turn, answers by a fixed rule.
Usage: cg_fixed.py call|check|allin|mix (mix: ALL-IN on even rounds, CALL otherwise)."""

import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "call"
answer = {"call": "CALL", "check": "CHECK", "allin": "ALL-IN"}
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
    print(answer.get(mode) or ("ALL-IN" if round_ % 2 == 0 else "CALL"), flush=True)
