"""Fit the TwoCardDraw server from a logged match: the opponent-fitting Prefect flow (`cardlab twocarddraw fit`).

Part of TwoCardDraw's opponent model (flows/opponents/twocarddraw.py seats and scores what fit_server
fits): flows/ itself names no game. The quality curve needs the true server, which only a generated or
file server gives, so it stays this game's own command rather than `cardlab fit`'s.

Plain functions do the work (tests call them directly); the flow only wires them:
read the hand log -> rebuild what the player saw -> fit at growing numbers of hands (EM over
the server's hidden cards; also plain counts from the true cards as the full-information
reference) -> measure each fit against the true strategy -> write the final fit as a
strategy file -> log metrics, the plot and the file to MLflow.

fit_server is the fit the opponent model uses (flows/opponents/twocarddraw.py): the mixture bot's
posterior shrunk toward its prior, which on held-out servers loses no more value than the prior at
any number of hands (docs/twocarddraw-strength.md); the curve above still draws the batch EM.
"""

import os
from dataclasses import asdict, dataclass
from pathlib import Path

import duckdb
import numpy as np

from bots.twocarddraw.learner import fit_em
from bots.twocarddraw.prior import bank_pseudo_counts
from bots.twocarddraw.tracker import Observation
from engine.core.errors import BadValue, NotFound
from engine.twocarddraw import rules as R
from engine.twocarddraw.analysis import fit_quality
from engine.twocarddraw.protocol import write_strategy
from engine.twocarddraw.strategy import Strategy
from flows.stats import Z95, summarize
from flows.store import read_only

DEFAULT_CHECKPOINTS = (0, 100, 300, 1000, 3000, 10_000)
LETTER_CODES = {"f": R.FOLD, "c": R.CALL, "r": R.RAISE}
HAND_COLUMNS = ("hand", "bet1", "bet2", "s_card1", "s_card2", "p_drew", "s_drew", "s_final1", "s_final2",
                "round1", "round2", "bets1", "first", "ended")


# ----------------------------------------------------------------------------------- reading
def read_hands(db: duckdb.DuckDBPyConnection | str | Path, match_id: str | None = None) -> tuple[str, dict]:
    """(match id, columns) of a match's tcd_hands rows in hand order; the latest match if no id."""
    con = db if isinstance(db, duckdb.DuckDBPyConnection) else read_only(db)
    try:
        if match_id is None:
            row = con.execute(
                "SELECT match_id FROM matches WHERE game = 'twocarddraw' ORDER BY started_at DESC LIMIT 1"
            ).fetchone()
            if row is None:
                raise NotFound("no twocarddraw match in the hand log; run `cardlab judge twocarddraw --log`")
            match_id = row[0]
        cols = ", ".join(f'"{c}"' for c in HAND_COLUMNS)
        table = con.execute(
            f"SELECT {cols} FROM tcd_hands WHERE match_id = ? ORDER BY hand", [match_id]
        ).fetchnumpy()
    finally:
        if con is not db:
            con.close()
    if len(table["hand"]) == 0:
        raise NotFound(f"match {match_id!r} has no twocarddraw hands")
    return match_id, {c: np.asarray(table[c]) for c in HAND_COLUMNS}


def truth_of_match(db: str | Path, match_id: str) -> Strategy:
    """The server a logged match faced, from its recorded options (a file or generator fields)."""
    import json

    from bots.base import build_config
    from engine.twocarddraw.judge import MatchOptions, load_server

    with read_only(db) as con:
        row = con.execute("SELECT options FROM matches WHERE match_id = ?", [match_id]).fetchone()
    if row is None:
        raise NotFound(f"no match {match_id!r} in {db}")
    options = json.loads(row[0] or "{}")  # values may be k=v strings or typed
    known = {k: str(v) for k, v in options.items() if k in MatchOptions.__dataclass_fields__}
    return load_server(build_config(MatchOptions, known, owner=f"options of {match_id}"))


def bets_of(hands: dict) -> R.BetSizes:
    return R.BetSizes(int(hands["bet1"][0]), int(hands["bet2"][0]))


