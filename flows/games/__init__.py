"""The registry of contests the workspace knows, by CLI name.

Extra games (a team's own, or the tests' toy game) plug in without code changes through
CARDLAB_EXTRA_GAMES="name=package.module,..." where the module defines ADAPTER; worker
processes (Dask) inherit the variable and find the same games.
"""

import importlib
import os

from engine.core.errors import UnknownName
from engine.core.settings import listed, pairs
from flows.games.base import GameAdapter

MODULES = {
    "holdem-training": "flows.games.holdem_training",
    "twocarddraw": "flows.games.twocarddraw",
    "splendor": "flows.games.splendor",
    "cg-holdem": "flows.games.cg_holdem",
    "tractor": "flows.games.tractor",
}
_extra: dict[str, GameAdapter] = {}


class UnknownGame(UnknownName):
    """GAME is not a registered game; the message lists the accepted ones."""


def register(adapter: GameAdapter) -> None:
    """Add a game at run time (tests use a toy game this way)."""
    _extra[adapter.name] = adapter


def _modules() -> dict[str, str]:
    # The one k=v reader; a malformed item is refused, not skipped (the game would just be missing).
    extra = dict(pairs(listed(os.environ.get("CARDLAB_EXTRA_GAMES", "")), "CARDLAB_EXTRA_GAMES",
                       accepted="name=package.module,..."))
    return MODULES | extra


def names() -> list[str]:
    return sorted(set(_modules()) | set(_extra))


def get(name: str) -> GameAdapter:
    if name in _extra:
        return _extra[name]
    modules = _modules()
    if name not in modules:
        raise UnknownGame(f"unknown game {name!r}; accepted: {', '.join(names())}")
    try:
        module = importlib.import_module(modules[name])
    except ModuleNotFoundError as exc:
        raise UnknownGame(f"game {name!r} is not wired into the workspace yet ({exc.name} is missing)") from exc
    return module.ADAPTER
