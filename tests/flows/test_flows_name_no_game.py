"""flows/ names no game (ARCHITECTURE.md): only the per-game declaration modules (flows/games/<game>.py) and
opponent models (flows/opponents/) import a game's engine or bots package or spell a game's name."""

import ast
from pathlib import Path

FLOWS = Path(__file__).resolve().parents[2] / "flows"
GAMES = sorted(p.name for p in (FLOWS.parent / "engine").iterdir() if (p / "__init__.py").exists() and p.name != "core")
KNOWN: set[str] = set()  # none left: a module here that must name a game is a design question, not a listing


def _names_a_game(path: Path) -> list[str]:
    found = []
    spelled = set(GAMES) | {g.replace("_", "-") for g in GAMES}
    for node in ast.walk(ast.parse(path.read_text())):
        modules = []
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        found += [m for m in modules if any(m.startswith(f"{top}.{g}") for top in ("engine", "bots") for g in GAMES)]
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [g for g in spelled if f"'{g}'" in node.value or node.value == g]
    return found


def test_the_game_packages_are_found():
    assert "twocarddraw" in GAMES and len(GAMES) >= 2


def test_no_flow_module_outside_the_per_game_ones_names_a_game():
    offenders = {p.name: _names_a_game(p) for p in sorted(FLOWS.glob("*.py")) if p.name not in KNOWN}
    assert {name: found for name, found in offenders.items() if found} == {}
