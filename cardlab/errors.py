"""Turning expected failures into one-line messages instead of tracebacks."""

import os
import sys
from collections.abc import Callable

import typer

from bots.base import ConfigError

# Errors a user causes (bad name, key, value, file); anything else is a bug and keeps its traceback.
USER_ERRORS: tuple[type[BaseException], ...] = (ConfigError, KeyError, LookupError, FileNotFoundError, ValueError,
                                                RuntimeError)


def fail(message: str, code: int = 2):
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


def run_guarded(entry: Callable[[], object]) -> None:
    try:
        entry()
    except USER_ERRORS as exc:
        if os.environ.get("CARDLAB_DEBUG"):
            raise
        text = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        print(f"error: {text}", file=sys.stderr)
        sys.exit(2)
