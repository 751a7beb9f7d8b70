"""`--env K=V` on the judge commands: the only variables of the user's a contestant sees
(besides PATH, LANG and LC_ALL; engine.core.process scrubs the rest)."""

import re

from cardlab.errors import fail
from cardlab.options import pairs

ENV_HELP = "K=V variable for the program (repeatable); it sees no other variable of yours but PATH, LANG, LC_ALL"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


ACCEPTED = "NAME=VALUE, NAME made of letters, digits and _ (not first a digit)"


def parse_env(items: list[str]) -> dict[str, str]:
    env = {}
    for name, value in pairs(items, "--env", accepted=ACCEPTED, strip=False):  # a value is kept as typed
        if not _NAME.fullmatch(name):
            fail(f"--env {name}={value!r}: {name!r} is not a variable name; accepted: {ACCEPTED}")
        env[name] = value
    return env
