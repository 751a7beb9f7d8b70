-- cardlab hand log: the tables every game shares. Raw tables are append-only (a chunk is
-- replaced as a whole when it is written again, which makes writes idempotent).

CREATE TABLE IF NOT EXISTS matches (
    match_id     VARCHAR PRIMARY KEY,
    game         VARCHAR NOT NULL,
    bot          VARCHAR NOT NULL,
    config       VARCHAR NOT NULL,      -- JSON of the bot's frozen config
    options      VARCHAR,               -- JSON of the game's match options (opponent, files)
    seed         BIGINT NOT NULL,
    units        INTEGER NOT NULL,      -- hands / games / rounds planned
    sweep_id     VARCHAR,
    source       VARCHAR NOT NULL,      -- match, sweep, judge, ...
    code_version VARCHAR,
    started_at   TIMESTAMP NOT NULL,
    finished_at  TIMESTAMP,
    seconds      DOUBLE
);
-- Why a config of a sweep failed (its program crashed or broke the protocol fatally): the other
-- configs go on and `pick` chooses among those that completed. NULL for a config that played.
ALTER TABLE matches ADD COLUMN IF NOT EXISTS failure VARCHAR;

-- One row per played unit (hand, game or round): the primary bot's payoff.
CREATE TABLE IF NOT EXISTS units (
    match_id VARCHAR NOT NULL,
    chunk    INTEGER NOT NULL,
    unit     INTEGER NOT NULL,
    payoff   DOUBLE NOT NULL
);

CREATE TABLE IF NOT EXISTS chunks (
    match_id   VARCHAR NOT NULL,
    chunk      INTEGER NOT NULL,
    first_unit INTEGER NOT NULL,
    n_units    INTEGER NOT NULL,
    seconds    DOUBLE,               -- time the chunk took to play
    stats      VARCHAR,              -- JSON of the judge's extra numbers
    written_at TIMESTAMP NOT NULL,
    PRIMARY KEY (match_id, chunk)
);

CREATE TABLE IF NOT EXISTS sweeps (
    sweep_id    VARCHAR PRIMARY KEY,
    game        VARCHAR NOT NULL,
    bot         VARCHAR NOT NULL,
    grid        VARCHAR NOT NULL,    -- JSON: key -> list of values
    units       INTEGER NOT NULL,    -- per config
    seed        BIGINT NOT NULL,
    started_at  TIMESTAMP NOT NULL,
    finished_at TIMESTAMP,
    best_match  VARCHAR,
    mlflow_run  VARCHAR
);
-- The sweep's whole spec (game, bot, grid, fixed overrides, options, units, chunk size, seed)
-- as JSON: `--resume` reloads it instead of trusting the flags it is given.
ALTER TABLE sweeps ADD COLUMN IF NOT EXISTS spec VARCHAR;
-- The match of the sweep's baseline config (the bot's defaults or the submitted bundle's config).
ALTER TABLE sweeps ADD COLUMN IF NOT EXISTS baseline_match VARCHAR;

-- Staging: the units with their match's labels.
CREATE OR REPLACE VIEW stg_units AS
SELECT u.match_id, u.chunk, u.unit, u.payoff, m.game, m.bot, m.config, m.seed, m.sweep_id, m.source
FROM units u JOIN matches m USING (match_id);

-- Mart: result per match (= per config in a sweep) with standard error and 95% CI (normal: mean +/- z se,
-- named in ci_method; flows.stats.payoff_interval gives bounded payoffs an interval never of zero width).
CREATE OR REPLACE VIEW mart_match_results AS
WITH per_match AS (
    -- ORDER BY unit: a parallel float sum adds in any order, so without it two reads of one match could differ
    -- in the last bit (a pick by id and the latest pick once did); ordered, every read gives the same figures
    SELECT match_id, count(*) AS units, avg(payoff ORDER BY unit) AS mean, stddev_samp(payoff ORDER BY unit) AS sd
    FROM units GROUP BY match_id
)
SELECT m.match_id, m.game, m.bot, m.config, m.sweep_id, m.source, m.seed,
       coalesce(p.units, 0)                    AS units,
       p.mean, p.sd,
       p.sd / sqrt(p.units)                    AS se,
       p.mean - 1.959963984540054 * p.sd / sqrt(p.units)    AS ci_low,
       p.mean + 1.959963984540054 * p.sd / sqrt(p.units)    AS ci_high,
       m.seconds,
       p.units / nullif(m.seconds, 0)          AS units_per_s,
       'normal'                                AS ci_method
FROM matches m LEFT JOIN per_match p USING (match_id);

