-- Splendor hand log: spl_turns and spl_games, the judge's turns and games events (engine/splendor/events.py).
-- Unit = game; the primary ("candidate") bot's payoff is its win share (1/#winners or 0).

CREATE TABLE IF NOT EXISTS spl_turns (
    match_id     VARCHAR NOT NULL,
    chunk        INTEGER NOT NULL,
    game         INTEGER NOT NULL,
    round        INTEGER NOT NULL,    -- 1-based, as the agents see it
    seat         INTEGER NOT NULL,    -- 0-based seat of the mover
    is_candidate BOOLEAN NOT NULL,
    action       INTEGER NOT NULL,    -- 1 take different, 2 take two, 3 reserve, 4 buy, 0 pass (invalid move)
    card         INTEGER NOT NULL,    -- reserve: id or -level; buy: id; else 0
    tokens       VARCHAR NOT NULL,    -- the record's tokens (spec section 8), space-separated
    returned     INTEGER NOT NULL,    -- chips given back
    noble        INTEGER NOT NULL,    -- noble received this turn, 0 if none
    chips        INTEGER NOT NULL,    -- the mover's chips after the turn, gold included
    gold         INTEGER NOT NULL,
    points       INTEGER NOT NULL,    -- the mover's score after the turn
    message      VARCHAR NOT NULL,    -- the arbiter's message (returns, noble, or why it passed)
    cpu_ms       DOUBLE NOT NULL
);

CREATE TABLE IF NOT EXISTS spl_games (
    match_id        VARCHAR NOT NULL,
    chunk           INTEGER NOT NULL,
    game            INTEGER NOT NULL,
    players         INTEGER NOT NULL,
    cand_seat       INTEGER NOT NULL,
    rounds          INTEGER NOT NULL,  -- 100 = hit the cap
    winners         INTEGER NOT NULL,  -- 0 when nobody reached 15
    cand_share      DOUBLE NOT NULL,
    cand_points     INTEGER NOT NULL,
    cand_cards      INTEGER NOT NULL,
    opp_best_points INTEGER NOT NULL,
    passes          INTEGER NOT NULL   -- the candidate's invalid moves
);

-- Staging: turns with readable action names and their match's labels.
CREATE OR REPLACE VIEW stg_spl_turns AS
SELECT t.*, m.bot, m.config, m.sweep_id,
       CASE t.action WHEN 1 THEN 'take' WHEN 2 THEN 'take_two' WHEN 3 THEN 'reserve'
                     WHEN 4 THEN 'buy' ELSE 'pass' END AS action_name
FROM spl_turns t JOIN matches m USING (match_id);

CREATE OR REPLACE VIEW stg_spl_games AS
SELECT g.*, m.bot, m.config, m.sweep_id, m.options,
       g.winners = 0 AS capped, g.cand_points - g.opp_best_points AS margin
FROM spl_games g JOIN matches m USING (match_id);

-- Mart: per match, win share with a 95% Wilson interval (as engine.core.stats.wilson, z = Z95; a normal
-- interval would claim [1, 1] after a clean sweep), points and length.
CREATE OR REPLACE VIEW mart_spl_results AS
WITH per_match AS (
    SELECT match_id, any_value(bot) AS bot, any_value(config) AS config, count(*) AS games,
           avg(cand_share ORDER BY game) AS win_share, 1.959963984540054 AS z,  -- a float: in order, the same bits
           avg(cand_points) AS mean_points, avg(margin) AS mean_margin, avg(rounds) AS mean_rounds,
           avg(CASE WHEN capped THEN 1.0 ELSE 0.0 END) AS capped_rate, sum(passes) AS passes
    FROM stg_spl_games GROUP BY match_id)
SELECT match_id, bot, config, games, win_share,
       CASE WHEN win_share <= 0 THEN 0.0 ELSE greatest(0.0,
           (win_share + z * z / (2 * games) - z * sqrt(win_share * (1 - win_share) / games + z * z / (4 * games * games)))
           / (1 + z * z / games)) END AS win_share_lo,
       CASE WHEN win_share >= 1 THEN 1.0 ELSE least(1.0,
           (win_share + z * z / (2 * games) + z * sqrt(win_share * (1 - win_share) / games + z * z / (4 * games * games)))
           / (1 + z * z / games)) END AS win_share_hi,
       mean_points, mean_margin, mean_rounds, capped_rate, passes
FROM per_match;

-- Mart: the candidate's average score by round (the points-over-rounds curve).
CREATE OR REPLACE VIEW mart_spl_points_by_round AS
SELECT match_id, round, avg(points) AS mean_points, count(*) AS games
FROM stg_spl_turns WHERE is_candidate GROUP BY match_id, round;

-- Mart: how the candidate spends its turns.
CREATE OR REPLACE VIEW mart_spl_action_mix AS
SELECT match_id, action_name, count(*) AS turns,
       count(*) / sum(count(*)) OVER (PARTITION BY match_id) AS share
FROM stg_spl_turns WHERE is_candidate GROUP BY match_id, action_name;
