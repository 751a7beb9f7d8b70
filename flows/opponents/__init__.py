"""Opponent models as first-class objects: fit one player from the hand log, store it, seat it.

A game opts in with `GameSpec.opponent_model` (flows/opponents/base.py has the interface). A stored
model is a JSON file under the hand log's folder (`opponent_models/ID.json`), a row of the hand
log's `opponent_models` table (data/sql/opponents.sql) and an MLflow artifact. `model:ID` names it
wherever a bot is accepted; the seat is read from the file alone (no database), so worker threads
and processes of a league or sweep resolve it the same way.
"""

import hashlib
import importlib
import json
import re
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

from bots.choice import BotChoice
from engine.core.errors import BadValue, NotFound, UnknownName
from flows.games.base import SQL_DIR
from flows.opponents.base import Calibration, FittedModel
from flows.settings import Paths
from flows.shards import safe_key

MODEL_PREFIX = "model:"  # a seat played by a fitted model, beside `bot:NAME`
OPPONENTS_SQL = SQL_DIR / "opponents.sql"
_SLUG = re.compile(r"[^A-Za-z0-9_.-]+")


class NoOpponentModel(BadValue):
    """The game declares no opponent fitter."""


def fitter(game: str):
    """The module fitting `game`'s opponents, refused in one line when the game has none."""
    from flows import games

    spec = games.get(game)
    if spec.opponent_model is None:
        fitted = [g.name for g in games.specs() if g.opponent_model is not None]
        raise NoOpponentModel(f"{game} has no opponent model; accepted: {', '.join(fitted) or 'none yet'}")
    return importlib.import_module(spec.opponent_model)


def model_dir() -> Path:
    """Where model files live: beside the hand log, so CARDLAB_DB (or CARDLAB_HOME) moves them too."""
    return Paths.from_env().db.parent / "opponent_models"


def model_id(model: FittedModel) -> str:
    """GAME-PLAYER-hash of what determines the fit: the method, the params and the fitter's digest of the
    decisions fitted (their deals and content), never the source match ids, which change each time the same
    games are logged again. A fitter that gives no digest is named by everything it fitted but its sources."""
    data = model.data or {k: v for k, v in asdict(model).items() if k not in ("sources", "data")}
    body = json.dumps({"game": model.game, "player": model.player, "method": model.method, "params": model.params,
                       "data": data}, sort_keys=True, default=str)
    digest = hashlib.sha256(body.encode()).hexdigest()[:10]
    return f"{model.game}-{_SLUG.sub('_', model.player)[:40]}-{digest}"


@dataclass(frozen=True)
class StoredModel:
    model_id: str
    path: Path
    mlflow_run: str | None


def document(model: FittedModel, mid: str) -> dict:
    """The model file: the fit's figures and `params`, which alone make the seat."""
    doc = asdict(model)
    doc["sources"] = list(model.sources)
    doc["calibration"] = [asdict(c) for c in model.calibration]
    return {"model_id": mid, **doc}


def save(model: FittedModel, *, store=None, version: str | None = None, mlflow: bool = True) -> StoredModel:
    """Write the model file, record it in the hand log (`store`: a HandLog, else none is written)
    and log the file as an MLflow artifact of a run of the game's experiment."""
    mid = model_id(model)
    path = model_dir() / f"{mid}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document(model, mid), indent=1, sort_keys=True, default=str))
    run_id = _log_mlflow(model, mid, path) if mlflow else None
    if store is not None:
        store.apply_sql(OPPONENTS_SQL)
        store.put("opponent_models", [{  # one file per id: a model fitted again replaces its row whole
            "model_id": mid, "game": model.game, "player": model.player, "version": version,
            "sources": json.dumps(list(model.sources)), "decisions": model.decisions,
            "heldout_decisions": model.heldout_decisions, "method": model.method,
            "heldout_logloss": _finite(model.heldout_logloss), "baseline_logloss": _finite(model.baseline_logloss),
            "uniform_logloss": _finite(model.uniform_logloss), "path": str(path.resolve()), "mlflow_run": run_id,
            "created_at": datetime.now(UTC).replace(tzinfo=None)}], key=safe_key(mid))
    return StoredModel(mid, path, run_id)


