"""Turning expected failures into one-line messages instead of tracebacks."""

import atexit
import os
import re
import sys
from collections.abc import Callable

import typer

from engine.core import ending
from engine.core.errors import UserError

# Only the project's own user errors become one line: a KeyError or ValueError from a bug keeps its
# traceback. A missing file the user named is a UserError (MissingFile) raised by the check naming it.
USER_ERRORS: tuple[type[BaseException], ...] = (UserError,)


def fail(message: str, code: int = 2):
    """The one error style: `error: <one line>` on stderr, exit 2 (1 for a failed check)."""
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


def run_guarded(entry: Callable[[], object]) -> None:
    """Run the CLI: user errors as one line (exit 2); SIGINT, SIGTERM and SIGHUP all stop it the way
    Ctrl-C does (what was played is kept), and it then exits 128 + the signal (130, 143, 129)."""
    ending.install()
    try:
        entry()
    except USER_ERRORS as exc:
        if os.environ.get("CARDLAB_DEBUG"):
            raise
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    except (SystemExit, KeyboardInterrupt):
        if ending.exit_code() is not None:
            sys.exit(ending.exit_code())
        raise
    except Exception as exc:  # a shard damaged past its ends, found by the query reading it
        import duckdb

        if not isinstance(exc, duckdb.Error) or os.environ.get("CARDLAB_DEBUG"):
            raise
        first = str(exc).splitlines()[0]
        found = re.search(r"'([^']+\.parquet)'|\"([^\"]+\.parquet)\"", str(exc))
        if found is None:
            raise
        print(f"error: the hand log file {found.group(1) or found.group(2)} is damaged ({first}); move it aside "
              f"(its rows are then missing: a sweep's `--resume` plays them again) and run the command again",
              file=sys.stderr)
        sys.exit(2)


def quiet_teardown() -> None:
    """Silence stderr once everything else at exit has run (atexit runs handlers last-registered
    first, so call this before anything registers its own).

    After a Prefect flow, DuckDB's bindings (nanobind) print dozens of "leaked function" lines
    while the interpreter tears modules down in an order they do not expect; every connection
    is closed by then and nothing of the user's is lost, so the lines only bury the output.
    CARDLAB_DEBUG keeps them."""
    if os.environ.get("CARDLAB_DEBUG"):
        return

    def silence() -> None:
        sys.stderr.flush()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)

    atexit.register(silence)
