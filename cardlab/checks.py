"""Checks of command-line values, run by typer while it parses the arguments, so a bad value
stops the command before anything is played or logged: one line naming the option and what
it accepts, exit code 2.

Use them as option callbacks: ``typer.Option(10_000, "--hands", callback=checks.count)``. Every int or
float option and argument is also held to ASCII digits (ascii_numbers, installed when this module loads).
"""

import os
import re
import shlex
import shutil
import sys
import typing
from pathlib import Path

import typer

from bots.base import SEED_MAX
from cardlab.errors import fail

COUNT_MAX = 1_000_000_000  # units, games, rounds, chunk sizes, workers: far past a day of play
LIMIT_MAX = 1_000_000  # seconds (11 days) or MB (1 TB)
DUCKDB_MAGIC = b"DUCK"  # bytes 8-11 of every DuckDB database file
PROGRAMS = "an executable file or a command on PATH (and the script it runs must exist)"
# Programs that run a script named by their first argument: that script must exist too.
INTERPRETERS = {"python", "python3", "sh", "bash", "node", "ruby", "perl", "java", "pypy", "pypy3"}


def _name(param: typer.CallbackParam) -> str:
    return max(param.opts, key=len) if param.opts else str(param.name)


def count(param: typer.CallbackParam, value: int | None) -> int | None:
    """A count of things to play or run: 1 or more."""
    if value is not None and not 1 <= value <= COUNT_MAX:
        fail(f"{_name(param)} {value} is outside the accepted range [1, {COUNT_MAX:,}]")
    return value


def seed(param: typer.CallbackParam, value: int | None) -> int | None:
    """A match seed. The hand log stores seeds as 64-bit signed integers, so seeds of 2^63 and
    up are refused rather than wrapped (which would log a different seed from the one played)."""
    if value is not None and not 0 <= value <= SEED_MAX:
        fail(f"{_name(param)} {value} is outside the accepted range [0, 2^63 - 1]")
    return value


def java_seed(param: typer.CallbackParam, value: int | None) -> int | None:
    """A referee seed that is a Java long (CodinGame): any non-zero 64-bit signed integer."""
    if value is not None and (value == 0 or not -SEED_MAX - 1 <= value <= SEED_MAX):
        fail(f"{_name(param)} {value} is outside the accepted range: a non-zero Java long, -2^63 .. 2^63 - 1")
    return value


def within(lo: int, hi: int):
    """A callback accepting integers in [lo, hi]."""

    def check(param: typer.CallbackParam, value: int | None) -> int | None:
        if value is not None and not lo <= value <= hi:
            fail(f"{_name(param)} {value} is outside the accepted range [{lo:,}, {hi:,}]")
        return value

    return check


def not_blank(accepted: str):
    """A callback refusing an empty or blank value (say, an unset shell variable), which a command
    would otherwise read as "not given" and run its default."""

    def check(param: typer.CallbackParam, value: str | None) -> str | None:
        if value is not None and not value.strip():
            fail(f"{_name(param)} {value!r} is empty; accepted: {accepted}")
        return value

    return check


bot_name = not_blank("a bot name (see `cardlab games`), or leave the option out for the game's default")
sweep_id = not_blank("a sweep id as the sweep printed it (s-...)")


def _typed_empty(param: typer.CallbackParam, value: Path | None, accepted: str) -> None:
    """Stop on a path option given as '' (an unset shell variable). Typer reads '' as Path('.'), the
    current folder, before any callback sees it, so the command line itself tells '' from '.'."""
    if value is None or str(value) != ".":
        return
    args = sys.argv[1:]
    given = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg in param.opts]
    given += [arg.partition("=")[2] for arg in args if arg.partition("=")[0] in param.opts and "=" in arg]
    if "" in given:
        fail(f"{_name(param)} '' is empty; accepted: {accepted} ('.' for the current folder)")


