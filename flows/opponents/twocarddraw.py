"""TwoCardDraw's opponent model: the server (the house), fitted from hands a player logged.

The server is named by the option that selected it: the strategy file's name (`strategy`), or
`gen:BET1-BET2-STEPS-SEED` for a generated one; `server` (or `*`) takes every twocarddraw match
asked for (they must share the bet sizes). The fit uses only what the player saw (the mixture
bot's posterior over the server, online EM over its hidden cards, shrunk toward the prior with
weight by the number of hands: flows/opponents/twocarddraw_fit.py fit_server). Held-out figures score the
server's true choices (the hand log keeps its cards) on the held-out hands.

A TwoCardDraw match has one seat, the player's: the fitted server enters as the match option
that selects the server (`server_file(params)` writes it as a strategy file: `--opt strategy=FILE`
in a sweep, `--strategy FILE` in the judge), and `seat(params)` is the candidate that plays the
best response to the fitted server (the oracle bot reading that file), which `cardlab export
twocarddraw --bot oracle --set strategy=FILE` freezes and `cardlab twocarddraw evaluate` measures.
"""

import hashlib
import json
import math
from pathlib import Path

import numpy as np

from bots.twocarddraw import BOTS, OracleConfig
from engine.core.errors import BadValue, NotFound
from engine.twocarddraw import rules as R
from engine.twocarddraw.protocol import write_strategy
from engine.twocarddraw.strategy import Strategy
from flows.opponents import twocarddraw_fit as F
from flows.opponents.base import Calibration, FittedModel

GAME = "twocarddraw"
ANY_SERVER = ("server", "*")
METHOD = "posterior+prior-shrink"
PRIOR_SETTINGS: dict[str, str] = {}  # mixture bot settings of the prior (tests use small banks)
ACTIONS = {"round1": ("fold", "call", "raise"), "draw": ("draw0", "draw1", "draw2"),
           "round2": ("fold", "call", "raise")}


def server_name(options: dict) -> str:
    """The name a server goes by in the hand log: its strategy file's name, or its generator fields."""
    strategy = str(options.get("strategy") or "")
    if strategy:
        return Path(strategy).name
    fields = [str(options.get(k, "")) for k in ("bet1", "bet2", "steps", "strategy_seed")]
    return "gen:" + "-".join(fields)


def _matches(con, player: str, matches) -> list[tuple[str, int]]:
    """(match id, deal seed) of the chosen matches against the server `player`."""
    rows = con.execute("SELECT match_id, options, seed FROM matches WHERE game = ? ORDER BY started_at, match_id",
                       [GAME]).fetchall()
    if matches is not None:
        wanted = list(matches)
        known = {r[0] for r in rows}
        missing = [m for m in wanted if m not in known]
        if missing:
            raise NotFound(f"no twocarddraw match {missing[0]!r} in the hand log; accepted: ids of logged "
                           "twocarddraw matches")
        rows = [r for r in rows if r[0] in set(wanted)]
    if player not in ANY_SERVER:
        names = {m: server_name(json.loads(o or "{}")) for m, o, _ in rows}
        picked = [(m, s) for m, _, s in rows if names[m] == player]
        if not picked:
            seen = sorted(set(names.values()))[:6]
            raise NotFound(f"no twocarddraw match against server {player!r}; accepted: server (every match) or "
                           f"{', '.join(seen) if seen else 'a logged server name'}")
        return picked
    if not rows:
        raise NotFound("no twocarddraw match in the hand log; run `cardlab judge twocarddraw --log` first")
    return [(m, s) for m, _, s in rows]


