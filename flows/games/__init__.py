"""The registry of contests the workspace knows, by CLI name.

A game is a `cardlab.games` entry point naming its `GameSpec` (flows/games/base.py):

    [project.entry-points."cardlab.games"]
    holdem-training = "flows.games.holdem_training:SPEC"

cardlab's own five are declared so in its pyproject.toml; any installed package can add one the
same way, and every command (judge, match, sweep, league, report, replay) then knows it. For a game
that is not packaged (a quick local one, a test's), CARDLAB_EXTRA_GAMES="name=package.module,..."
names modules that define SPEC; worker processes (Dask) inherit the variable and find the same games.
"""

import importlib
import os
from functools import cache
from importlib.metadata import entry_points

from engine.core.errors import BadValue, UnknownName
from engine.core.settings import listed, pairs
from flows.games.base import GameSpec

GROUP = "cardlab.games"
_extra: dict[str, GameSpec] = {}


class UnknownGame(UnknownName):
    """GAME is not a registered game; the message lists the accepted ones."""


def register(spec: GameSpec) -> None:
    """Add a game at run time (tests use a toy game this way)."""
    _extra[spec.name] = spec


@cache
def _installed() -> dict[str, str]:
    """name -> 'module:attribute' of every installed game (entry points; read once per process)."""
    return {ep.name: ep.value for ep in entry_points(group=GROUP)}


def installed() -> tuple[str, ...]:
    """The games installed as packages (entry points), without CARDLAB_EXTRA_GAMES or registered ones."""
    return tuple(sorted(_installed()))


def _targets() -> dict[str, str]:
    # The one k=v reader; a malformed item is refused, not skipped (the game would just be missing).
    extra = dict(pairs(listed(os.environ.get("CARDLAB_EXTRA_GAMES", "")), "CARDLAB_EXTRA_GAMES",
                       accepted="name=package.module,..."))
    return _installed() | {name: f"{module}:SPEC" for name, module in extra.items()}


def names() -> list[str]:
    return sorted(set(_targets()) | set(_extra))


def get(name: str) -> GameSpec:
    if name in _extra:
        return _extra[name]
    targets = _targets()
    if name not in targets:
        raise UnknownGame(f"unknown game {name!r}; accepted: {', '.join(names()) or 'none installed'}")
    module_name, _, attribute = targets[name].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise UnknownGame(f"game {name!r} cannot be loaded: module {exc.name} is missing") from exc
    spec = getattr(module, attribute or "SPEC", None)
    if not isinstance(spec, GameSpec):
        raise BadValue(f"game {name!r}: {targets[name]} is not a GameSpec; accepted: an entry point naming "
                       "a flows.games.base.GameSpec")
    if spec.name != name:
        raise BadValue(f"game {name!r}: its spec is named {spec.name!r}; the entry point and the spec must agree")
    return spec


def specs() -> list[GameSpec]:
    """Every game that loads, by name (a game that fails to load is left to `get` to report)."""
    found = []
    for name in names():
        try:
            found.append(get(name))
        except UnknownName:
            continue
    return found


def demo_game() -> str:
    """The main job's game: the first, by name, whose spec declares a demo sweep."""
    return next((s.name for s in specs() if s.demo_sweep), names()[0])
