"""`cardlab judge splendor`, `cardlab export splendor`, `cardlab splendor ...`, `cardlab bench splendor ...`."""

import dataclasses
import json
import os
import shlex
import stat
import sys
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from cardlab import checks, options
from cardlab.errors import fail as _fail
from cardlab.judged import log_judged
from cardlab.program_env import ENV_HELP, parse_env
from engine.core.seeds import JUDGE_SEEDS

app = typer.Typer(help="Splendor (nerdvana-ro arbiter): tournaments and game records.", no_args_is_help=True)
bench_app = typer.Typer(help="Splendor benchmarks: random-game speed, search strength.", no_args_is_help=True)
PROJECT = Path(__file__).resolve().parents[2]


@app.callback()
def _splendor_group():
    """Splendor (nerdvana-ro arbiter): tournaments and game records."""


@bench_app.callback()
def _bench_group():
    """Splendor benchmarks."""


def _bots():
    from bots.splendor import BOTS

    return BOTS


def _agent_names(commands: list[str]) -> list[str]:
    names = []
    for command in commands:
        argv = shlex.split(command)  # checked by the judge's callback: parses, not empty
        path = Path(argv[-1] if len(argv) > 1 else argv[0])
        base = path.parent.name if path.name == "run" and path.parent.name else path.stem or path.name
        name, k = base, 2
        while name in names:
            name, k = f"{base}-{k}", k + 1
        names.append(name)
    return names


def _standings_table(title: str, standings, ratings=None) -> Table:
    table = Table(title=title)
    for column in ("agent", "points", "wins", "prestige", "games"):
        table.add_column(column, justify="left" if column == "agent" else "right")
    if ratings:
        table.add_column("rating (mu - 3 sigma)", justify="right")
    by_name = {r[0]: r for r in ratings or []}
    for s in standings:
        row = [s.name, f"{s.points:g}", str(s.wins), str(s.prestige), str(s.games)]
        if ratings:
            row.append(f"{by_name[s.name][3]:.2f}")
        table.add_row(*row)
    return table


