"""What a league is: its game, its entrants (name, command, version) and how much to play.

A league comes from the command line or a TOML file:

    name = "weekly"          # optional: the file's stem
    game = "GAME"            # a name `cardlab games` lists
    games = 12               # games each entrant plays at least (the game's unit: a round of cases, ...)
    seed = 1
    players = 2              # seats per table, where the game seats more than two
    [options]                # the game's own settings, e.g. hands = 200 where a game is a match of hands
    [programs]
    alice = "python3 bots/alice.py"
    bob = "/opt/bob/run --fast"

An entrant's version is a hash of its program files (see `program_files`) and of the
command's other arguments (not of where the files are), so an edited program, or the same one
with other options, is a new version with its own rating and games; the old version's stay.
"""

import hashlib
import os
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from bots import program
from bots.program import BUNDLE_FILES  # noqa: F401 (the name leagues used; bots.program keeps it now)
from engine.core.errors import BadValue
from engine.core.settings import ConfigError, pairs
from flows import opponents
from flows.games.base import CLASS_FILE, PROGRAM, PROJECT_BOT, LeagueRules
from flows.opponents import MODEL_PREFIX

IN_PROCESS_PREFIX = "bot:"  # a project bot by name (where the game's league rules seat project bots)
_CLASS_FILE = re.compile(r"(?P<path>\S+\.py):(?P<cls>[A-Za-z_][A-Za-z0-9_]*)")  # a user's class (e.g. TopCoder's)
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


class LeagueError(BadValue):
    """A league description that cannot be played; the message says what and what is accepted."""


@dataclass(frozen=True)
class Entrant:
    name: str
    command: str
    version: str  # 12 hex digits of sha256 over the program files

    @property
    def key(self) -> str:
        """The rated identity: a name and the exact program it ran."""
        return f"{self.name}@{self.version}"

    @property
    def in_process(self) -> bool:
        return self.command.startswith((IN_PROCESS_PREFIX, MODEL_PREFIX))

    @property
    def bot_class(self) -> tuple[str, str] | None:
        """(file, class name) for a `PATH.py:ClassName` entrant, else None."""
        return class_entrant(self.command)

    @property
    def kind(self) -> str:
        """PROJECT_BOT, CLASS_FILE or PROGRAM (flows.games.base): what seats it."""
        return PROJECT_BOT if self.in_process else CLASS_FILE if self.bot_class else PROGRAM


def class_entrant(command: str) -> tuple[str, str] | None:
    found = _CLASS_FILE.fullmatch(command)
    return (found["path"], found["cls"]) if found and os.path.isfile(found["path"]) else None


@dataclass(frozen=True)
class LeagueSpec:
    name: str
    game: str
    entrants: tuple[Entrant, ...]
    games: int
    seed: int = 1
    players: int = 2
    options: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def option(self, key: str, default):
        value = dict(self.options).get(key)
        return default if value is None else type(default)(value)


def program_files(command: str) -> list[Path]:
    """The files whose bytes make an entrant's version (bots.program.program_files, the one rule)."""
    try:
        return program.program_files(command)
    except ConfigError as exc:
        raise LeagueError(f"{exc}; accepted: NAME=COMMAND with a program") from None


def version_of(command: str, *, in_folder: bool = False) -> str:
    """12 hex digits naming what an entrant is: its program's files and other words (bots.program.program_version)
    and, for a game that runs it in its folder (`in_folder`), that folder's files (bots.program.folder_version)."""
    if command.startswith((IN_PROCESS_PREFIX, MODEL_PREFIX)):  # a project bot or a model: the text is the identity
        return hashlib.sha256(command.encode()).hexdigest()[:12]
    if class_entrant(command):  # a user's class: its file and its name
        path, name = class_entrant(command)
        return hashlib.sha256(name.encode() + b"\0" + Path(path).read_bytes()).hexdigest()[:12]
    files = program_files(command)  # a missing program: refused as a league's error
    version = program.program_version(command)  # the hash sweeps, picks and the nightly record too
    if not in_folder:
        return version
    folder = program.folder_version(Path(os.path.realpath(files[0])).parent)
    return hashlib.sha256(f"{version}\0{folder}".encode()).hexdigest()[:12]


def entrant(name: str, command: str, *, in_folder: bool = False) -> Entrant:
    if not _NAME.fullmatch(name):
        raise LeagueError(f"entrant name {name!r}: accepted: 1-40 letters, digits, _ . - (not first _ . -)")
    command = command.strip()
    if class_entrant(command):  # the class file is found from any folder the league runs in
        path, cls = class_entrant(command)
        command = f"{os.path.abspath(path)}:{cls}"
    return Entrant(name, command, version_of(command, in_folder=in_folder))


def game_spec(game: str):
    """The game's declaration (flows.games), refused in one line if it has no league play."""
    from flows import games

    try:
        spec = games.get(game)
    except games.UnknownGame as exc:
        raise LeagueError(str(exc)) from None
    if spec.league is None:
        with_leagues = [g.name for g in games.specs() if g.league is not None]
        raise LeagueError(f"{game} has no league play; accepted: {', '.join(with_leagues)}")
    return spec


def rules_of(game: str) -> LeagueRules:
    return game_spec(game).league


