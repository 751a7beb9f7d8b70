"""`cardlab new`: copy a game's first bot in one language into a folder of the user's and build it.

What the files are, how to build them and how to try them is declared by each game's spec
(`GameSpec.starters`); nothing here names a game.
"""

import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import BadValue, MissingFile, UnknownName
from flows.games import get
from flows.games.base import PROJECT

BUILD_SECONDS = 120.0


@dataclass(frozen=True)
class NewBot:
    folder: Path
    source: Path  # the file to edit
    program: str  # what the judges take, run from the folder
    try_it: tuple[str, ...]  # commands to run in the folder


def languages(game: str) -> tuple[str, ...]:
    return tuple(get(game).starters)


def write(game: str, language: str, folder: Path) -> NewBot:
    """Copy the starter's files into `folder` (new, or empty) and run its build there."""
    spec = get(game)
    starter = spec.starters.get(language)
    if starter is None:
        offered = ", ".join(spec.starters) or "none"
        raise UnknownName(f"{game} has no {language!r} starter; accepted: {offered}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise BadValue(f"{folder} already exists and is not an empty folder; accepted: a new or empty folder (--dir)")
    sources = [Path(f) if Path(f).is_absolute() else PROJECT / f for f in starter.files]
    for source in sources:
        if not source.is_file():
            raise MissingFile(f"{game}'s {language} starter names {source}, which is missing from the installation")
    folder.mkdir(parents=True, exist_ok=True)
    for source in sources:
        shutil.copyfile(source, folder / source.name)
    for command in starter.build:
        _build(shlex.split(command), folder, language)
    return NewBot(folder=folder, source=folder / sources[0].name, program=starter.program,
                  try_it=tuple(c.replace("{program}", starter.program) for c in starter.try_it))


def _build(argv: list[str], folder: Path, language: str) -> None:
    if shutil.which(argv[0]) is None:
        raise MissingFile(f"{argv[0]} is not installed, and the {language} starter is built with it "
                          f"({' '.join(argv)}); accepted: install it, or choose another --lang")
    done = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=BUILD_SECONDS)
    if done.returncode != 0:
        first = next((line for line in done.stderr.splitlines() if line.strip()), f"exit {done.returncode}")
        raise BadValue(f"building the starter failed ({' '.join(argv)} in {folder}): {first}")
