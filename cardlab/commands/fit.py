"""`cardlab fit GAME --player NAME`: fit an opponent model from the hand log, store it, and say how
well it predicts held-out decisions (and, with --check-against, whether it plays like the original)."""

import json
import math
from pathlib import Path

import typer

from cardlab import checks
from cardlab.errors import fail


def _league_matches(league: str) -> list[str]:
    from flows.store import read_only

    con = read_only()
    try:
        found = [r[0] for r in con.execute("SELECT match_id FROM league_games WHERE league = ? ORDER BY match_id",
                                           [league]).fetchall()]
    except Exception:  # no league was ever played into this hand log
        found = []
    finally:
        con.close()
    if not found:
        fail(f"--league {league!r}: no games of that league in the hand log; accepted: a league `cardlab league` "
             "played")
    return found


def _number(x) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def fit(game: str = typer.Argument(..., help="Contest name (see `cardlab games`)."),
        player: str = typer.Option(..., "--player", help="Who to model: a seat's name in the log (a bot, a league "
                                                         "entrant NAME or NAME@VERSION, a name in the files)."),
        league: str = typer.Option(None, "--league", help="Fit from this league's games."),
        match: list[str] = typer.Option(None, "--match", help="Fit from these matches (repeatable)."),
        phh: list[Path] = typer.Option(None, "--phh", help="Outside histories the game reads (repeatable): files or "
                                                           "folders in the format it declares (PHH), or `imported` "
                                                           "for those `cardlab phh import` kept."),
        seed: int = typer.Option(1, "--seed", help="Seed of the fit/held-out split.",
                                 callback=checks.within(0, 2**63 - 1)),
        holdout: float = typer.Option(0.2, "--holdout", help="Share of games held out to score the model."),
        check_against: str = typer.Option(None, "--check-against", help="Run the clone test against this original "
                                                                        "(a project bot of the game)."),
        candidates: str = typer.Option(None, "--candidates", help="--check-against: the candidates, '/'-separated "
                                                                  "(default: every project bot of the game)."),
        games: int = typer.Option(100, "--games", help="--check-against: games per candidate and opponent.",
                                  callback=checks.within(2, 100_000)),
        json_: bool = typer.Option(False, "--json", help="Print one JSON object (the last line of output).")):
    """Fit a model of one player from the hand log or hand histories (--phh), store it (`opponent_models`, a
    JSON file, an MLflow artifact) and print its held-out log-loss beside the population and uniform
    baselines. The model then plays as `model:ID` wherever an opponent or entrant is accepted."""
    from flows import games as registry
    from flows import opponents
    from flows.settings import Paths
    from flows.store import HandLog

    if not 0.0 < holdout < 1.0:
        fail(f"--holdout {holdout}: accepted: a share strictly between 0 and 1")
    if league and match:
        fail("--league and --match: given together; accepted: one of them")
    try:
        registry.get(game)
    except registry.UnknownGame as exc:
        fail(str(exc))
    opponents.fitter(game)  # a game without a fitter: one line before anything is read
    matches = _league_matches(league) if league else list(match or []) or None
    if phh and not matches and not Paths.from_env().db.exists():  # histories alone, no hand log yet to read
        model = opponents.fitter(game).fit(None, player, files=tuple(phh), seed=seed, holdout=holdout)
    else:
        model = opponents.fit(game, player, matches=matches, files=tuple(phh or ()), seed=seed, holdout=holdout)
    with HandLog() as store:
        stored = opponents.save(model, store=store)
    out = opponents.summary(model, stored)
    if check_against:
        from flows.opponents.clone_test import clone_test

        spec = registry.get(game)
        names = [c for c in (candidates or "").split("/") if c] or sorted(spec.bots)
        out["clone_test"] = clone_test(game, stored.model_id, check_against, names, games=games,
                                       seed=seed).as_dict()
    if json_:
        typer.echo(json.dumps(out))
        return
    typer.echo(f"model {out['model']}: {player} in {game}, {model.decisions:,} decisions fitted, "
               f"{model.heldout_decisions:,} held out")
    typer.echo(f"held-out log-loss per decision: model {_number(out['heldout_logloss'])}, population "
               f"{_number(out['baseline_logloss'])}, uniform {_number(out['uniform_logloss'])}")
    for c in model.calibration:
        pairs = ", ".join(f"{k} {c.predicted[k]:.2f}/{c.observed.get(k, 0):.2f}" for k in c.predicted)
        typer.echo(f"  {c.situation} ({c.decisions}): predicted/observed {pairs}")
    if "clone_test" in out:
        t = out["clone_test"]
        for r in t["candidates"]:
            typer.echo(f"  {r['candidate']}: vs original {r['vs_original']:+.3f}, vs clone {r['vs_clone']:+.3f} "
                       f"(difference +/- {r['difference_half']:.3f}) {'agrees' if r['agrees'] else 'DIFFERS'}")
        typer.echo(f"ranking against the original {' > '.join(t['ranking_original'])}; against the clone "
                   f"{' > '.join(t['ranking_clone'])}: {'same' if t['same_ranking'] else 'NOT the same'}")
    typer.echo(f"play it as model:{out['model']}; file {out['path']}")
