"""`cardlab handlog`: look after the hand log's files (compact them, check them)."""

from pathlib import Path

import typer
from rich.console import Console

from cardlab import checks
from cardlab.errors import fail

console = Console()
app = typer.Typer(help="Look after the hand log's Parquet files: compact them, check them.", no_args_is_help=True)


def _log(db: Path | None):
    from flows import shards
    from flows.settings import Paths
    from flows.store import sql_files

    path = db or Paths.from_env().db
    files = sql_files(path)
    if not files:
        fail(f"no hand log at {path}; run a match or a sweep first")
    return path, shards.schema_of(files)


@app.command()
def compact(db: Path = typer.Option(None, help="Hand log folder (default CARDLAB_DB or data/handlog).",
                                    callback=checks.hand_log_to_read),
            min_files: int = typer.Option(2, help="Compact a table once it has this many files.",
                                          callback=checks.count)):
    """Merge each table's files into one. Safe while others write and read: a reader sees every row
    once, before, during and after (docs/hand-log.md)."""
    from flows import shards

    path, schema = _log(db)
    for done in shards.compact(path, schema, min_files=min_files):
        if done.merged or done.deleted:
            console.print(f"{done.table}: {done.merged} file(s) merged into one ({done.rows:,} rows); "
                          f"{done.deleted} old file(s) deleted")


@app.command()
def check(db: Path = typer.Option(None, help="Hand log folder (default CARDLAB_DB or data/handlog).",
                                  callback=checks.hand_log_to_read)):
    """Read every file whole, page checksums included; one line per damaged file, exit 1 if any."""
    from flows import shards

    path, schema = _log(db)
    problems = shards.check(path, schema)
    for line in problems:
        console.print(f"damaged: {line}", soft_wrap=True)
    if problems:
        raise typer.Exit(1)
    console.print(f"{path}: every file reads whole", soft_wrap=True)
