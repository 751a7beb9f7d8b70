-- Sweeps that stop when decided (`cardlab sweep GAME --until-decided`): every look of the race over the
-- grid (on the sweep's deals) and of the sequential test that confirms the choice on fresh deals, and
-- the decision itself with the deals each phase used. Written by flows/decide.py.

-- The rule a decided sweep was started with (JSON of flows.decide.Rule): --resume reloads it.
CREATE TABLE IF NOT EXISTS decision_rules (
    sweep_id VARCHAR PRIMARY KEY,
    rule     VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS decision_looks (
    sweep_id VARCHAR NOT NULL,
    phase    VARCHAR NOT NULL,   -- select (the race, sweep seed) or confirm (the SPRT, confirmation seed)
    look     INTEGER NOT NULL,   -- the chunk index the look came after
    units    INTEGER NOT NULL,   -- units each config still playing has played in this phase
    alive    VARCHAR,            -- select: JSON list of the match ids still racing after this look
    dropped  VARCHAR,            -- select: JSON list of the match ids this look stopped
    mean     DOUBLE,             -- confirm: mean paired difference, challenger minus baseline
    sd       DOUBLE,             -- confirm: its sample standard deviation per unit
    llr      DOUBLE,             -- confirm: the SPRT's log-likelihood ratio
    lower    DOUBLE,             -- confirm: accept H0 at or below this LLR
    upper    DOUBLE,             -- confirm: accept H1 at or above this LLR
    PRIMARY KEY (sweep_id, phase, look)
);

CREATE TABLE IF NOT EXISTS decisions (
    sweep_id          VARCHAR PRIMARY KEY,
    decision          VARCHAR NOT NULL,  -- switch, keep or undecided
    best_match        VARCHAR NOT NULL,  -- the selection match of the config to play
    challenger_match  VARCHAR,           -- the selection match of the config tested against the baseline
    baseline_match    VARCHAR NOT NULL,
    confirm_challenger VARCHAR,          -- the confirmation's matches (source 'confirm', fresh deals)
    confirm_baseline  VARCHAR,
    selection_seed    BIGINT NOT NULL,   -- selection deals: this seed, units 0 .. selection_units - 1
    selection_units   INTEGER NOT NULL,  -- units played in the selection, all configs together
    confirm_seed      BIGINT,            -- confirmation deals: this seed, units 0 .. confirm_units / 2 - 1
    confirm_units     INTEGER NOT NULL,  -- units played in the confirmation, both configs together
    hands             INTEGER NOT NULL,  -- every unit played, confirmation included
    d0 DOUBLE, d1 DOUBLE, alpha DOUBLE, beta DOUBLE, race_alpha DOUBLE, first_look INTEGER,
    llr               DOUBLE,            -- the SPRT's last log-likelihood ratio
    confirmed_mean    DOUBLE,            -- challenger minus baseline on the confirmation's deals
    confirmed_low     DOUBLE,
    confirmed_high    DOUBLE,
    confirmed_method  VARCHAR,
    deals             VARCHAR,           -- JSON: which deals each phase used
    decided_at        TIMESTAMP NOT NULL
);

-- Mart: the SPRT's path per decided sweep, for plots and `cardlab sql`.
CREATE OR REPLACE VIEW mart_decision_path AS
SELECT d.sweep_id, d.decision, l.look, l.units, l.mean, l.llr, l.lower, l.upper
FROM decisions d JOIN decision_looks l ON l.sweep_id = d.sweep_id AND l.phase = 'confirm'
ORDER BY d.sweep_id, l.look;
