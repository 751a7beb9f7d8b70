"""`--env K=V` on the judge commands: the only variables of the user's a contestant sees
(besides PATH, LANG and LC_ALL; engine.core.process scrubs the rest)."""

import re

from cardlab.errors import fail

ENV_HELP = "K=V variable for the program (repeatable); it sees no other variable of yours but PATH, LANG, LC_ALL"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def parse_env(pairs: list[str]) -> dict[str, str]:
    env = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not _NAME.fullmatch(name):
            fail(f"--env {pair!r}: accepted: NAME=VALUE, NAME made of letters, digits and _ (not first a digit)")
        env[name] = value
    return env
