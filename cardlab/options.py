"""Command-line settings as every command reads them: `key=value` lists (--set, --opt, --env), comma-
separated integers, and a bot chosen by name plus its `k=v` settings or by one entry such as
`montecarlo:samples=40`.

The parsers live below the CLI (engine/core/settings.py, bots/choice.py) so flows and benchmarks read the same
forms; here a bad part stops the command at once with their one line (cardlab.errors.fail), even where
a command catches ValueError around them."""

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from bots import choice
from cardlab.errors import fail
from engine.core import settings
from engine.core.errors import UserError

KEY_VALUE = settings.KEY_VALUE
F = TypeVar("F", bound=Callable)


def _stops_the_command(parse: F) -> F:
    @functools.wraps(parse)
    def read(*args, **kwargs):
        try:
            return parse(*args, **kwargs)
        except UserError as exc:
            fail(str(exc))

    return read  # type: ignore[return-value]


pairs = _stops_the_command(settings.pairs)
integers = _stops_the_command(settings.integers)
bot = _stops_the_command(choice.choose)
entry = _stops_the_command(choice.entry)

__all__ = ["KEY_VALUE", "bot", "entry", "integers", "pairs", "settings_of"]


def settings_of(config: Mapping[str, Any]) -> list[str]:
    """A stored config as the `k=v` settings that make it again (tuples written a/b/c)."""
    from flows.submissions import config_text

    return [f"{key}={config_text(value)}" for key, value in config.items()]


TURN_FLAGS = {"turn_ms": "--turn-ms", "first_turn_ms": "--first-turn-ms", "clock": "--clock"}


def turn_flags() -> tuple:
    """The --turn-ms, --first-turn-ms and --clock options of a command (sweep, league), new each time."""
    import typer

    from cardlab import checks

    return (typer.Option(None, "--turn-ms", callback=checks.count,
                         help="A program's time per answer in ms, for games with turn limits (default: the "
                              "contest's)."),
            typer.Option(None, "--first-turn-ms", callback=checks.count,
                         help="Time for a program's first answer in ms (default: the contest's)."),
            typer.Option(None, "--clock", help="What the turn limits count: wall (the contest's rule, default) or "
                                               "cpu (the program's CPU time: local play on a busy machine)."))




def turn_limits(accepted, *, game: str, turn_ms: int | None, first_turn_ms: int | None, clock: str | None,
                games_with: Callable[[], list[str]]) -> list[str]:
    """--turn-ms/--first-turn-ms/--clock as `k=v` game options, for a game whose options (`accepted`: the
    option names it takes) have turn limits; given to any other game, refused in one line naming the games
    that take them (`games_with`, asked only then: it loads every game)."""

    given = {k: v for k, v in (("turn_ms", turn_ms), ("first_turn_ms", first_turn_ms), ("clock", clock))
             if v is not None}
    for key in given:
        if key not in accepted:
            fail(f"{TURN_FLAGS[key]}: {game} has no per-turn time limit here; accepted for: "
                 f"{', '.join(games_with()) or 'none'}")
    if clock is not None:
        checked_clock(clock)
    return [f"{k}={v}" for k, v in given.items()]


def checked_clock(clock: str | None) -> str:
    """--clock's value (wall when not given), or one line naming what is accepted."""
    from engine.core.process import CLOCKS

    if clock is not None and clock not in CLOCKS:
        fail(f"--clock {clock!r}: accepted: {', '.join(CLOCKS)} (wall: the contest's rule; cpu: the program's "
             f"CPU time, for local play on a busy machine)")
    return clock or "wall"
