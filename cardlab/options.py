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