def server_moves(letters: str) -> tuple[tuple[int, int], ...]:
    """(bets the server faced, its action) from a round's letters (player first, alternating)."""
    moves, bets = [], 0
    for n, letter in enumerate(letters):
        if n % 2 == 1:
            moves.append((bets, LETTER_CODES[letter]))
        if letter in "br":
            bets += 1
    return tuple(moves)


def observations(hands: dict) -> list[Observation]:
    """What the player saw of each hand: server moves, draw counts, server cards at showdown only."""
    out = []
    for n in range(len(hands["hand"])):
        drew = int(hands["p_drew"][n])
        history = R.history_index(int(hands["bets1"][n]), int(hands["first"][n])) if drew >= 0 else -1
        shown = -1
        if hands["ended"][n] == "showdown":
            shown = R.hand_index(int(hands["s_final1"][n]), int(hands["s_final2"][n]))
        out.append(Observation(server_moves(str(hands["round1"][n])), history, drew, int(hands["s_drew"][n]),
                               server_moves(str(hands["round2"][n])), shown))
    return out


# ----------------------------------------------------------------------------------- fitting
def uniform_prior(strength: float = 1.0) -> np.ndarray:
    """Pseudo-counts: `strength` spread evenly over each row's allowed actions."""
    mask = R.allowed_actions().astype(float)
    return strength * mask / mask.sum(axis=1, keepdims=True)


def prior_counts(bets: R.BetSizes, prior: str = "bank", *, strength: float = 1.0, bank_count: int = 16) -> np.ndarray:
    """Pseudo-counts to fit from: 'uniform' (strength spread over allowed actions) or 'bank'
    (the mean of strategies generated for these bet sizes, strength matched to their spread)."""
    if prior == "uniform":
        return uniform_prior(strength)
    if prior == "bank":
        return bank_pseudo_counts(bets, count=bank_count, scale=strength)
    raise BadValue(f"prior must be 'uniform' or 'bank', got {prior!r}")


def fit_observed(obs: list[Observation], bets: R.BetSizes, prior: np.ndarray, *, iterations: int = 5) -> Strategy:
    """EM over the server's hidden cards, using only what the player saw."""
    return Strategy(bets, fit_em(obs, prior, iterations=iterations))


SHRINK_HANDS = 3_000.0  # hands at which the fit and the prior weigh the same (tuned on the tuning set)


def fit_server(obs: list[Observation], bets: R.BetSizes, *, shrink_hands: float = SHRINK_HANDS,
               settings: dict | None = None) -> Strategy:
    """The fitted server: the posterior after the hands (fit_posterior) pulled toward the prior (the
    posterior with no hands) with weight n / (n + shrink_hands) for n hands, so with no hands it is
    the prior and a few hands cannot move it past what they support."""
    prior = fit_posterior([], bets, settings=settings)
    if not obs:
        return prior
    return shrunk(fit_posterior(obs, bets, settings=settings), prior, len(obs), shrink_hands=shrink_hands)


def shrunk(fit: Strategy, prior: Strategy, hands: int, *, shrink_hands: float = SHRINK_HANDS) -> Strategy:
    """fit and prior mixed row by row, weight hands / (hands + shrink_hands) on the fit."""
    weight = hands / (hands + shrink_hands) if hands + shrink_hands > 0 else 1.0
    return fit.with_probs(weight * fit.probs + (1.0 - weight) * prior.probs)


def fit_posterior(obs: list[Observation], bets: R.BetSizes, *, settings: dict | None = None) -> Strategy:
    """The mixture bot's posterior mean after replaying the hands: its step-bucket prior (no hands:
    the prior itself), online EM on what the player saw, buckets weighed by the evidence. (Batch EM
    from the bank prior, fit_observed, sharpens its own guesses of the hidden cards and lost 4x
    the prior's value on a tuning server.) settings: mixture bot config overrides."""
    from bots.twocarddraw import BOTS

    spec = BOTS["mixture"]
    bot = spec.make(spec.config_from({"resolve_every": "1000000", **(settings or {})}))
    bot.init(bets.bet1, bets.bet2)
    for observation in obs:
        bot.on_hand_over(observation)
    bot.refresh()
    return Strategy(bets, bot.means.copy())