def limit(param: typer.CallbackParam, value: float | None) -> float | None:
    """A time or memory limit (seconds, MB): a finite number above zero."""
    if value is not None and not 0 < value <= LIMIT_MAX:
        fail(f"{_name(param)} {value} is outside the accepted range (0, {LIMIT_MAX:,}]")
    return value


def _make_parent(option: str, path: Path) -> None:
    """The folder for an output file exists afterwards, or the command stops here."""
    _make_folder(option, path, path.parent, "a file in a writable folder that exists or can be created")


def _make_folder(option: str, path: Path, folder: Path, accepted: str) -> None:
    """`folder` (the option's value or the folder it goes in) exists and is writable afterwards."""
    what = "it" if folder == path else f"its folder {folder}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{option} {path}: cannot create {what} ({exc.strerror}); accepted: {accepted}")
    if not os.access(folder, os.W_OK):
        fail(f"{option} {path}: {what} is not writable; accepted: {accepted}")


def input_file(param: typer.CallbackParam, value: Path | None) -> Path | None:
    """A file the command reads: it exists and is not a folder (one `error:` line, not click's box)."""
    if value is None:
        return value
    name = param.name.upper() if param.param_type_name == "argument" else _name(param)
    if not value.exists():
        fail(f"{name} {value} does not exist; accepted: an existing file")
    if value.is_dir():
        fail(f"{name} {value} is a folder; accepted: an existing file")
    return value


def output_file(param: typer.CallbackParam, value: Path | None) -> Path | None:
    """A file the command writes: not a folder, and its folder exists (created if missing)."""
    if value is None:
        return value
    _typed_empty(param, value, "a file path")
    if value.is_dir():
        fail(f"{_name(param)} {value} is a folder; accepted: a file path (its folder is created if missing)")
    _make_parent(_name(param), value)
    return value


def output_path(param: typer.CallbackParam, value: Path | None) -> Path | None:
    """A file the command writes, or an existing folder to write its default file name into."""
    _typed_empty(param, value, "a file path or a folder")
    if value is not None and not value.is_dir():
        _make_parent(_name(param), value)
    return value


def output_dir(param: typer.CallbackParam, value: Path | None) -> Path | None:
    """A folder the command writes into: not a file, creatable."""
    if value is None:
        return value
    accepted = "a writable folder (created if missing)"
    _typed_empty(param, value, accepted)
    if value.exists() and not value.is_dir():
        fail(f"{_name(param)} {value} is a file; accepted: {accepted}")
    _make_folder(_name(param), value, value, accepted)
    return value


def hand_log_file(path: Path, option: str, *, accepted: str = "a hand log folder (created if missing)") -> None:
    """A hand log: a folder of Parquet shards, existing or one that can be made."""
    if path.exists() and not path.is_dir():
        if _is_duckdb(path):
            fail(f"{option} {path} is a DuckDB hand log from before the shard log; accepted: {accepted} "
                 f"(`cardlab ingest --from {path}` copies it into one)")
        fail(f"{option} {path} is a file; accepted: {accepted}")
    if not path.exists():
        _make_parent(option, path)


