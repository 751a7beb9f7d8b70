"""A user's program as a candidate: a command line whose parameters a sweep varies.

The parameters reach the program either substituted into the command (`{name}` placeholders,
each value quoted as one word) or as environment variables (added to the contestant's scrubbed
environment). Either way the config records the parameters, so MLflow logs them and `pick`
exports the command with the chosen values.

A program is identified by the hash of its files (`program_version`, the one hash leagues use
too) and of the folder it lives in (`folder_version`), recorded with every config it plays: a
rebuilt binary or an edited module is then a different program, named as such.
"""

import hashlib
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field
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
    # What the program is now, filled in on creation (not part of the config's identity): recorded with
    # its results, so a changed program is told apart from a changed config. "" when the program is not found.
    program_hash: str = field(default="", compare=False)
    folder_hash: str = field(default="", compare=False)

    def __post_init__(self):
        check_template(self.template, [k for k, _ in self.params], self.pass_as)
        if not self.program_hash:
            command = shlex.join(self.argv())
            try:
                object.__setattr__(self, "program_hash", program_version(command))
                object.__setattr__(self, "folder_hash", folder_version(program_files(command)[0].parent))
            except ConfigError:  # a program not found fails when played, with its own reason
                pass

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


BUNDLE_FILES = ("config.json", "bot.json")  # an exported bundle's launcher reads these beside it
FOLDER_FILES, FOLDER_BYTES = 500, 16 << 20  # a folder larger than this is not hashed ("" instead)
_NOT_PROGRAM = ("picked.json",)  # what cardlab writes beside a bundle's program, not part of it


def program_files(command: str) -> list[Path]:
    """The files whose bytes make a program's version.

    Every argument after the first that names an existing file counts (the first word is then
    an interpreter, e.g. `python3 bot.py`, and an interpreter upgrade is not a new version);
    with no such argument, the first word, resolved on PATH, is the program. A launcher beside
    a bundle's config (config.json, bot.json: what `cardlab export` writes) counts those too."""
    argv = shlex.split(command)
    if not argv:
        raise ConfigError("a program's command is empty; accepted: a program and its arguments")
    files = [Path(a) for a in argv[1:] if os.path.isfile(a)]
    if not files:
        found = argv[0] if "/" in argv[0] and os.path.isfile(argv[0]) else shutil.which(argv[0])
        if found is None:
            raise ConfigError(f"program {argv[0]!r} not found (neither a file nor on PATH)")
        files = [Path(found)]
    bundle = [f.parent / name for f in files[:1] for name in BUNDLE_FILES if (f.parent / name).is_file()]
    return files + bundle


def program_version(command: str) -> str:
    """12 hex digits of sha256 over the program's files (`program_files`) and the command's other words
    (options are part of the program; where its files are is not)."""
    digest = hashlib.sha256()
    files = program_files(command)
    for word in shlex.split(command)[1:]:
        if not os.path.isfile(word):
            digest.update(b"arg\0" + word.encode() + b"\0")
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def folder_version(folder: Path) -> str:
    """12 hex digits of sha256 over the files under the program's folder (names and bytes; hidden entries and
    __pycache__ left out): an edited module the program imports is a new version. "" for a folder too large to
    read each time (over FOLDER_FILES files or FOLDER_BYTES bytes: a program kept among other things)."""
    digest, count, size = hashlib.sha256(), 0, 0
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(names):
            path = Path(root) / name
            if name.startswith(".") or name in _NOT_PROGRAM or not path.is_file():
                continue
            count, size = count + 1, size + path.stat().st_size
            if count > FOLDER_FILES or size > FOLDER_BYTES:
                return ""
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def source_hints(config: ProgramConfig) -> list[str]:
    """How to make the chosen values the program's own defaults, from where its command passes each one."""
    if config.pass_as == "env":
        return [f"your program reads {k} from the environment variable {k}: set its default to {v}"
                for k, v in config.params]
    words = shlex.split(config.template)
    try:
        script = words.index(str(program_files(shlex.join(config.argv()))[0])) if len(words) > 1 else 0
    except (ConfigError, ValueError):
        script = 0
    hints = []
    for k, v in config.params:
        at = next((i for i, word in enumerate(words) if "{" + k + "}" in word), None)
        if at is None:
            continue
        where = f"argv[{at - script}]" if words[at] == "{" + k + "}" else f"the argument {words[at]!r}"
        hints.append(f"your program reads {k} from {where} of its command line: set its default to {v}")
    return hints


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
