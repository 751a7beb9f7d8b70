"""`cardlab ... holdem-training` commands."""

from pathlib import Path

import typer


def export(
    out: Path = typer.Option(..., "--out", help="directory to write the bundle into (DIR/run, DIR/config.json)"),
    bot: str = typer.Option("exploit", "--bot", help="registered bot: checker, rate_equity or exploit"),
    set_: list[str] = typer.Option([], "--set", help="bot setting k=v (repeatable)"),
):
    """Write an executable DIR/run that plays Hold'em Training on stdin/stdout, and warm its cache."""
    from bots.base import ConfigError
    from bots.holdem_training import bundle

    try:
        made = bundle.write(out, bot, set_)
    except (KeyError, ConfigError) as exc:
        typer.echo(f"error: {exc.args[0] if exc.args else exc}", err=True)
        raise typer.Exit(2) from None
    cpu = "" if made.warm_cpu_seconds is None else f", {made.warm_cpu_seconds:.2f} s CPU"
    typer.echo(f"wrote {made.run} (warm-up match of {bundle.WARM_HANDS} hands: {made.warm_status}{cpu})")
    if not made.warm_status.startswith("ok"):
        raise typer.Exit(1)