def _is_duckdb(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            return fh.read(12)[8:12] == DUCKDB_MAGIC
    except OSError:
        return False


def hand_log_to_read(param: typer.CallbackParam, value: Path | None) -> Path | None:
    """For --db options of commands that read the hand log (None: CARDLAB_DB's): a hand log folder,
    if it exists (the command says itself when there is no hand log yet)."""
    from flows.settings import Paths

    path, option = (value, _name(param)) if value is not None else (Paths.from_env().db, "the hand log (CARDLAB_DB)")
    if path.exists():
        hand_log_file(path, option, accepted="a hand log folder")
    return value


def workspace_hand_log() -> None:
    from flows.settings import Paths

    hand_log_file(Paths.from_env().db, "the hand log (CARDLAB_DB)")


def logged(value):
    """For the argument of a command that always logs (sweep): the hand log must be usable."""
    workspace_hand_log()
    return value


def when_logging(value: bool) -> bool:
    """For --log flags: the workspace's hand log must be usable before anything is played."""
    if value:
        workspace_hand_log()
    return value


def program_problem(argv: list[str]) -> str | None:
    """What stops `argv` from running (e.g. "not found on PATH"), or None."""
    if not argv:
        return "is empty"
    program = argv[0]
    if os.sep in program:
        if not Path(program).is_file():
            return "no such file"
        if not os.access(program, os.X_OK):
            return "the file is not executable"
    elif shutil.which(program) is None:
        return "not found on PATH"
    if Path(program).name in INTERPRETERS and not {"-c", "-m", "-e"} & set(argv[1:]):  # code, not a file
        script = next((a for a in argv[1:] if not a.startswith("-")), None)
        if script is not None and Path(script).suffix and not Path(script).is_file():
            return f"the script it runs, {script!r}, does not exist"
    return None


def program_argv(param: typer.CallbackParam, value: list[str] | None) -> list[str] | None:
    """One program given as its argv (e.g. after --)."""
    if value:
        problem = program_problem(list(value))
        if problem:
            fail(f"program {shlex.join(value)!r}: {problem}; accepted: {PROGRAMS}")
    return value


def programs(lo: int, hi: int):
    """A callback for lo..hi programs, each given as one command string (e.g. "python3 bot.py")."""

    def check(param: typer.CallbackParam, value: list[str] | None) -> list[str] | None:
        if value is not None and not lo <= len(value) <= hi:
            fail(f"got {len(value)} programs; accepted: {lo} to {hi}, each one quoted command string")
        return program_commands(param, value)

    return check


def program_commands(param: typer.CallbackParam, value: list[str] | str | None) -> list[str] | str | None:
    """Programs each given as one command string, e.g. "python3 bot.py"."""
    if value is None:
        return value
    for command in [value] if isinstance(value, str) else value:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            fail(f"program {command!r} cannot be parsed ({exc}); accepted: one quoted command string per program")
        problem = program_problem(argv)
        if problem:
            fail(f"program {command!r}: {problem}; accepted: {PROGRAMS}")
    return value


# Whole numbers and decimals as users type them in ASCII. Typer's parsing (pydantic) also takes '1_000', ' 5 '
# and '5.0' as ints, and int() elsewhere reads a full-width '１'; the command line takes ASCII digits only.
_WHOLE = re.compile(r"[+-]?[0-9]+")
# nan and inf get through to the option's own range check, which names the range.
_DECIMAL = re.compile(r"[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?|nan|inf|infinity)", re.IGNORECASE)
_NUMBERS = {int: ("a whole number", _WHOLE, "digits 0-9 with an optional sign, such as 2000"),
            float: ("a number", _DECIMAL, "digits 0-9 with an optional sign, point and exponent, such as 0.25 or 1e-3")}


def ascii_number(param, value) -> None:
    """Stop on an int or float option's raw text (each one, for a repeatable list[int] option) that is not plain
    ASCII digits, in one line, before typer converts it (its own refusal is a box that says nothing of what is
    accepted)."""
    kind = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    texts = [value]
    if typing.get_origin(kind) is list and isinstance(value, (list, tuple)):
        kind, texts = typing.get_args(kind)[0], list(value)
    if kind not in _NUMBERS:
        return
    what, pattern, accepted = _NUMBERS[kind]
    for text in texts:
        if isinstance(text, str) and not pattern.fullmatch(text):
            fail(f"{_name(param)} {text!r} is not {what} in ASCII digits; accepted: {accepted}")


def _install_ascii_numbers() -> None:
    """One place for every command: typer's parameter class checks the raw text first."""
    from typer.core import _TyperParameter

    convert = _TyperParameter.process_value
    if getattr(convert, "ascii_numbers", False):
        return

    def process_value(self, ctx, value):
        ascii_number(self, value)
        return convert(self, ctx, value)

    process_value.ascii_numbers = True  # type: ignore[attr-defined]
    _TyperParameter.process_value = process_value


_install_ascii_numbers()
