"""`cardlab new GAME --lang python|cpp`: a first bot of your own, ready to judge."""

from pathlib import Path

import typer


def new(
    game: str = typer.Argument(..., help="the contest (`cardlab games` lists them)"),
    lang: str = typer.Option("python", "--lang", help="the language: python or cpp, where the game offers it"),
    folder: Path = typer.Option(None, "--dir", help="where to write it (new or empty); default mybots/GAME-LANG"),
):
    """Write a minimal working bot for a contest (it reads the protocol and answers legally), build
    it, and print the commands that judge it."""
    from flows.starters import write

    made = write(game, lang, folder or Path("mybots") / f"{game}-{lang}")
    typer.echo(f"wrote {made.folder}/ (edit {made.source.name}); the judges run it as: {made.program}")
    typer.echo(f"try it:\n  cd {made.folder}")
    for command in made.try_it:
        typer.echo(f"  {command}")
    typer.echo("then sweep its settings, league it and submit: docs/your-first-bot.md")
