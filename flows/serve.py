"""Scheduled flows: the nightly regression check of each game (flows/nightly.py), the games
staggered a few minutes apart so they do not compete for the two cores. Served against a
real Prefect server (Prefect's local mode cannot schedule)."""

import os
from dataclasses import dataclass

from engine.core.errors import BadValue, Unavailable
from flows import games

NIGHTLY_CRON = "0 3 * * *"
STAGGER_MINUTES = 10


@dataclass(frozen=True)
class Schedule:
    name: str
    game: str
    cron: str


def check_cron(cron: str) -> str:
    from prefect._internal.schemas.validators import validate_cron_string

    try:
        return validate_cron_string(cron)
    except ValueError:
        raise BadValue(f"--cron {cron!r} is not a cron expression; expected five fields "
                         "'minute hour day-of-month month day-of-week', e.g. '0 3 * * *'") from None


def _shifted(cron: str, minutes: int) -> str:
    """The cron moved later by `minutes` (its minute and hour fields must be plain numbers)."""
    if minutes == 0:
        return cron
    minute, hour, *rest = cron.split()
    if not (minute.isdigit() and hour.isdigit()):
        raise BadValue(f"cannot stagger --cron {cron!r}: its minute and hour must be plain numbers "
                         "(e.g. '0 3 * * *'), or pass --stagger 0 to start every game at once")
    start = (int(hour) * 60 + int(minute) + minutes) % (24 * 60)
    return " ".join([str(start % 60), str(start // 60), *rest])


def schedules(selected: list[str] | None = None, cron: str = NIGHTLY_CRON,
              stagger_minutes: int = STAGGER_MINUTES) -> list[Schedule]:
    """One schedule per game, game i starting i * stagger_minutes after `cron`."""
    check_cron(cron)
    if stagger_minutes < 0:
        raise BadValue(f"--stagger must be >= 0 minutes, got {stagger_minutes}")
    chosen = selected or games.names()
    for name in chosen:
        games.get(name)  # unknown games fail here, before anything is served
    return [Schedule(name=f"nightly-{name}", game=name, cron=_shifted(cron, i * stagger_minutes))
            for i, name in enumerate(chosen)]


def serve(plan: list[Schedule]) -> None:
    from prefect import serve as prefect_serve

    from flows.nightly import nightly_flow

    if not os.environ.get("PREFECT_API_URL"):
        raise Unavailable(
            "scheduled flows need a Prefect server: run `prefect server start --host 127.0.0.1 --port 4200` "
            "and export PREFECT_API_URL=http://127.0.0.1:4200/api"
        )
    deployments = [nightly_flow.to_deployment(name=s.name, cron=s.cron, parameters={"game": s.game}) for s in plan]
    prefect_serve(*deployments)