def fit_full_information(hands: dict, count: int, bets: R.BetSizes, prior: np.ndarray, *,
                         start: int = 0) -> Strategy:
    """Counts of the server's actual choices (true cards from the log) in hands start..start+count-1:
    the reference fit."""
    counts = prior.copy()
    for n in range(start, start + count):
        for row, action in server_choices(hands, n):
            counts[row, action] += 1.0
    return Strategy(bets, counts / counts.sum(axis=1, keepdims=True))


def server_choices(hands: dict, n: int) -> list[tuple[int, int]]:
    """(server row, action) of every choice the server made in hand n, from its true cards."""
    dealt = R.hand_index(int(hands["s_card1"][n]), int(hands["s_card2"][n]))
    choices = [(R.round1_row(bets, dealt), a) for bets, a in server_moves(str(hands["round1"][n]))]
    drew = int(hands["p_drew"][n])
    if drew < 0:
        return choices
    history = R.history_index(int(hands["bets1"][n]), int(hands["first"][n]))
    server_drew = int(hands["s_drew"][n])
    choices.append((R.draw_row(history, drew, dealt), server_drew))
    final = R.hand_index(int(hands["s_final1"][n]), int(hands["s_final2"][n]))
    for bets, a in server_moves(str(hands["round2"][n])):
        choices.append((R.round2_row(history, drew, server_drew, bets, final), a))
    return choices


@dataclass(frozen=True)
class CurvePoint:
    hands: int
    method: str  # observed (EM on what the player saw) or full_info (true server cards)
    weighted_error: float  # means over `windows` disjoint runs of `hands` hands
    max_error_reached: float
    value_lost: float
    windows: int = 1
    weighted_error_se: float = 0.0  # standard error over the windows (0 with one window)
    value_lost_se: float = 0.0