def project_bot(game: str, e: Entrant):
    """The configured project bot of a `bot:NAME[:k=v...]` entrant, or a fitted `model:ID` (BotChoice)."""
    from bots.choice import entry

    if e.command.startswith(MODEL_PREFIX):
        return opponents.seat(game, e.command)
    return entry(game_spec(game).bots, e.command.removeprefix(IN_PROCESS_PREFIX), option=f"entrant {e.name}",
                 game=game)


def parse_program(item: str) -> tuple[str, str]:
    accepted = "NAME=COMMAND, e.g. alice='python3 alice.py'"
    ((name, command),) = pairs([item], "--program", accepted=accepted)
    if not command:
        raise LeagueError(f"--program {item!r}: no command; accepted: {accepted}")
    return name, command


def build(*, name: str, game: str, programs: list[tuple[str, str]], games: int, seed: int = 1,
          players: int = 2, options: dict | None = None) -> LeagueSpec:
    rules = rules_of(game)
    if not _NAME.fullmatch(name):
        raise LeagueError(f"league name {name!r}: accepted: 1-40 letters, digits, _ . -")
    if games < 1:
        raise LeagueError(f"games must be at least 1, got {games}")
    names = [n for n, _ in programs]
    if len(set(names)) != len(names):
        raise LeagueError(f"entrant names must be distinct, got {', '.join(names)}")
    low, high = rules.seats
    if rules.multi_seat and not low <= players <= high:
        raise LeagueError(f"players must be {low}-{high} for {game}, got {players}")
    if not rules.multi_seat and players not in (1, 2):  # 2 is the command line's default for every game
        raise LeagueError(f"{game} seats one entrant against the contest's opponent; --players does not apply "
                          f"(got {players})")
    seats = players if rules.multi_seat else 1
    if len(programs) < seats:
        raise LeagueError(f"{game} with {seats} seats needs at least {seats} programs, got {len(programs)}")
    unknown = set(options or {}) - set(rules.options)
    if unknown:
        raise LeagueError(f"unknown league option(s) {', '.join(sorted(unknown))} for {game}; accepted: "
                          f"{', '.join(sorted(rules.options)) or 'none'}")
    for key, value in (options or {}).items():
        kind = rules.options[key]
        try:
            number = kind(value)
        except ValueError:
            number = None
        if kind is not str and (number is None or not 0 < number < float("inf")):
            raise LeagueError(f"league option {key}={value!r}: accepted: a positive {kind.__name__}")
    entrants = tuple(entrant(n, c, in_folder=rules.in_folder) for n, c in programs)
    for e in entrants:
        if e.kind not in rules.entrants:
            raise LeagueError(f"{e.name}: {game} does not seat this kind of entrant ({e.kind}); accepted: "
                              f"{rules.entrant_help}")
        if e.in_process:
            project_bot(game, e)  # a bad name or setting stops the league before anything is played
    return LeagueSpec(name=name, game=game, entrants=entrants, games=games, seed=seed, players=seats,
                      options=tuple(sorted((k, str(v)) for k, v in (options or {}).items())))


def load_toml(path: Path, *, games: int | None = None, extra: list[tuple[str, str]] = ()) -> LeagueSpec:
    """A league file; `games` and `extra` programs from the command line extend it."""
    try:
        doc = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise LeagueError(f"no league file at {path}") from None
    except IsADirectoryError:
        raise LeagueError(f"{path} is a folder; accepted: a league's TOML file (see `cardlab league --help`)") from None
    except (PermissionError, UnicodeDecodeError) as exc:
        raise LeagueError(f"{path}: cannot be read as a league's TOML file ({type(exc).__name__})") from None
    except tomllib.TOMLDecodeError as exc:
        raise LeagueError(f"{path}: not valid TOML ({exc})") from None
    allowed = {"name", "game", "games", "seed", "players", "options", "programs"}
    unknown = set(doc) - allowed
    if unknown:
        raise LeagueError(f"{path}: unknown key(s) {', '.join(sorted(unknown))}; "
                          f"accepted: {', '.join(sorted(allowed))}")
    programs = doc.get("programs")
    if not isinstance(programs, dict) or not all(isinstance(v, str) for v in programs.values()):
        raise LeagueError(f"{path}: [programs] must map names to command strings")
    base = path.parent

    def local(command: str) -> str:  # a relative program file is relative to the league file
        found = _CLASS_FILE.fullmatch(command.strip())
        if found and not os.path.isabs(found["path"]) and (base / found["path"]).is_file():
            return f"{base / found['path']}:{found['cls']}"
        argv = shlex.split(command)
        return shlex.join([str(base / a) if not os.path.isabs(a) and (base / a).is_file() else a for a in argv])

    try:
        return build(name=str(doc.get("name", path.stem)), game=str(doc.get("game", "")),
                     programs=[(n, local(c)) for n, c in programs.items()] + list(extra),
                     games=int(games or doc.get("games", 10)), seed=int(doc.get("seed", 1)),
                     players=int(doc.get("players", 2)), options=dict(doc.get("options", {})))
    except (TypeError, ValueError) as exc:
        if isinstance(exc, LeagueError):
            raise
        raise LeagueError(f"{path}: {exc}") from None
