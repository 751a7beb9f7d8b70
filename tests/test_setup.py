"""The set-up's two environments (docs/setup.md): the main job installs requirements.lock only, the
test command adds requirements-test.lock. These hold the runtime to the first: a test-only package
(pytest, lint, the oracles) that became a run-time import would break the main job on a fresh machine
while the test suite, which has every package, stayed green."""

import ast
import importlib.metadata
import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("engine", "bots", "flows", "reports", "cardlab", "bench")  # pyproject's packages: the runtime


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text()
    return {_norm(n): v for n, v in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.M)}


def _requirement_names(requirements: list[str]) -> set[str]:
    return {_norm(re.match(r"[A-Za-z0-9_.-]+", r).group()) for r in requirements}


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _runtime_modules() -> tuple[set[str], set[str]]:
    """Top-level module names installed here: (those a runtime-lock package provides, the others)."""
    runtime = set(_pins("requirements.lock"))
    ours, theirs = set(), set()
    for module, dists in importlib.metadata.packages_distributions().items():
        if module in PROJECT or _norm(dists[0]) == "cardlab":
            continue
        (ours if any(_norm(d) in runtime for d in dists) else theirs).add(module)
    return ours, theirs


def test_the_locks_pin_what_pyproject_declares_and_agree():
    runtime, tests = _pins("requirements.lock"), _pins("requirements-test.lock")
    project = _project()
    missing = _requirement_names(project["dependencies"]) - set(runtime)
    assert not missing, f"declared in pyproject.toml but not locked (re-lock: docs/setup.md): {sorted(missing)}"
    test_only = _requirement_names(project["optional-dependencies"]["test"])
    assert test_only <= set(tests), f"test extra not locked: {sorted(test_only - set(tests))}"
    assert not test_only & set(runtime), f"the main job would install test packages: {sorted(test_only & set(runtime))}"
    differ = {n: (v, tests.get(n)) for n, v in runtime.items() if tests.get(n) != v}
    assert not differ, f"the test lock must keep the runtime's pins (re-lock with -c requirements.lock): {differ}"


def test_mlflow_ui_has_its_web_pages():
    """The demo ends by printing `mlflow ui`: mlflow-skinny's server would answer without the UI."""
    server = Path(importlib.util.find_spec("mlflow.server").origin).parent
    assert (server / "js" / "build" / "index.html").is_file(), "the runtime needs full mlflow, not mlflow-skinny"


def _optional(node: ast.AST, parents: dict) -> bool:
    """An import inside `try: ... except ImportError` is an optional peer the code does without."""
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.Try):
            caught = [h.type for h in node.handlers if h.type is not None]
            names = {n.id for t in caught for n in ast.walk(t) if isinstance(n, ast.Name)}
            if names & {"ImportError", "ModuleNotFoundError"}:
                return True
    return False


def test_the_runtime_code_imports_only_the_runtime_lock():
    """Every import in the project's code, those inside functions too (the CLI imports lazily)."""
    ours, theirs = _runtime_modules()
    assert {"polars", "duckdb", "mlflow", "prefect"} <= ours  # the mapping itself works here
    allowed = ours | set(sys.stdlib_module_names) | set(PROJECT) | {"__future__"}
    wrong = []
    files = [f for package in PROJECT for f in sorted((ROOT / package).rglob("*.py"))]
    assert len(files) > 100
    for path in files:
        tree = ast.parse(path.read_text(), str(path))
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.partition(".")[0]
                if top in allowed or _optional(node, parents):
                    continue
                if (path.parent / f"{top}.py").exists() or (path.parent / top).is_dir():
                    continue  # a script's sibling module (a bot program's own helpers)
                why = "a test-only package" if top in theirs else "no installed package"
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name} ({why})")
    assert not wrong, "run-time imports outside requirements.lock:\n" + "\n".join(wrong)


_BLOCKED_IMPORT = """
import importlib, importlib.abc, json, pkgutil, sys
blocked = set(json.loads(sys.argv[1]))

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r} (not in requirements.lock)", name=name)

sys.meta_path.insert(0, Block())
names = []
for package in json.loads(sys.argv[2]):
    module = importlib.import_module(package)
    names.append(package)
    for info in pkgutil.walk_packages(module.__path__, package + "."):
        if info.name.endswith(".__main__"):
            continue  # running it is not importing it
        importlib.import_module(info.name)
        names.append(info.name)
import mlflow.server.fastapi_app  # `mlflow ui`, which the demo's last lines print, loads
from typer.testing import CliRunner
from cardlab.cli import app
result = CliRunner().invoke(app, ["--help"])
assert result.exit_code == 0, result.output
print(json.dumps({"modules": len(names), "loaded": sorted(m for m in blocked if m in sys.modules)}))
"""


@pytest.mark.slow  # imports all of the project and its stack in a fresh process: 10-30 s
def test_every_module_and_the_cli_load_without_the_test_packages(tmp_path):
    """Imports what the static check cannot see: a runtime package that pulls in a test-only one."""
    _, theirs = _runtime_modules()
    assert {"pytest", "hypothesis", "pokerkit"} <= theirs  # the block is real: these are installed here
    proc = subprocess.run([sys.executable, "-c", _BLOCKED_IMPORT, json.dumps(sorted(theirs)), json.dumps(PROJECT)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["modules"] > 100 and report["loaded"] == []


def test_a_benchmark_without_its_test_only_peer_says_so_in_one_line(tmp_path):
    """cg-holdem's speed benchmark compares with PokerKit, which only the test command installs."""
    block = _BLOCKED_IMPORT.split("names = []")[0]  # the blocker alone
    run = block + "from cardlab.cli import main\nsys.argv = ['cardlab', *json.loads(sys.argv[2])]\nmain()\n"
    proc = subprocess.run([sys.executable, "-c", run, json.dumps(["pokerkit"]),
                           json.dumps(["bench", "cg-holdem", "speed", "--games", "1", "--repeats", "1"])],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1, proc.stderr[-2000:]
    assert lines[0].startswith("error: PokerKit") and "requirements-test.lock" in lines[0]