def quality_curve(hands: dict, truth: Strategy, checkpoints=DEFAULT_CHECKPOINTS, *, prior: str = "bank",
                  prior_strength: float = 1.0, iterations: int = 5,
                  repeats: int = 1) -> tuple[list[CurvePoint], Strategy]:
    """Fit quality against the truth after each checkpoint's number of hands (0 = the prior
    alone), averaged over up to `repeats` disjoint runs of that many hands (as many as the log
    holds) so each point has an error bar; returns the fit on the first run of the last count."""
    obs = observations(hands)
    bets = bets_of(hands)
    pseudo = prior_counts(bets, prior, strength=prior_strength)
    points, fit = [], None
    for count in sorted({min(c, len(obs)) for c in checkpoints}):
        windows = 1 if count == 0 else max(1, min(repeats, len(obs) // count))
        found = {"observed": [], "full_info": []}
        for w in range(windows):
            em = fit_observed(obs[w * count:(w + 1) * count], bets, pseudo, iterations=iterations)
            if w == 0:
                fit = em
            full = fit_full_information(hands, count, bets, pseudo, start=w * count)
            found["observed"].append(fit_quality(em, truth))
            found["full_info"].append(fit_quality(full, truth))
        for method, qs in found.items():
            points.append(CurvePoint(count, method, *(float(np.mean([getattr(q, k) for q in qs])) for k in
                                                      ("weighted_error", "max_error_reached", "value_lost")),
                                     windows, _se([q.weighted_error for q in qs]), _se([q.value_lost for q in qs])))
    return points, fit


def _se(values: list[float]) -> float:
    return summarize(values).se if len(values) > 1 else 0.0


def plot_curve(points: list[CurvePoint], path: Path, *, title: str = "") -> Path:
    """Fit quality against hands observed, the prior alone at 0 hands (a symlog axis keeps it),
    a dashed line at the prior's level (a fit above it is worse than no data), 95% error bars
    over the disjoint windows."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    positive = [p.hands for p in points if p.hands > 0]
    for ax, key, label in ((axes[0], "weighted_error", "reach-weighted TV error per situation"),
                           (axes[1], "value_lost", "value lost per hand (BR to fit vs truth)")):
        for method in ("observed", "full_info"):
            pts = [p for p in points if p.method == method]
            ax.errorbar([p.hands for p in pts], [getattr(p, key) for p in pts],
                        yerr=[Z95 * getattr(p, f"{key}_se") for p in pts], marker="o", capsize=3, label=method)
        prior = [getattr(p, key) for p in points if p.hands == 0]
        if prior:
            ax.axhline(prior[0], color="grey", ls="--", lw=1, label="prior alone (0 hands)")
        linthresh = min(positive) if positive else 1
        ax.set_xscale("symlog", linthresh=linthresh)
        ax.set_xlim(-0.3 * linthresh, 1.5 * max(positive or [1]))
        ax.set(xlabel="hands observed (0 = prior alone)", ylabel=label)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(title + " (error bars: 95% over disjoint windows of hands)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def log_to_mlflow(points: list[CurvePoint], *, match_id: str, fit_path: Path, plot_path: Path,
                  params: dict) -> str:
    """One MLflow run per fit: params, metrics per method with step = hands, plot and fit file."""
    import mlflow

    mlflow.set_experiment(os.environ.get("CARDLAB_FIT_EXPERIMENT", "cardlab-twocarddraw-fit"))
    with mlflow.start_run(run_name=f"fit-{match_id}") as run:
        mlflow.log_params({"match_id": match_id, **params})
        for p in points:
            for key in ("weighted_error", "max_error_reached", "value_lost"):
                mlflow.log_metric(f"{p.method}_{key}", getattr(p, key), step=p.hands)
        mlflow.log_artifact(str(plot_path))
        mlflow.log_artifact(str(fit_path))
        return run.info.run_id


# ----------------------------------------------------------------------------------- the flow
@dataclass(frozen=True)
class FitResult:
    match_id: str
    fit_path: str
    plot_path: str
    mlflow_run_id: str | None
    points: tuple[CurvePoint, ...]

    def as_dict(self) -> dict:
        return {**{k: v for k, v in asdict(self).items() if k != "points"},
                "points": [asdict(p) for p in self.points]}


def _flow():
    from prefect import flow, task
    from prefect.cache_policies import NO_CACHE

    from flows.runners import make_task_runner

    read_task = task(read_hands, name="read-hands", cache_policy=NO_CACHE, retries=1)
    curve_task = task(quality_curve, name="fit-and-measure", cache_policy=NO_CACHE)
    log_task = task(log_to_mlflow, name="log-mlflow", cache_policy=NO_CACHE, retries=1)

    # The fit (the heavy part) runs on the task runner set by CARDLAB_TASK_RUNNER: threads, or a
    # Dask worker (its functions are module-level, so they pickle by reference).
    @flow(name="twocarddraw-fit-opponent", validate_parameters=False, log_prints=True,
          task_runner=make_task_runner())
    def fit_opponent_flow(db: str, truth: Strategy, out: str, match_id: str | None = None,
                          checkpoints: tuple[int, ...] = DEFAULT_CHECKPOINTS, prior: str = "bank",
                          prior_strength: float = 1.0, iterations: int = 5, track: bool = True,
                          repeats: int = 4) -> FitResult:
        match_id, hands = read_task(db, match_id)  # here: the hand log is this machine's file
        points, fit = curve_task.submit(hands, truth, checkpoints, prior=prior, prior_strength=prior_strength,
                                        iterations=iterations, repeats=repeats).result()
        out_path = Path(out)
        out_path.parent.mkdir(parents=True, exist_ok=True)
        write_strategy(fit, out_path)
        plot = plot_curve(points, out_path.with_suffix(".png"), title=f"TwoCardDraw fit of {match_id}")
        run_id = None
        if track:
            params = {"checkpoints": list(checkpoints), "prior": prior, "prior_strength": prior_strength,
                      "iterations": iterations}
            run_id = log_task(points, match_id=match_id, fit_path=out_path, plot_path=plot, params=params)
        return FitResult(match_id, str(out_path), str(plot), run_id, tuple(points))

    return fit_opponent_flow


def fit_opponent(db: str | Path, truth: Strategy, out: str | Path, **kwargs) -> FitResult:
    """Run the Prefect flow (imports Prefect only when called)."""
    return _flow()(str(db), truth, str(out), **kwargs)
