"""Commands every game gets from its spec alone: `cardlab judge GAME -- COMMAND` for a game that
declares how a program plays (GameSpec.play_program) and no judge command of its own (a game from
another package, say). Nothing here names a game."""

import json
import shlex
import sys

import typer

from cardlab import checks, options


def judge_command(spec):
    """A `judge` command for `spec`: the program in the primary seat for N units of match SEED, through
    the game's own program play (its protocol, its rule for bad output, its limits)."""

    def judge(
        command: list[str] = typer.Argument(..., help="the program and its arguments (after --)"),
        units: int = typer.Option(1000, "--units", "--hands", callback=checks.count, help=f"{spec.unit}s to play"),
        seed: int = typer.Option(1, "--seed", callback=checks.seed, help="match seed: unit i deals from (seed, i)"),
        opt: list[str] = typer.Option([], "--opt", help="game option k=v (repeatable)"),
        log: bool = typer.Option(False, "--log", callback=checks.when_logging, help="append to the hand log"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ):
        from bots.program import PROGRAM_BOT, ProgramConfig
        from cardlab.judged import log_judged
        from flows.stats import summarize

        config = ProgramConfig(shlex.join(command))
        match_options = options.pairs(opt, "--opt")
        played = spec.play_program(config, seed=seed, first=0, count=units, options=spec.options(dict(match_options)))
        summary = summarize(played.payoffs)
        logged = None
        if log:
            logged = log_judged(spec, bot=PROGRAM_BOT, config={"template": config.template}, seed=seed, log=played,
                                options=dict(match_options), say=None).match_id
        if as_json:
            doc = {"game": spec.name, "seed": seed, "units": played.count, "mean": summary.mean,
                   "ci95": [summary.ci_low, summary.ci_high], "stats": played.stats, "match_id": logged}
            sys.stdout.write(json.dumps(doc) + "\n")
            return
        typer.echo(f"{spec.title}: {played.count:,} {spec.unit}s, {spec.payoff_label}: {summary.describe(spec.unit)}")
        if logged:
            typer.echo(f"logged match as {logged}")

    judge.__doc__ = f"Judge a program at {spec.name}: {spec.title}."
    return judge
