"""A scripted Hold'em Training contestant for the judge tests (stdlib only).

Usage: contestant.py MODE [N]. It checks every round for the first N hands (default: all),
then misbehaves as MODE says: check (never), example (RATE 100 then RAISE 5, like the
statement's example), garbage, unknown, overraise, zero_raise, rate_flood, burn (CPU), hog (memory).
"""

import sys

mode = sys.argv[1]
good_hands = int(sys.argv[2]) if len(sys.argv) > 2 else 10**9


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line or line.strip() == "-1":
        sys.exit(0)
    return line.split()


read()  # G
hog = []
while True:
    state = read()
    if state[0] in ("SCORE",):
        break
    if state[0] in ("RESULT", "OPP"):
        continue
    hand, stack = int(state[1]), int(state[3])
    read()  # ALICE
    read()  # BOARD
    if hand <= good_hands or mode == "check":
        say("ACTION CHECK")
    elif mode == "example":
        say("RATE 100")
        read()  # RATES
        say("ACTION RAISE 5")
    elif mode == "garbage":
        say("ACTION RAISE five")
    elif mode == "unknown":
        say("ACTION CALL")
    elif mode == "overraise":
        say(f"ACTION RAISE {stack + 1}")
    elif mode == "zero_raise":
        say("ACTION RAISE 0")
    elif mode == "rate_flood":
        while True:
            say("RATE 1000")
            read()
    elif mode == "burn":
        while True:
            pass
    elif mode == "hog":
        while True:
            hog.append(bytearray(16 * 2**20))
            hog[-1][::4096] = b"x" * len(hog[-1][::4096])