def _heldout(deal_seed: int, hand: int, seed: int, holdout: float) -> bool:
    """A hand is held out by a hash of its deal (the match seed and the hand's number, which fix its cards)
    and `seed`, not of the match id (new each time a match is logged): the same hands logged again split,
    and fit, the same way."""
    digest = hashlib.sha256(f"{deal_seed}:{hand}:{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < holdout


def fit(con, player: str, *, matches=None, files=(), seed: int = 1, holdout: float = 0.2) -> FittedModel:
    """Fit the server of the chosen matches from what the player saw; held-out hands score it."""
    if files:
        raise BadValue("twocarddraw fits from the hand log only; accepted: no files (log the hands with "
                       "`cardlab judge twocarddraw --log`)")
    if not 0.0 <= holdout < 1.0:
        raise BadValue(f"holdout {holdout}: accepted: a share from 0 to below 1")
    chosen = _matches(con, player, matches)
    ids = [m for m, _ in chosen]
    fit_obs, held, bets = [], [], None
    for mid, deal_seed in chosen:
        _, hands = F.read_hands(con, mid)
        these = F.bets_of(hands)
        if bets is not None and these != bets:
            raise BadValue(f"match {mid} uses bets {these.bet1},{these.bet2}, earlier ones {bets.bet1},{bets.bet2}; "
                           "accepted: matches against one server (the same bet sizes)")
        bets = these
        for n, obs in enumerate(F.observations(hands)):
            if _heldout(deal_seed, int(hands["hand"][n]), seed, holdout):
                held.extend(F.server_choices(hands, n))
            else:
                fit_obs.append(obs)
    fitted = F.fit_server(fit_obs, bets, settings=PRIOR_SETTINGS)
    prior_mean = F.fit_posterior([], bets, settings=PRIOR_SETTINGS).probs
    allowed = R.allowed_actions().astype(float)
    uniform = allowed / allowed.sum(axis=1, keepdims=True)
    return FittedModel(
        game=GAME, player=player, method=METHOD, params=params_of(fitted), decisions=_decisions(fit_obs),
        heldout_decisions=len(held), heldout_logloss=logloss(fitted.probs, held),
        baseline_logloss=logloss(prior_mean, held), uniform_logloss=logloss(uniform, held), sources=tuple(ids),
        calibration=calibration(fitted.probs, held))


def _decisions(observations) -> int:
    return sum(len(o.moves1) + len(o.moves2) + (o.history >= 0) for o in observations)


def logloss(probs: np.ndarray, choices: list[tuple[int, int]]) -> float:
    """Mean negative log-probability of the server's (row, action) choices (nan with none)."""
    if not choices:
        return math.nan
    rows, actions = np.array(choices).T
    return float(-np.log(np.maximum(probs[rows, actions], 1e-12)).mean())


def _kind(row: int) -> str:
    if row < R.DRAW_BASE:
        return f"round1 bets={row // R.N_HANDS}"
    if row < R.ROUND2_BASE:
        return "draw"
    return f"round2 bets={(row - R.ROUND2_BASE) // R.N_HANDS % (R.MAX_BETS + 1)}"


def calibration(probs: np.ndarray, choices: list[tuple[int, int]]) -> tuple[Calibration, ...]:
    """Predicted against observed action shares by kind of situation, on held-out choices."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for row, action in choices:
        groups.setdefault(_kind(row), []).append((row, action))
    out = []
    for situation, picked in sorted(groups.items()):
        rows, actions = np.array(picked).T
        names = ACTIONS[situation.split()[0]]
        observed = np.bincount(actions, minlength=3) / len(actions)
        predicted = probs[rows].mean(axis=0)
        out.append(Calibration(situation, len(picked), {n: float(p) for n, p in zip(names, predicted, strict=True)},
                               {n: float(o) for n, o in zip(names, observed, strict=True)}))
    return tuple(out)


def params_of(strategy: Strategy) -> dict:
    """The model file's content: bet sizes and every row's probabilities."""
    return {"bet1": strategy.bets.bet1, "bet2": strategy.bets.bet2,
            "probs": np.round(strategy.probs, 9).tolist()}


def strategy_of(params: dict) -> Strategy:
    try:
        probs = np.asarray(params["probs"], dtype=np.float64)
        strategy = Strategy(R.BetSizes(int(params["bet1"]), int(params["bet2"])), probs)
    except (KeyError, TypeError, ValueError) as exc:
        raise BadValue(f"twocarddraw model parameters: {exc}; accepted: bet1, bet2 and {R.N_ROWS} rows of 3 "
                       "probabilities") from exc
    return strategy.with_probs(probs / probs.sum(axis=1, keepdims=True))


def server_file(params: dict, folder: Path | None = None) -> Path:
    """The fitted server as a strategy file (the contest's format), named by its content so the
    same model always gives the same file: the match option that selects it as the house."""
    from flows.opponents import model_dir

    strategy = strategy_of(params)
    digest = hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:12]
    path = (folder or model_dir()) / f"twocarddraw-server-{digest}.txt"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        write_strategy(strategy, partial)
        partial.replace(path)
    return path


def seat(params: dict):
    """The candidate that best-responds to the fitted server: the oracle bot reading its file."""
    return BOTS["oracle"], OracleConfig(strategy=str(server_file(params)))


def main(argv: list[str] | None = None) -> None:
    """python -m flows.opponents.twocarddraw MODEL_ID: write the stored model's server as a strategy
    file and print its path (for --strategy, --opt strategy= or the oracle's strategy=)."""
    import sys

    from flows.opponents import load

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        raise SystemExit("usage: python -m flows.opponents.twocarddraw MODEL_ID (as `cardlab fit twocarddraw` printed)")
    model = load(args[0].removeprefix("model:"))
    if model.game != GAME:
        raise SystemExit(f"model {args[0]!r} is a {model.game} model; accepted: a twocarddraw model")
    print(server_file(model.params))


if __name__ == "__main__":
    main()
