"""The tractor commands mounted the way cardlab/cli.py mounts them, for CLI tests."""

import typer

from cardlab.commands import tractor as commands


def typer_app() -> typer.Typer:
    root = typer.Typer()
    root.command("judge")(commands.judge)
    root.command("export")(commands.export)
    root.add_typer(commands.bench_app, name="bench")
    root.add_typer(commands.app, name="tractor")
    return root
