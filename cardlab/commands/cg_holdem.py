"""`cardlab judge cg-holdem`, `cardlab export cg-holdem`, `cardlab cg-holdem ...`, `cardlab bench cg-holdem ...`.

The judge plays external programs as CodinGame does (persistent processes, 1000 ms for the
first answer and 50 ms after); the seed is the referee's own game seed (a Java long), so a
seed replays the decks of an arena game.
"""

import json
import shlex
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cardlab import checks, options
from cardlab.errors import fail
from cardlab.judged import log_judged
from cardlab.program_env import ENV_HELP, parse_env

console = Console()
app = typer.Typer(help="CodinGame Hold'em: tournaments, hand histories, push/fold chart.", no_args_is_help=True)
bench_app = typer.Typer(help="CodinGame Hold'em benchmarks: speed vs PokerKit, bot strength.", no_args_is_help=True)
app.callback()(lambda: None)  # keep the sub-commands as a group even when only one exists
bench_app.callback()(lambda: None)


def _bots():
    from bots.cg_holdem import BOTS

    return BOTS


# ------------------------------------------------------------------------------------ judge
def judge(
    commands: list[str] = typer.Argument(..., help="2 to 4 programs, each one quoted command string",
                                         callback=checks.programs(2, 4)),
    seed: int = typer.Option(..., "--seed", help="the referee's game seed (a non-zero Java long)",
                             callback=checks.java_seed),
    first_turn_ms: int = typer.Option(1000, "--first-turn-ms", help="time for each program's first answer",
                                      callback=checks.count),
    turn_ms: int = typer.Option(50, "--turn-ms", help="time for every later answer", callback=checks.count),
    phh: Path = typer.Option(None, "--phh", help="also write the hands as PHH hand histories to this file",
                             callback=checks.output_file),
    log: bool = typer.Option(False, "--log", help="append the game's hands to the DuckDB hand log",
                             callback=checks.when_logging),
    json_: bool = typer.Option(False, "--json", help="print one JSON object"),
    env: list[str] = typer.Option([], "--env", help=ENV_HELP),
    keep: Path | None = typer.Option(None, "--keep", help="save each program's stderr here (seatN.stderr)",
                                     callback=checks.output_dir),
    keep_folder: bool = typer.Option(False, "--keep-folder", help="with --keep: save each working folder too"),
    clock: str = options.turn_flags()[2],
):
    """Play one game of external programs and print each seat's final score and rank."""
    from engine.cg_holdem.judge import play_programs
    from engine.cg_holdem.rules import GameConfig
    from engine.core.process import Keep, ProgramEnded

    argvs = [shlex.split(text) for text in commands]  # checked by the callbacks: 2 to 4, each runnable
    clock = options.checked_clock(clock)
    config = GameConfig(players=len(argvs), first_turn_ms=first_turn_ms, turn_ms=turn_ms, clock=clock)
    started = time.perf_counter()
    try:
        if keep_folder and keep is None:
            fail("--keep-folder needs --keep DIR")
        result = play_programs(argvs, seed=seed, config=config, env=parse_env(env),
                               keep=Keep(str(keep), "seat", keep_folder) if keep is not None else None)
    except ProgramEnded as exc:
        fail(str(exc))
    seconds = time.perf_counter() - started
    names = [Path(a[-1]).name for a in argvs]
    rows = [{"seat": s, "command": commands[s], "score": result.scores[s], "rank": result.positions[s],
             "eliminated_order": result.ranks[s], "failure": result.seat_reports[s].get("failure"),
             "limits": result.seat_reports[s].get("limits"), "clock": clock,
             # the longest answer on both clocks: a long wall time with little CPU is a busy machine
             "slowest_turn_wall": result.seat_reports[s].get("slowest_turn_wall"),
             "slowest_turn_cpu": result.seat_reports[s].get("slowest_turn_cpu")}
            for s in range(result.players)]
    out = {"game": "cg-holdem", "seed": seed, "hands": len(result.hands), "rounds": result.rounds,
           "referee_overflow": result.overflow, "seats": rows, "seconds": round(seconds, 3)}
    if phh is not None:
        _write_phh(phh, result, names)
        out["phh"] = str(phh)
    if log:
        from engine.cg_holdem.judge import game_log

        out["match_id"] = log_judged("cg-holdem", bot="external", config={"commands": list(commands)}, seed=abs(seed),
                                     log=game_log(result, names), options={"java_seed": seed}, seconds=seconds,
                                     what="game", say=None).match_id
    if json_:
        typer.echo(json.dumps(out))
        return
    table = Table("seat", "command", "score", "rank", "slowest turn: wall / CPU s", "note",
                  title=f"CodinGame Hold'em, seed {seed}: {len(result.hands)} hands, {result.rounds} rounds")
    for r in rows:
        slowest = (f"{r['slowest_turn_wall']:.3f} / {r['slowest_turn_cpu']:.3f}"
                   if r["slowest_turn_wall"] is not None else "-")
        table.add_row(str(r["seat"]), r["command"], str(r["score"]), str(r["rank"]), slowest, r["failure"] or "")
    console.print(table)
    if result.overflow:
        console.print("note: the Java referee would have crashed here (NONE round past the 600-round cap)")
    for key in ("phh", "match_id"):
        if key in out:
            console.print(f"{key}: {out[key]}")


