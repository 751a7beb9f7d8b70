"""`cardlab tractor ...`, `cardlab judge tractor`, `cardlab export tractor`, `cardlab bench tractor ...`.

Tractor (SPOJ TRACTOR) is a single-round *simulator* contest: a submission reads rounds on
stdin and prints each round's result. There is no bot-vs-judge protocol; `judge` plays
rounds between in-process bots and checks every round against the simulator.
"""

import sys

import typer

from engine.tractor.protocol import InputError
from engine.tractor.simulate import render_trace, simulate_text

app = typer.Typer(help="Tractor single-round simulator (SPOJ TRACTOR) and full-round tools.",
                  no_args_is_help=True)
bench_app = typer.Typer(help="Tractor benchmarks.", no_args_is_help=True)


@app.callback()
def _tractor_group():
    """Tractor single-round simulator (SPOJ TRACTOR) and full-round tools."""


@bench_app.callback()
def _bench_group():
    """Tractor benchmarks."""


def _fail(message: str, code: int = 2):
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def run_simulator(text: str, out, *, trace=None) -> InputError | None:
    """Write every case's output to `out` (trick rows to `trace`); return the input error, if any."""
    try:
        for report in simulate_text(text):
            out.write(report.output())
            if trace is not None:
                trace.write(f"# case {report.round.case}\n" + "\n".join(render_trace(report)) + "\n")
    except InputError as exc:
        out.flush()
        return exc
    return None


@app.command()
def simulate(
    trace: bool = typer.Option(False, "--trace", help="also write trick-by-trick rows to stderr"),
):
    """Read contest input on stdin, print the judge's output byte for byte (exit 2 on malformed input)."""
    text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    error = run_simulator(text, sys.stdout, trace=sys.stderr if trace else None)
    sys.stdout.flush()
    if error is not None:
        _fail(str(error))
