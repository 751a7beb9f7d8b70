"""Scheduled flows: a nightly regression sweep per game (served against a real Prefect
server; Prefect's local mode cannot schedule)."""

import os
from dataclasses import dataclass

from prefect import flow

from flows import games
from flows.sweep import SweepSpec, sweep_flow

NIGHTLY_CRON = "0 3 * * *"


@dataclass(frozen=True)
class Schedule:
    name: str
    game: str
    cron: str


@flow(name="cardlab-nightly", validate_parameters=False)
def nightly_sweep(game: str, seed: int = 1) -> str:
    """The game's default grid on fixed seeds: a change in its results is a regression."""
    adapter = games.get(game)
    spec = SweepSpec(game=game, bot=adapter.default_bot, units=adapter.default_units, seed=seed,
                     grid=tuple((k, tuple(v)) for k, v in adapter.default_grid.items()),
                     chunk_size=max(1, adapter.default_units // 4))
    return sweep_flow(spec).sweep_id


def schedules(selected: list[str] | None = None, cron: str = NIGHTLY_CRON) -> list[Schedule]:
    chosen = selected or games.names()
    for name in chosen:
        games.get(name)  # unknown games fail here, before anything is served
    return [Schedule(name=f"nightly-{name}", game=name, cron=cron) for name in chosen]


def serve(plan: list[Schedule]) -> None:
    from prefect import serve as prefect_serve

    if not os.environ.get("PREFECT_API_URL"):
        raise RuntimeError(
            "scheduled flows need a Prefect server: run `prefect server start --host 127.0.0.1 --port 4200` "
            "and export PREFECT_API_URL=http://127.0.0.1:4200/api"
        )
    deployments = [nightly_sweep.to_deployment(name=s.name, cron=s.cron, parameters={"game": s.game}) for s in plan]
    prefect_serve(*deployments)