def _write_phh(path: Path, result, names: list[str]) -> None:
    from engine.cg_holdem.phh import hand_histories

    Path(path).write_text(hand_histories(result.hands, names=names, game=f"cg-holdem seed {result.seed}"))


# ------------------------------------------------------------------------------------ export
def export(
    out: Path = typer.Option(..., "--out", help="the single .py file to write (or a folder for cg_holdem_bot.py)",
                             callback=checks.output_path),
    bot: str = typer.Option("aggressive", "--bot", help="station, montecarlo, pushfold, aggressive or ranged"),
    set_: list[str] = typer.Option([], "--set", help="bot config key=value (repeatable); ranged: "
                                   "read_prior=model:ID, log:NAME or FILE.json (flows/opponents/cg_holdem_prior.py)"),
    budget_ms: int = typer.Option(15, "--budget-ms", callback=checks.within(1, 45),
                                  help="Monte Carlo time per turn of montecarlo and aggressive (ranged stops its "
                                  "own at --set safety_ms=MS, default 30; CodinGame allows 50 ms in all)"),
):
    """Write a single-file Python submission (standard library only, as CodinGame runs it)."""
    from bots.cg_holdem.export import write_submission
    from flows.opponents.cg_holdem_prior import resolve_settings

    chosen = options.bot(_bots(), bot, resolve_settings(set_))  # read_prior=model:ID etc. made the bot's JSON
    if out.is_dir():
        out = out / "cg_holdem_bot.py"
    out.parent.mkdir(parents=True, exist_ok=True)
    write_submission(out, chosen.spec, chosen.config, turn_budget_s=budget_ms / 1000)
    typer.echo(f"wrote {out} ({out.stat().st_size:,} bytes; {chosen.spec.name}: {chosen.config})")


# ------------------------------------------------------------------------------------ tools
@app.command()
def tournament(
    bots: list[str] = typer.Option(["aggressive", "montecarlo", "pushfold", "station"], "--bot",
                                   help="entries: name or name:k=v:k=v (repeatable)"),
    players: list[int] = typer.Option([2, 3, 4], "--players", help="table sizes to play (repeatable)"),
    deals: int = typer.Option(6, "--deals", min=1, help="shared deals per line-up (each played in every rotation)"),
    seed: int = typer.Option(1, "--seed", min=0),
    log: bool = typer.Option(False, "--log", help="append every hand to the DuckDB hand log"),
):
    """Duplicate-format tournament: mean finishing position with 95% CIs and openskill ratings."""
    from flows.games.cg_holdem import run_tournament

    for text in bots:
        options.entry(_bots(), text)
    for n in players:
        try:
            result = run_tournament(list(bots), players=n, deals=deals, seed=seed)
        except ValueError as exc:
            fail(str(exc))
        table = Table("bot", "games", "mean position (95% CI)", "win rate", "openskill mu", "sigma", "ordinal",
                      title=f"{n}-player tables, {deals} deals x {n} rotations per line-up")
        for s in result.standings:
            table.add_row(s.bot, str(s.games), f"{s.mean_position:.3f} ± {s.ci95:.3f}", f"{s.win_rate:.3f}",
                          f"{s.mu:.2f}", f"{s.sigma:.2f}", f"{s.rating:.2f}")
        console.print(table)
        for lineup, chunk in result.logs if log else ():
            log_judged("cg-holdem", bot=lineup[0], config={"lineup": list(lineup)}, seed=seed, log=chunk,
                       options={"players": result.players, "source": "tournament"}, what="/".join(lineup),
                       say=console.print)


