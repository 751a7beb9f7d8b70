"""Submission bundles: a directory with an executable `run` that plays as a contestant.

The bundle holds the bot's frozen config (config.json) and its tables (tables.npz, with the
evaluator's lookup tables, so the program never rebuilds them). `run` starts the project's
own Python on bots.holdem_training.contestant with the project's numba cache, which the
export warms by playing a short match through the real judge: the first real run then
loads compiled kernels instead of compiling them. A bot that can pace itself (cpu_budget)
is exported with the contest's budget, so on a slower machine it plays leaner hands instead
of being stopped at the CPU limit with its match unscored.
"""

import json
import os
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from bots.base import config_as_dict, config_fields
from bots.holdem_training import BOTS, tables
from engine.core.errors import UnknownName
from engine.holdem_training.rules import CPU_SECONDS

ROOT = Path(__file__).resolve().parents[2]
WARM_HANDS = 40
# The warm-up may compile every kernel from scratch (after a kernel edit: over 10 s of CPU);
# it exists to do that once, so only the runs after it are held to the contest's limit.
WARM_CPU_SECONDS = 120.0
# A bot with a cpu_budget setting paces itself to this in the contest (unless told otherwise):
# a second under the judge's limit, for what the judge counts after the last decision.
CONTEST_CPU_BUDGET = CPU_SECONDS - 1.0


@dataclass(frozen=True)
class Bundle:
    directory: Path
    run: Path
    warm_status: str
    warm_cpu_seconds: float | None


def _python() -> Path:
    venv = ROOT / ".venv" / "bin" / "python"
    return venv if venv.exists() else Path(sys.executable)


def _numba_cache() -> Path:
    return Path(os.environ.get("NUMBA_CACHE_DIR") or ROOT / ".cache" / "numba").resolve()


def run_script(directory: Path) -> str:
    return "\n".join([
        "#!/bin/sh",
        "# Hold'em Training contestant exported by `cardlab export holdem-training`.",
        f"export NUMBA_CACHE_DIR='{_numba_cache()}'",
        f"export PYTHONPATH='{ROOT}'",
        "export OMP_NUM_THREADS=1 NUMBA_NUM_THREADS=1",
        # Extra arguments reach the contestant: `run --set k=v` overrides the frozen config, so a
        # bundle can itself be swept as a program (`cardlab sweep ... --program 'run --set k={k}'`).
        f"exec '{_python()}' -m bots.holdem_training.contestant --config '{directory / 'config.json'}' \"$@\"",
        "",
    ])


def write(out: Path, bot: str = "exploit", settings: list[str] | tuple[str, ...] = (), *,
          warm: bool = True) -> Bundle:
    """Write the bundle for `bot` with `settings` (k=v) into `out`, then warm the cache."""
    if bot not in BOTS:
        raise UnknownName(f"unknown bot {bot!r}; accepted: {', '.join(sorted(BOTS))}")
    spec = BOTS[bot]
    settings = list(settings)
    if "cpu_budget" in config_fields(spec.config_type) and not any(s.startswith("cpu_budget=") for s in settings):
        settings.append(f"cpu_budget={CONTEST_CPU_BUDGET:g}")
    config = spec.config_from(settings)  # ConfigError names bad keys and values
    directory = Path(out).resolve()
    directory.mkdir(parents=True, exist_ok=True)
    frozen = config_as_dict(config)
    if "tables_path" in frozen:
        source = Path(frozen["tables_path"]) if frozen["tables_path"] else tables.default_path()
        tables.load(source if frozen["tables_path"] else None)  # builds the cache file if missing
        shutil.copyfile(source, directory / "tables.npz")
        frozen["tables_path"] = str(directory / "tables.npz")
    if "preflop_plan_path" in frozen:  # plan the preflop once here, not in every fresh process
        import numpy as np

        frozen["preflop_plan_path"] = ""
        player = spec.make(spec.config_type(**frozen))
        np.save(directory / "preflop.npy", player.plan)
        frozen["preflop_plan_path"] = str(directory / "preflop.npy")
    (directory / "config.json").write_text(json.dumps({"bot": bot, "config": frozen}, indent=2) + "\n")
    run = directory / "run"
    run.write_text(run_script(directory))
    run.chmod(run.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    status, cpu = "skipped", None
    if warm:
        from engine.holdem_training.judge import play_external

        # Contestants get a read-only view of the file system: only this trusted warm-up may
        # write the cache, which the judged runs then load.
        result = play_external([str(run)], seed=0, hands=WARM_HANDS, cpu_seconds=WARM_CPU_SECONDS,
                               writable=(str(_numba_cache()),))
        status, cpu = result.status if not result.reason else f"{result.status}: {result.reason}", result.cpu_seconds
    return Bundle(directory, run, status, cpu)
