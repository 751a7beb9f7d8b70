"""Commands every game gets from its spec alone: `cardlab judge GAME -- COMMAND` for a game that
declares how a program plays (GameSpec.play_program) and no judge command of its own (a game from
another package, say). Nothing here names a game."""

import json
import shlex
import sys

import typer

from cardlab import checks, options, progress
from engine.core.seeds import JUDGE_SEEDS, purpose_of
from flows.games.base import takes_keyword


def judge_command(spec):
    """A `judge` command for `spec`: the program in the primary seat for N units of match SEED, through
    the game's own program play (its protocol, its rule for bad output, its limits)."""

    def judge(
        command: list[str] = typer.Argument(..., help="the program and its arguments (after --)"),
        units: int = typer.Option(1000, "--units", "--hands", callback=checks.count, help=f"{spec.unit}s to play"),
        seed: int = typer.Option(JUDGE_SEEDS.default, "--seed", callback=checks.seed,
                                  help="match seed: unit i deals from (seed, i); the default is the judge's own range"),
        opt: list[str] = typer.Option([], "--opt", help="game option k=v (repeatable)"),
        log: bool = typer.Option(False, "--log", callback=checks.when_logging, help="append to the hand log"),
        as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    ):
        from bots.program import PROGRAM_BOT, ProgramConfig
        from cardlab.judged import log_judged
        from engine.core.log import concat
        from flows.games.referee_play import MatchEnded, ended_reason
        from flows.stats import summarize

        config = ProgramConfig(shlex.join(command))
        match_options = options.pairs(opt, "--opt")
        game_options = spec.options(dict(match_options))
        whole_match = getattr(spec.play_program, "match", None)  # referee-played: one process for the match
        pieces, status = [], "ok"
        with progress.make() as bar:  # unit i depends on (seed, i) only, so pieces add up to the whole match
            task = bar.add_task(f"judge {spec.name}, {units:,} {spec.unit}s", total=units)
            if whole_match is not None:
                match = whole_match(config, seed=seed, first=0, count=units, on_unit=lambda _: bar.advance(task),
                                    keep_on_interrupt=True)
                pieces.append(match.log)
                status = "ended" if match.ended else "interrupted" if match.interrupted else "ok"
            else:  # one call, so one program for the match as the contests run it: pieces of it restarted
                # the program (losing what it learned) and split its time budget
                whole = _play_whole(spec.play_program, config, seed=seed, count=units, options=game_options)
                pieces.append(whole)
                status = "interrupted" if whole.count < units else "ok"  # a plain call is whole unless interrupted
                bar.advance(task, whole.count)
        played = concat(pieces)
        if status == "interrupted" and not played.count:
            raise KeyboardInterrupt
        logged = None
        if log and played.count:  # every unit played is kept, whatever ended the match
            identity = {"template": config.template, "program_hash": config.program_hash,
                        "folder_hash": config.folder_hash}  # which program these results are of
            logged = log_judged(spec, bot=PROGRAM_BOT, config=identity, seed=seed, log=played,
                                options=dict(match_options) | {"status": status}, say=None).match_id
        if status == "ended":  # the contest stops a match at a crash or a limit: one line, exit 2
            kept = f"; the units played are logged as {logged}" if logged else ""
            raise MatchEnded(f"the program ended the match after {played.count} of {units} units: "
                             f"{ended_reason(match)}{kept}")
        if status == "interrupted":
            typer.echo(f"status interrupted after {played.count:,} of {units:,} {spec.unit}s", err=True)
        summary = summarize(played.payoffs)
        if as_json:
            doc = {"game": spec.name, "seed": seed, "units": played.count, "status": status, "mean": summary.mean,
                   "ci95": [summary.ci_low, summary.ci_high], "stats": played.stats, "match_id": logged}
            sys.stdout.write(json.dumps(doc) + "\n")
            return
        typer.echo(f"{spec.title}: {played.count:,} {spec.unit}s, {spec.payoff_label}: {summary.describe(spec.unit)}; "
                   f"deals: seed {seed} ({purpose_of(seed)} range)")
        if logged:
            typer.echo(f"logged match as {logged}")

    judge.__doc__ = f"Judge a program at {spec.name}: {spec.title}."
    return judge


def _play_whole(play_program, config, *, seed: int, count: int, options):
    """The whole match in one call. A play_program that takes `keep_on_interrupt` (GameSpec.play_program) ends on
    Ctrl-C, SIGTERM or SIGHUP with the units finished, as the referee's play_match does, and those are kept; one that
    does not can only raise, and then nothing was kept: say why in one line."""
    if takes_keyword(play_program, "keep_on_interrupt"):
        return play_program(config, seed=seed, first=0, count=count, options=options, keep_on_interrupt=True)
    try:
        return play_program(config, seed=seed, first=0, count=count, options=options)
    except KeyboardInterrupt:
        typer.echo("note: nothing played was kept: this game's play_program takes no keep_on_interrupt, so it "
                   "returns only a whole match", err=True)
        raise
