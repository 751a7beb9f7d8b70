-- Opponent models fitted from the hand log or outside histories (flows/opponents): one row per
-- model; the model itself is the JSON file at `path` (also an MLflow artifact of `mlflow_run`).

CREATE TABLE IF NOT EXISTS opponent_models (
    model_id          VARCHAR PRIMARY KEY,  -- GAME-PLAYER-hash: the same fit on the same data is the same id
    game              VARCHAR NOT NULL,
    player            VARCHAR NOT NULL,
    version           VARCHAR,              -- the player's program version when the log names one
    sources           VARCHAR NOT NULL,     -- JSON list of the match ids or files the decisions came from
    decisions         INTEGER NOT NULL,     -- decisions the fit used
    heldout_decisions INTEGER NOT NULL,
    method            VARCHAR NOT NULL,
    heldout_logloss   DOUBLE,               -- per held-out decision, natural log
    baseline_logloss  DOUBLE,               -- population (or prior) model, same decisions
    uniform_logloss   DOUBLE,               -- uniform over the legal actions, same decisions
    path              VARCHAR NOT NULL,
    mlflow_run        VARCHAR,
    created_at        TIMESTAMP NOT NULL
);