-- Mart: paired differences between configs of one sweep on the same deals (common random
-- numbers): a positive mean says match_a beat match_b. The 95% interval is normal on the per-unit
-- differences (ci_method 'normal'); where they have no spread (every unit tied, or one unit) it is
-- NULL, never a point: ci_method then names flows.stats.paired_mean_interval, which gives the
-- game's range its worst case (exact binomial or Hoeffding) as the sweep, pick and report show it.
CREATE OR REPLACE VIEW mart_sweep_pairs AS
WITH pairs AS (
    SELECT a.sweep_id, a.match_id AS match_a, b.match_id AS match_b,
           count(*)                                  AS units,
           avg(a.payoff - b.payoff ORDER BY a.unit)  AS mean_diff,  -- ordered: the same bits on every read
           stddev_samp(a.payoff - b.payoff ORDER BY a.unit) / sqrt(count(*)) AS se_diff
    FROM stg_units a
    JOIN stg_units b ON a.sweep_id = b.sweep_id AND a.unit = b.unit AND a.match_id <> b.match_id
    WHERE a.sweep_id IS NOT NULL
    GROUP BY ALL
)
SELECT *,
       CASE WHEN se_diff > 0 THEN mean_diff - 1.959963984540054 * se_diff END AS ci_low,
       CASE WHEN se_diff > 0 THEN mean_diff + 1.959963984540054 * se_diff END AS ci_high,
       CASE WHEN se_diff > 0 THEN 'normal'
            ELSE 'no spread: the range''s worst case, flows.stats.paired_mean_interval' END AS ci_method
FROM pairs;

-- Mart: cumulative payoff per match in unit order (for curves).
CREATE OR REPLACE VIEW mart_cumulative AS
SELECT match_id, unit, sum(payoff) OVER (PARTITION BY match_id ORDER BY unit) AS cumulative
FROM units;

-- Submissions: every bundle written by `cardlab export <game>`, `cardlab pick --out` or
-- `cardlab demo`, with the bot's full frozen config. The nightly check replays the latest.
CREATE TABLE IF NOT EXISTS submissions (
    submission_id VARCHAR PRIMARY KEY,
    game          VARCHAR NOT NULL,
    bot           VARCHAR NOT NULL,
    config        VARCHAR NOT NULL,  -- JSON of the bot's full config
    source        VARCHAR NOT NULL,  -- export or pick
    sweep_id      VARCHAR,           -- the sweep a pick came from
    mlflow_run    VARCHAR,
    bundle        VARCHAR,           -- where the bundle was written
    code_version  VARCHAR,
    submitted_at  TIMESTAMP NOT NULL
);

-- Nightly regression checks: the candidate replayed on fixed seeds and compared unit by unit
-- with the previous nightly of the same candidate (play is deterministic).
CREATE TABLE IF NOT EXISTS nightly_checks (
    check_id        VARCHAR PRIMARY KEY,
    game            VARCHAR NOT NULL,
    candidate       VARCHAR NOT NULL,  -- submission id, or 'default:<bot>' when nothing was submitted
    bot             VARCHAR NOT NULL,
    config          VARCHAR NOT NULL,  -- JSON of the config played
    seed            BIGINT NOT NULL,
    units           INTEGER NOT NULL,
    match_id        VARCHAR NOT NULL,  -- tonight's play
    previous_match  VARCHAR,           -- the nightly compared with; NULL for the candidate's first
    verdict         VARCHAR NOT NULL,  -- baseline, same or changed
    differing_units INTEGER,
    first_diff_unit INTEGER,           -- the first unit whose payoff differs (or is missing)
    detail          VARCHAR,
    code_version    VARCHAR,
    checked_at      TIMESTAMP NOT NULL
);

-- What the one referee loop (engine/core/referee.py) records for any game that asks it to:
-- every event in order, encoded once as JSON (engine.core.referee.event_json), and every answer
-- a seat could not give or the game refused, with the bad-output rule that was applied.
CREATE TABLE IF NOT EXISTS referee_events (
    match_id VARCHAR NOT NULL,
    chunk    INTEGER NOT NULL,
    unit     INTEGER NOT NULL,
    step     INTEGER NOT NULL,
    seat     INTEGER NOT NULL,  -- the game seat that acted
    event    VARCHAR NOT NULL   -- JSON of the frozen event apply() returned
);

CREATE TABLE IF NOT EXISTS referee_faults (
    match_id VARCHAR NOT NULL,
    chunk    INTEGER NOT NULL,
    unit     INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    entrant  INTEGER NOT NULL,  -- the line-up's index of the seat's player
    kind     VARCHAR NOT NULL,  -- bad-output, illegal, crash, time, cpu, memory, output
    rule     VARCHAR NOT NULL,  -- forfeit_unit, default_action or end_match
    reason   VARCHAR NOT NULL
);