def _finite(x: float) -> float | None:
    return x if x == x and abs(x) != float("inf") else None


def _log_mlflow(model: FittedModel, mid: str, path: Path) -> str:
    import mlflow

    from flows.tracking import experiment_id, mlflow_client

    mlflow_client()
    with mlflow.start_run(experiment_id=experiment_id(model.game), run_name=f"opponent model {mid}") as run:
        mlflow.set_tags({"cardlab.kind": "opponent_model", "cardlab.game": model.game,
                         "cardlab.player": model.player, "cardlab.model_id": mid})
        mlflow.log_params({"method": model.method, "player": model.player, "sources": len(model.sources)})
        metrics = {"decisions": model.decisions, "heldout_decisions": model.heldout_decisions,
                   "heldout_logloss": model.heldout_logloss, "baseline_logloss": model.baseline_logloss,
                   "uniform_logloss": model.uniform_logloss}
        mlflow.log_metrics({k: float(v) for k, v in metrics.items() if _finite(float(v)) is not None})
        mlflow.log_artifact(str(path))
        return run.info.run_id


def load(mid: str) -> FittedModel:
    """The stored model `mid` (its file), or one line naming what is stored."""
    if not mid or _SLUG.search(mid) or mid.startswith("."):
        raise BadValue(f"model id {mid!r}: accepted: an id `cardlab fit` printed (letters, digits, _ . -)")
    path = model_dir() / f"{mid}.json"
    if not path.is_file():
        known = sorted(p.stem for p in model_dir().glob("*.json"))[:8]
        raise NotFound(f"no opponent model {mid!r} in {model_dir()}; accepted: "
                       f"{', '.join(known) if known else 'an id `cardlab fit GAME --player NAME` printed'}")
    doc = json.loads(path.read_text())
    doc.pop("model_id", None)
    doc["sources"] = tuple(doc.get("sources", ()))
    doc["calibration"] = tuple(Calibration(**c) for c in doc.get("calibration", ()))
    return FittedModel(**doc)


def is_model(text: str) -> bool:
    return text.strip().startswith(MODEL_PREFIX)


def seat(game: str, text: str) -> BotChoice:
    """`model:ID` (or a bare ID) as a seat of `game`: the game's `seat(params)`; deterministic per seed."""
    mid = text.strip().removeprefix(MODEL_PREFIX)
    model = load(mid)
    if model.game != game:
        raise UnknownName(f"model {mid!r} is a {model.game} model; accepted: a model fitted for {game}")
    spec, config = fitter(game).seat(model.params)
    return BotChoice(label=f"{MODEL_PREFIX}{mid}", spec=spec, config=config)


def fit(game: str, player: str, *, matches=None, files=(), seed: int = 1, holdout: float = 0.2,
        db: Path | str | None = None) -> FittedModel:
    """Fit `player` of `game` from the hand log (read-only) and the outside `files`."""
    from flows.store import read_only

    module = fitter(game)
    con = read_only(db)
    try:
        return module.fit(con, player, matches=matches, files=tuple(files), seed=seed, holdout=holdout)
    finally:
        con.close()


def summary(model: FittedModel, stored: StoredModel) -> dict:
    """What `cardlab fit --json` prints."""
    return {"model": stored.model_id, "game": model.game, "player": model.player, "method": model.method,
            "decisions": model.decisions, "heldout_decisions": model.heldout_decisions,
            "heldout_logloss": _finite(model.heldout_logloss), "baseline_logloss": _finite(model.baseline_logloss),
            "uniform_logloss": _finite(model.uniform_logloss), "sources": len(model.sources),
            "path": str(stored.path), "mlflow_run": stored.mlflow_run}
