"""A Hold'em Training contestant for program sweeps: raises a fixed size every round it can
(else checks). The size comes from argv[1], or from the RAISE_SIZE environment variable."""

import os
import sys

size = int(sys.argv[1]) if len(sys.argv) > 1 else int(os.environ["RAISE_SIZE"])


def read():
    line = sys.stdin.readline()
    if not line or line.strip() == "-1":
        sys.exit(0)
    return line.split()


read()  # the hand count
while True:
    state = read()
    if state[0] == "SCORE":
        break
    if state[0] in ("RESULT", "OPP"):
        continue
    stack = int(state[3])
    read()  # ALICE
    read()  # BOARD
    print(f"ACTION RAISE {min(size, stack)}" if stack > 0 else "ACTION CHECK", flush=True)