def judge(
    games: int = typer.Option(2, "--games", help="games in the match (seats rotate after each)", callback=checks.count),
    seed: int = typer.Option(JUDGE_SEEDS.default, "--seed", help="match seed (see --deals; the default is the judge's "
                                                                   "own range)", callback=checks.seed),
    deals: str = typer.Option("cardlab", "--deals",
                              help="cardlab: game g's deal depends on (seed, g) only (sweeps); php: the contest "
                                   "arbiter's deals, PHP's Mt19937 seeded once per match (arbiter.php --seed S)"),
    commands: list[str] = typer.Argument(..., help="1-4 agent commands, each one string, e.g. \"python3 a.py\"",
                                         callback=checks.programs(1, 4)),
    save: Path | None = typer.Option(None, "--save", help="write DIR/game-NNN.json records",
                                     callback=checks.output_dir),
    save_inputs: bool = typer.Option(False, "--save-inputs", help="also write every agent's stdin (needs --save)"),
    cpu: float = typer.Option(11.0, "--cpu", help="CPU seconds per move (contest: 11)", callback=checks.limit),
    wall: float = typer.Option(60.0, "--wall", help="wall-clock guard per move in seconds: cardlab's safety net "
                               "(the arbiter has none; its limit is CPU time)", callback=checks.limit),
    strict_exit: bool = typer.Option(False, "--strict-exit", help="a crash or a limit makes the move a pass"),
    log: bool = typer.Option(False, "--log", help="append the games to the DuckDB hand log (first agent)",
                             callback=checks.when_logging),
    env: list[str] = typer.Option([], "--env", help=ENV_HELP),
    keep: Path | None = typer.Option(None, "--keep", help="save each move's stderr here (AGENT.N.stderr)",
                                     callback=checks.output_dir),
    keep_folder: bool = typer.Option(False, "--keep-folder", help="with --keep: save the working folder too"),
):
    """Play external agents as the contest's arbiter does; print each player's points and wins."""
    from engine.splendor.agents import AgentNotFound, ExternalAgent
    from engine.splendor.judge import DEALS, match_chunk, play_match
    from engine.splendor.record import save_game

    if deals not in DEALS:
        _fail(f"--deals {deals!r}: not a deal source; accepted: {', '.join(DEALS)}")
    if deals == "php" and seed == 0:
        _fail("--seed 0: not reproducible with --deals php (the arbiter replaces 0 by the clock); "
              "accepted: 1 or more")
    if save_inputs and save is None:
        _fail("--save-inputs: given without --save; accepted: --save-inputs with --save DIR")
    if keep_folder and keep is None:
        _fail("--keep-folder needs --keep DIR")
    from engine.core.process import Keep

    kept = Keep(str(keep), "agent", keep_folder) if keep is not None else None
    names = _agent_names(commands)
    try:
        agents = [ExternalAgent(n, c, cpu_seconds=cpu, wall_seconds=wall, strict_exit=strict_exit,
                                env=parse_env(env), keep=kept) for n, c in zip(names, commands, strict=True)]
    except AgentNotFound as exc:
        _fail(str(exc))
    console = Console()

    def on_game(g, result):
        if save is not None:
            save_game(result, save, g + 1, inputs=save_inputs)
        console.print(f"game {g + 1}: {' '.join(f'{n}={s}' for n, s in zip(result.names, result.scores, strict=True))}"
                      f" rounds={result.rounds} winners={[result.names[w] for w in result.winners]}")

    started = time.perf_counter()
    result = play_match(agents, games=games, seed=seed, keep_inputs=save_inputs, on_game=on_game, deals=deals)
    seconds = time.perf_counter() - started
    console.print(_standings_table(f"Splendor match, {games} games, seed {seed}, {deals} deals", result.standings))
    for name in names:
        turns = [t for g in result.games for t in g.turns if g.names[t.event.seat] == name]
        cpu_max = max((t.reply.cpu_seconds for t in turns), default=0.0)
        wall_max = max((t.reply.wall_seconds for t in turns), default=0.0)
        limits = sum(t.reply.limit is not None for t in turns)
        crashes = [t.reply.crash for t in turns if t.reply.crash]
        console.print(f"{name}: max per move {cpu_max:.2f} s CPU, {wall_max:.2f} s wall; "
                      f"limit hits {limits}; crashes {len(crashes)}; passes {sum(t.event.move is None for t in turns)}"
                      + (f"; last crash: {crashes[-1]}" if crashes else ""), markup=False)
    if result.interrupted:
        typer.echo(f"interrupted: {len(result.games)} of {games} games finished and kept", err=True)
    if log and result.games:
        log_judged("splendor", bot=f"external:{names[0]}", config={"command": commands[0]}, seed=seed,
                   log=match_chunk(result, names[0]), options={"agents": dict(zip(names, commands, strict=True))},
                   seconds=seconds)
    if result.interrupted:
        raise typer.Exit(130)


RUN_TEMPLATE = """#!{python}
# A cardlab Splendor agent ({bot}); one move per process: stdin in, move out.
import os
import sys

os.environ.setdefault("NUMBA_CACHE_DIR", {cache!r})
sys.path.insert(0, {project!r})
from bots.splendor.agent import run_agent  # noqa: E402

sys.exit(run_agent({bot!r}, {settings!r}))
"""


