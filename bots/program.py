"""A user's program as a candidate: a command line whose parameters a sweep varies.

The parameters reach the program either substituted into the command (`{name}` placeholders,
each value quoted as one word) or as environment variables (added to the contestant's scrubbed
environment). Either way the config records the parameters, so MLflow logs them and `pick`
exports the command with the chosen values.
"""

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from bots.base import ConfigError

PASS_AS = ("args", "env")
PROGRAM_BOT = "program"  # the bot name a program's matches are logged under
_PLACEHOLDER = re.compile(r"{([A-Za-z_][A-Za-z0-9_]*)}")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class ProgramConfig:
    template: str  # the command line, with {name} placeholders when pass_as is "args"
    params: tuple[tuple[str, str], ...] = ()
    pass_as: str = "args"

    def __post_init__(self):
        check_template(self.template, [k for k, _ in self.params], self.pass_as)

    def argv(self) -> list[str]:
        words = shlex.split(self.template)
        if self.pass_as == "args":
            values = dict(self.params)
            words = [_PLACEHOLDER.sub(lambda m: values[m.group(1)], word) for word in words]
        return words

    def env(self) -> dict[str, str]:
        return dict(self.params) if self.pass_as == "env" else {}

    def command_line(self) -> str:
        """The command as a shell would run it, environment included (what an export runs)."""
        exports = "".join(f"{k}={shlex.quote(v)} " for k, v in self.env().items())
        return exports + shlex.join(self.argv())


def check_template(template: str, keys: list[str], pass_as: str) -> None:
    """Refuse, in one line, a template that the parameters do not fit."""
    if pass_as not in PASS_AS:
        raise ConfigError(f"--pass-as must be one of {', '.join(PASS_AS)}, got {pass_as!r}")
    try:
        words = shlex.split(template)
    except ValueError as exc:
        raise ConfigError(f"--program {template!r} is not a command line: {exc}") from None
    if not words:
        raise ConfigError("--program needs a command, e.g. --program './my_bot --aggression {a}'")
    placeholders = sorted({m.group(1) for m in _PLACEHOLDER.finditer(template)})
    if pass_as == "args":
        missing, unused = sorted(set(placeholders) - set(keys)), sorted(set(keys) - set(placeholders))
        if missing:
            raise ConfigError(f"--program has placeholder(s) {missing} with no value: give them with --grid or "
                              f"--set (e.g. --grid {missing[0]}=1,2)")
        if unused:
            raise ConfigError(f"--grid/--set key(s) {unused} do not appear in --program as {{{unused[0]}}}: "
                              f"add the placeholder, or pass them as environment variables with --pass-as env")
    else:
        if placeholders:
            raise ConfigError(f"--program has placeholder(s) {placeholders} but --pass-as env passes parameters "
                              f"as environment variables, not in the command")
        bad = [k for k in keys if not _ENV_NAME.match(k)]
        if bad:
            raise ConfigError(f"{bad} cannot be environment variable names (letters, digits and _)")


def write_bundle(config: ProgramConfig, out: Path, *, note: str = "") -> Path:
    """`out/run`: the program with its chosen parameters, paths made absolute, ready to submit
    or to give to `cardlab judge` (extra arguments are passed on)."""
    from engine.core.process import absolute_argv

    out.mkdir(parents=True, exist_ok=True)
    exports = "".join(f"{k}={shlex.quote(v)} " for k, v in config.env().items())
    run = out / "run"
    run.write_text("#!/bin/sh\n" + (f"# {note}\n" if note else "")
                   + f"exec {'env ' + exports if exports else ''}{shlex.join(absolute_argv(config.argv()))} \"$@\"\n")
    run.chmod(0o755)
    return run
