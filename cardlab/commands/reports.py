"""Commands that read the hand log out: `phh export` (hand histories for other tools) and
`replay` (a static HTML page stepping through one hand, game or round)."""

from pathlib import Path

import typer

from cardlab import checks
from cardlab.errors import fail

phh_app = typer.Typer(help="Hand histories in PHH, the format PokerKit reads.", no_args_is_help=True)


@phh_app.command("export")
def phh_export(match: str = typer.Option(..., "--match", help="Match id (a holdem-training or cg-holdem match)."),
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


def replay(match: str = typer.Option(..., "--match", help="Match id."),
           unit: int = typer.Option(0, "--unit", help="Unit (hand, game or round) of the match, from 0.",
                                    callback=checks.within(0, checks.COUNT_MAX - 1)),
           out: Path = typer.Option(None, "--out", help="Folder for the page (default out/replays).",
                                    callback=checks.output_dir)):
    """Write a static HTML page that steps through one unit of a match (Hold'em Training hand,
    CodinGame game, Splendor game, Tractor round)."""
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