def export(
    out: Path = typer.Option(..., "--out", help="directory to write (created if missing)", callback=checks.output_dir),
    bot: str = typer.Option("mcts", "--bot", help="bot to export (random, greedy, mcts)"),
    set_: list[str] = typer.Option([], "--set", help="bot config as key=value (repeatable)"),
):
    """Write DIR/run: an executable contest agent using this project's venv python."""
    chosen = options.bot(_bots(), bot, set_)
    spec, settings = chosen.spec, options.settings_of(dataclasses.asdict(chosen.config))
    out.mkdir(parents=True, exist_ok=True)
    python = PROJECT / ".venv" / "bin" / "python"
    run = out / "run"
    run.write_text(RUN_TEMPLATE.format(python=python if python.exists() else sys.executable, bot=spec.name,
                                       settings=settings, project=str(PROJECT),
                                       cache=os.environ.get("NUMBA_CACHE_DIR", str(PROJECT / ".cache" / "numba"))))
    run.chmod(run.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    frozen = {"bot": spec.name, "config": dict(options.pairs(settings, "--set", strip=False))}
    (out / "bot.json").write_text(json.dumps(frozen, indent=2) + "\n")
    typer.echo(f"wrote {run} ({spec.name}); try: cardlab judge splendor --games 2 -- {run} {run}")


@app.command("tournament")
def tournament(
    bots: list[str] = typer.Argument(..., help="bots as NAME or NAME:k=v,k=v (a name may repeat with settings)"),
    games: int = typer.Option(2, "--games", min=1, help="games per match"),
    seed: int = typer.Option(1, "--seed", min=0),
    table_size: int = typer.Option(2, "--table-size", min=2, max=4, help="2: round robin; 3-4: all tables"),
    save: Path | None = typer.Option(None, "--save", help="write records to DIR/<match>/game-NNN.json"),
    log: bool = typer.Option(False, "--log", help="log every match to the DuckDB hand log (first seat's view)"),
):
    """In-process tournament as the contest ran them; standings plus openskill ratings."""
    from engine.splendor.agents import InProcessAgent
    from engine.splendor.judge import match_chunk
    from engine.splendor.record import save_game
    from engine.splendor.tournament import tournament2, tournament34
    from flows.games.splendor import ratings

    agents = []
    for item in bots:
        chosen = options.entry(_bots(), item, option="BOTS", settings_sep=",")
        agents.append(InProcessAgent(item if item not in [a.name for a in agents] else f"{item}#{len(agents)}",
                                     chosen.make()))
    if len(agents) < table_size:
        _fail(f"--table-size {table_size}: more seats than the {len(agents)} bots; accepted: {len(agents)} at most")

    def on_match(names, result):
        if save is not None:
            for g, game in enumerate(result.games):
                save_game(game, save / "---".join(n.replace("/", "_") for n in names), g + 1)
        typer.echo(f"{' vs '.join(names)}: " + ", ".join(f"{s.name} {s.points:g}" for s in result.standings))
        if log:
            log_judged("splendor", bot=names[0], config={"tournament_seat": names[0]}, seed=seed,
                       log=match_chunk(result, names[0]), options={"agents": list(names)},
                       say=lambda line: typer.echo(f"  {line}"))

    if table_size == 2:
        result = tournament2(agents, games=games, seed=seed, on_match=on_match)
    else:
        result = tournament34(agents, table_size=table_size, games=games, seed=seed, on_match=on_match)
    Console().print(_standings_table("Splendor tournament", result.standings, ratings(result.games())))


@app.command("replay")
def replay(
    record_file: Path = typer.Argument(..., help="a game-NNN.json record", callback=checks.input_file),
    inputs: Path | None = typer.Option(None, "--inputs", file_okay=False,
                                       help="its inputs folder (default: inputs-NNN beside the record, if there)"),
):
    """Replay a saved record and check it all: every turn's tokens, returns, noble and message, the
    game's end, the file's bytes, and every agent's stdin in the inputs folder."""
    from engine.splendor.record import ReplayMismatch, check_file

    if inputs is None:
        sibling = record_file.parent / record_file.stem.replace("game-", "inputs-", 1)
        inputs = sibling if record_file.stem.startswith("game-") and sibling.is_dir() else None
    elif not inputs.is_dir():
        _fail(f"--inputs {inputs}: not a folder; accepted: the inputs-NNN folder the judge or arbiter saved")
    try:
        states = check_file(record_file, inputs)
    except ReplayMismatch as exc:
        _fail(f"{record_file}: differs from the engine: {exc}", code=1)
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        _fail(f"{record_file}: not a valid Splendor record ({exc})")
    final = states[-1]
    checked = f"; inputs {inputs} match" if inputs is not None else ""
    typer.echo(f"{len(states) - 1} turns, rounds {final.round - 1}, scores {final.scores()}: record matches{checked}")


@bench_app.command("speed")
def bench_speed(
    games: int = typer.Option(50_000, "--games", min=100, help="numba random games to time"),
    peer_games: int = typer.Option(100, "--peer-games", min=10, help="reference-engine games (the peer)"),
    seed: int = typer.Option(1, "--seed", min=0),
):
    """Random 2-player games per second on one core: numba engine vs the Python reference."""
    from bench.splendor.speed import TARGET_GAMES_PER_SECOND, speed

    r = speed(games=games, peer_games=peer_games, seed=seed)
    fast_rate, peer_rate = r.games_per_cpu_second, r.peer_games_per_cpu_second
    verdict = "met" if fast_rate >= TARGET_GAMES_PER_SECOND else "NOT met"
    typer.echo(f"numba: {fast_rate:,.0f} games/s of CPU time ({games / r.numba_wall:,.0f}/s wall on a shared machine;"
               f" {r.turns_per_game:.1f} turns/game, {r.total_turns / r.numba_cpu / 1e6:.2f} M turns/s)")
    typer.echo(f"python reference engine (peer): {peer_rate:,.1f} games/s of CPU ({peer_games / r.peer_wall:,.1f}/s "
               f"wall); numba/peer {fast_rate / peer_rate:,.0f}x; issue target 20,000 games/s: {verdict}")


@bench_app.command("strength")
def bench_strength(
    games: int = typer.Option(20, "--games", min=1, help="games per setting"),
    time_ms: int = typer.Option(200, "--time-ms", min=1, help="search budget per move"),
    players: str = typer.Option("2,4", "--players", help="table sizes to run: 2, 4 or 2,4"),
    seed: int = typer.Option(1, "--seed", min=0),
    set_: list[str] = typer.Option([], "--set", help="extra mcts config key=value"),
):
    """The search bot vs greedy: 2-player win share, and 4-player tables vs three greedy bots."""
    from bench.splendor.strength import TARGETS, strength_at

    chosen = options.bot(_bots(), "mcts", [f"time_ms={time_ms}", *set_])
    spec, config = chosen.spec, chosen.config
    sizes = sorted(set(options.integers(players, "--players", lo=2, hi=4, accepted="2, 4 or 2,4")))
    if 3 in sizes:
        _fail(f"--players {players!r}: 3 is not measured; accepted: 2, 4 or 2,4")
    for size in sizes:
        r = strength_at(spec, config, players=size, games=games, seed=seed)
        share = r.share
        typer.echo(f"{size} players, mcts {time_ms} ms/move vs greedy: win share {share.rate:.2f} "
                   f"(95% Wilson {share.low:.2f} .. {share.high:.2f}) over {games} games; chance-level {1 / size:.2f}; "
                   f"issue target at 1 s/move {TARGETS[size]:.2f}; {r.seconds:.0f} s")


@app.command("report")
def report(
    db: Path | None = typer.Option(None, "--db", help="hand log (default: the workspace's)",
                                   callback=checks.hand_log_to_read),
    out: Path | None = typer.Option(None, "--out", help="directory for the plot (default: the workspace's out/)"),
    last: int = typer.Option(8, "--last", min=1, help="most recent matches to show"),
):
    """Win rates per match from the hand log, and a PNG of the candidate's points over rounds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from engine.core.errors import MissingFile
    from flows.settings import Paths
    from flows.store import read_only

    try:
        con = read_only(db)
    except MissingFile as exc:  # one line also where the command is mounted without cardlab's guard
        _fail(str(exc))
    with con:  # read it all, then let go of the hand log before plotting
        results = con.execute(
            "SELECT r.match_id, r.bot, r.games, r.win_share, r.win_share_lo, r.win_share_hi, r.mean_points, "
            "r.mean_rounds FROM mart_spl_results r JOIN matches m USING (match_id) "
            "ORDER BY m.started_at DESC LIMIT ?", [last]).fetchall()
        curves = {mid: con.execute("SELECT round, mean_points FROM mart_spl_points_by_round WHERE match_id = ? "
                                   "ORDER BY round", [mid]).fetchall() for mid, *_ in results}
    if not results:
        _fail("no Splendor games in the hand log; run `cardlab match splendor` or `cardlab judge splendor --log`")
    table = Table(title="Splendor: candidate win share per match")
    for column in ("match", "bot", "games", "win share (95% CI)", "points", "rounds"):
        table.add_column(column)
    for mid, bot, n, share, lo, hi, points, rounds in results:
        table.add_row(mid, bot, str(n), f"{share:.2f} ({lo:.2f}..{hi:.2f})", f"{points:.1f}", f"{rounds:.1f}")
    Console().print(table)
    fig, ax = plt.subplots(figsize=(7, 4))
    for mid, bot, *_ in results:
        rows = curves[mid]
        ax.plot([r[0] for r in rows], [r[1] for r in rows], label=f"{bot} {mid[-8:]}")
    ax.axhline(15, color="grey", linestyle=":")
    ax.set_xlabel("round")
    ax.set_ylabel("candidate points (mean over games still running)")
    ax.legend(fontsize="small")
    folder = out or Paths.from_env().out
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "splendor_points_by_round.png"
    fig.savefig(path, dpi=100, bbox_inches="tight")
    typer.echo(f"wrote {path}")