@app.command("phh")
def phh_cmd(
    out: Path = typer.Option(..., "--out", help="file to write the hand histories to"),
    bots: list[str] = typer.Option(["aggressive", "montecarlo"], "--bot", help="one per seat, 2 to 4"),
    seed: int = typer.Option(42, "--seed", help="the referee's game seed", callback=checks.java_seed),
):
    """Play one game of in-process bots and write its hands as PHH (PokerKit-readable)."""
    from engine.cg_holdem.judge import BotSeat, play_game

    if not 2 <= len(bots) <= 4:
        fail(f"--bot: {len(bots)} given; accepted: 2 to 4 bots, one per seat")
    seats = [BotSeat(options.entry(_bots(), name).make()) for name in bots]
    result = play_game(seats, seed=seed)
    _write_phh(out, result, list(bots))
    typer.echo(f"wrote {len(result.hands)} hands to {out}")


@app.command("pushfold-chart")
def pushfold_chart(samples: int = typer.Option(2000, min=50, help="deals per class pair")):
    """Recompute the heads-up push/fold chart (bots/cg_holdem/pushfold_chart.py)."""
    from bots.cg_holdem.pushfold import CHART_PATH, chart_source, compute_chart

    CHART_PATH.write_text(chart_source(compute_chart(samples), samples))
    typer.echo(f"wrote {CHART_PATH}")


# ------------------------------------------------------------------------------------ benchmarks
@bench_app.command("speed")
def bench_speed(
    games: int = typer.Option(40, min=1, help="4-player games to play"),
    lineup: str = typer.Option("pushfold/station/pushfold/station",
                               help="4 bots, '/'-separated (Monte Carlo bots spend most of the time thinking)"),
    seed: int = typer.Option(1, min=0),
    repeats: int = typer.Option(5, min=1, help="timed repeats of both sides; the best time of each is kept"),
):
    """Complete 4-player games per second with in-process bots vs PokerKit's state machine
    replaying the same hands (same stacks, blinds, cards and actions), in the same run."""
    names = [n for n in lineup.split("/") if n]
    if len(names) != 4:
        fail(f"--lineup {lineup!r}: {len(names)} bots; accepted: 4 bot entries separated by /")
    for name in names:
        options.entry(_bots(), name, option="--lineup")
    from bench.cg_holdem.speed import speed

    report = speed(names, games=games, seed=seed, repeats=repeats)
    table = Table("measure", "value", title=f"speed: {games} games, line-up {lineup}")
    for key, value in report.figures():
        table.add_row(key, f"{value:.4g}" if isinstance(value, float) else str(value))
    console.print(table)


@bench_app.command("strength")
def bench_strength(
    deals: int = typer.Option(25, min=1, help="shared deals per table (each in every rotation)"),
    best: str = typer.Option("aggressive", help="the bot expected to be best"),
    seed: int = typer.Option(1, min=0),
):
    """4-player games among all bots (mean position, 95% CI) and the best bot heads-up vs montecarlo."""
    from bench.cg_holdem.strength import strength

    result = strength(best, deals=deals, seed=seed)
    four, heads_up = result.four, result.heads_up
    table = Table("bot", "games", "mean position (95% CI)", "win rate", title="4-player tables")
    for s in four.standings:
        table.add_row(s.bot, str(s.games), f"{s.mean_position:.3f} ± {s.ci95:.3f}", f"{s.win_rate:.3f}")
    console.print(table)
    top = four.standings[0].bot
    console.print(f"best mean position: {top} ({'as expected' if top == best else 'NOT ' + best})")
    console.print(f"heads-up {best} vs montecarlo: {heads_up.k}/{heads_up.n} = {heads_up.rate:.3f} "
                  f"(95% Wilson CI {heads_up.low:.3f} .. {heads_up.high:.3f})")
