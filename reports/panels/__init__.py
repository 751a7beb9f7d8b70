"""Per-game panels of the sweep report: each answers its game's own questions.

A game's spec names its panels module (GameSpec.panels), whose `panels(con, data, out)` returns
a list of `Panel`; a game without one gets none."""

import importlib
from dataclasses import dataclass
from pathlib import Path

from flows import games


@dataclass(frozen=True)
class Panel:
    title: str
    html: str
    plots: tuple[Path, ...] = ()


def rows(con, sql: str, params=()) -> list[dict]:
    cur = con.execute(sql, list(params))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]


def shown(data) -> list:
    """The configs a panel details: the best, the baseline and the runner-up (at most three)."""
    ids = [data.best.match_id, data.baseline, data.runner_up.match_id if data.runner_up else None]
    return list(dict.fromkeys(i for i in ids if i))


def panels_for(con, data, out: Path) -> list[Panel]:
    module_name = games.get(data.game).panels
    if module_name is None:
        return []
    return importlib.import_module(module_name).panels(con, data, out)
