"""Commands that read the hand log out: `phh export` (hand histories for other tools), `phh import`
and `phh list` (histories from elsewhere kept beside the hand log, for `cardlab fit --phh imported`)
and `replay` (a static HTML page stepping through one hand, game or round)."""

import json
from pathlib import Path

import typer

from cardlab import checks
from cardlab.errors import fail

phh_app = typer.Typer(help="Hand histories in PHH, the format PokerKit reads.", no_args_is_help=True)


@phh_app.command("export")
def phh_export(match: str = typer.Option(..., "--match", help="Match id (of a game that declares PHH export)."),
               out: Path = typer.Option(None, "--out", help="Folder for the .phhs files (default out/phh).",
                                        callback=checks.output_dir)):
    """Export a match's hands from the hand log as PHH files PokerKit's HandHistory.load_all reads."""
    from flows.phh_export import NotExportable, export_match
    from flows.settings import Paths
    from flows.store import read_only

    target = out or Paths.from_env().out / "phh"
    with read_only() as con:
        try:
            exported = export_match(con, match, target)
        except NotExportable as exc:
            fail(str(exc))
    typer.echo(f"wrote {exported.hands:,} hands of {exported.game} match {match} to {len(exported.files)} "
               f"file(s) in {target}")


@phh_app.command("import")
def phh_import(files: list[Path] = typer.Argument(..., help="PHH files (.phh, .phhs) or folders of them."),
               json_: bool = typer.Option(False, "--json", help="Print one JSON object (the last line of output).")):
    """Check hand histories (PHH, as PokerKit writes) with the reader of the game that declares one, and keep
    copies beside the hand log, so `cardlab fit GAME --player NAME --phh imported` fits from them later."""
    from flows.histories import histories_dir, import_files

    kept = import_files(files)  # BadHistory, MissingFile: one line naming the file and the hand
    if json_:
        typer.echo(json.dumps({"folder": str(histories_dir()), "files": [_kept(k) for k in kept],
                               "hands": sum(k.hands for k in kept),
                               "players": sorted({p for k in kept for p in k.players})}))
        return
    for k in kept:
        typer.echo(f"{'imported' if k.new else 'already kept'} {k.name}: {k.hands:,} hands, players "
                   f"{', '.join(k.players) or '(unnamed)'} -> {k.path}")


@phh_app.command("list")
def phh_list(json_: bool = typer.Option(False, "--json", help="Print one JSON object.")):
    """The imported hand histories: files, hands and players (read without the hand log)."""
    from flows.histories import histories_dir, listing

    kept = listing()
    if json_:
        typer.echo(json.dumps({"folder": str(histories_dir()), "files": [_kept(k) for k in kept]}))
        return
    for k in kept:
        typer.echo(f"{k.digest[:16]}  {k.name}: {k.hands:,} hands, players {', '.join(k.players) or '(unnamed)'}"
                   f" (imported {k.imported_at})")
    typer.echo(f"{len(kept)} file(s), {sum(k.hands for k in kept):,} hands in {histories_dir()}")


def _kept(k) -> dict:
    return {"name": k.name, "digest": k.digest, "path": k.path, "hands": k.hands, "players": list(k.players),
            "new": k.new}


def replay(match: str = typer.Option(..., "--match", help="Match id."),
           unit: int = typer.Option(0, "--unit", help="Unit (hand, game or round) of the match, from 0.",
                                    callback=checks.within(0, checks.COUNT_MAX - 1)),
           out: Path = typer.Option(None, "--out", help="Folder for the page (default out/replays).",
                                    callback=checks.output_dir)):
    """Write a static HTML page that steps through one unit of a match (a hand, game or round: the game's
    unit), for a game that declares a replay."""
    from flows.settings import Paths
    from flows.store import read_only
    from reports.replay import NoReplay, write_replay

    with read_only() as con:
        try:
            path = write_replay(con, match, unit, out or Paths.from_env().out / "replays")
        except NoReplay as exc:
            fail(str(exc))
    typer.echo(f"replay: {path}")


def wire(app: typer.Typer) -> None:
    app.add_typer(phh_app, name="phh")
    app.command("replay")(replay)
