-- Hold'em Training hand log (engine/holdem_training/judge.py): one row per hand, with Alice's
-- (the primary bot's) actions packed into it. Cards are engine ints: suit * 13 + rank, rank
-- 0..12 = 2..A (the contest prints suit, rank + 1). A hand replays from its opponent_key, its
-- cards and its actions (judge.replay_hand).

CREATE TABLE IF NOT EXISTS ht_hands (
    match_id      VARCHAR NOT NULL,
    chunk         INTEGER NOT NULL,
    hand          INTEGER NOT NULL,   -- 1-based, as the contest numbers hands
    deal_key      UBIGINT NOT NULL,   -- SplitMix64 key derived from (match seed, hand - 1)
    opponent_key  UBIGINT NOT NULL,   -- key of the one stream serving RATE answers and Bob's rollouts
    alice_c0      SMALLINT NOT NULL,
    alice_c1      SMALLINT NOT NULL,
    bob_c0        SMALLINT NOT NULL,
    bob_c1        SMALLINT NOT NULL,
    board_c0      SMALLINT NOT NULL,  -- board in deal order: flop 0-2, turn 3, river 4
    board_c1      SMALLINT NOT NULL,
    board_c2      SMALLINT NOT NULL,
    board_c3      SMALLINT NOT NULL,
    board_c4      SMALLINT NOT NULL,
    showdown      SMALLINT NOT NULL,  -- +1 Alice's 7 cards beat Bob's, 0 tie, -1 lose (known from the deal)
    end_code      SMALLINT NOT NULL,  -- 0 showdown, 1 Alice folded, 2 Bob folded
    rounds_played SMALLINT NOT NULL,  -- round (1..4) in which the hand ended = Alice's actions
    final_pot     INTEGER NOT NULL,   -- pot at the end (before the raise Bob folded to)
    profit        INTEGER NOT NULL,   -- Alice's ending stack - 100
    rate_rollouts INTEGER NOT NULL,   -- RATE rollouts Alice spent on this hand
    -- Alice acts once per round: her action in round r, packed in one integer (0 = the hand
    -- ended before round r; NULL in rows logged before actions moved here, see ht_actions).
    -- Bits 0-1 action (1 CHECK, 2 FOLD, 3 RAISE), 2-3 Bob's response (0 none, after Alice
    -- folds; 1 CHECK, 2 CALL, 3 FOLD), 4-11 amount raised, 12-21 pot before, 22-29 Alice's
    -- stack before, 30-60 RATE rollouts asked just before acting. The view ht_action_rows
    -- decodes them: read that (or stg_ht_actions), not these.
    action_r1     BIGINT,
    action_r2     BIGINT,
    action_r3     BIGINT,
    action_r4     BIGINT
);

-- Hand logs written before actions were packed into ht_hands kept one row per action here.
-- Nothing writes it any more; ht_action_rows still reads it, so old logs keep their actions.
CREATE TABLE IF NOT EXISTS ht_actions (
    match_id     VARCHAR NOT NULL,
    chunk        INTEGER NOT NULL,
    hand         INTEGER NOT NULL,
    round        SMALLINT NOT NULL,   -- 1 preflop, 2 flop, 3 turn, 4 river
    action       VARCHAR NOT NULL,    -- CHECK, FOLD, RAISE
    amount       INTEGER NOT NULL,    -- chips raised, 0 otherwise
    response     VARCHAR NOT NULL,    -- Bob: CHECK, CALL, FOLD; '' after Alice folds
    pot_before   INTEGER NOT NULL,
    stack_before INTEGER NOT NULL,
    rate_rollouts INTEGER NOT NULL    -- RATE rollouts Alice asked for just before this action
);

-- Columns added after the first hand logs were written (no-ops on a fresh database).
ALTER TABLE ht_hands ADD COLUMN IF NOT EXISTS opponent_key UBIGINT;
ALTER TABLE ht_actions ADD COLUMN IF NOT EXISTS rate_rollouts INTEGER;
ALTER TABLE ht_hands ADD COLUMN IF NOT EXISTS action_r1 BIGINT;
ALTER TABLE ht_hands ADD COLUMN IF NOT EXISTS action_r2 BIGINT;
ALTER TABLE ht_hands ADD COLUMN IF NOT EXISTS action_r3 BIGINT;
ALTER TABLE ht_hands ADD COLUMN IF NOT EXISTS action_r4 BIGINT;

-- Alice's actions, one row each, as the old raw table had them: decoded from ht_hands, plus
-- the rows of old logs (those of a chunk count only while its hands were logged the old way,
-- so a chunk written again by new code is not counted twice).
CREATE OR REPLACE VIEW ht_action_rows AS
WITH packed AS (
    UNPIVOT (SELECT match_id, chunk, hand, action_r1, action_r2, action_r3, action_r4 FROM ht_hands)
    ON action_r1, action_r2, action_r3, action_r4 INTO NAME slot VALUE code
)
SELECT match_id, chunk, hand,
       CAST(right(slot, 1) AS SMALLINT)                           AS round,
       ['CHECK', 'FOLD', 'RAISE'][code & 3]                        AS action,
       CAST((code >> 4) & 255 AS INTEGER)                          AS amount,
       ['', 'CHECK', 'CALL', 'FOLD'][((code >> 2) & 3) + 1]        AS response,
       CAST((code >> 12) & 1023 AS INTEGER)                        AS pot_before,
       CAST((code >> 22) & 255 AS INTEGER)                         AS stack_before,
       CAST((code >> 30) & 2147483647 AS INTEGER)                  AS rate_rollouts
FROM packed
WHERE code <> 0
UNION ALL
SELECT a.match_id, a.chunk, a.hand, a.round, a.action, a.amount, a.response, a.pot_before,
       a.stack_before, a.rate_rollouts
FROM ht_actions a
WHERE (a.match_id, a.chunk) NOT IN (SELECT match_id, chunk FROM ht_hands WHERE action_r1 IS NOT NULL);

CREATE OR REPLACE MACRO ht_card(c) AS
    substr('23456789TJQKA', (c % 13) + 1, 1) || substr('cdhs', (c // 13) + 1, 1);

-- Staging: hands with readable cards, how they ended and Alice's starting-hand class.
CREATE OR REPLACE VIEW stg_ht_hands AS
WITH ranked AS (
    SELECT h.*,
           greatest(h.alice_c0 % 13, h.alice_c1 % 13) AS hi_rank,
           least(h.alice_c0 % 13, h.alice_c1 % 13)    AS lo_rank
    FROM ht_hands h
)
SELECT r.*,
       ht_card(r.alice_c0) || ht_card(r.alice_c1)                                   AS alice_hole,
       ht_card(r.bob_c0) || ht_card(r.bob_c1)                                       AS bob_hole,
       ht_card(r.board_c0) || ht_card(r.board_c1) || ht_card(r.board_c2) || ' '
           || ht_card(r.board_c3) || ' ' || ht_card(r.board_c4)                      AS board,
       CASE r.end_code WHEN 0 THEN 'showdown' WHEN 1 THEN 'alice_fold' ELSE 'bob_fold' END AS ended_by,
       CASE WHEN r.hi_rank = r.lo_rank THEN 'pair'
            WHEN r.alice_c0 // 13 = r.alice_c1 // 13 THEN 'suited'
            ELSE 'offsuit' END                                                      AS hole_kind,
       substr('23456789TJQKA', r.hi_rank + 1, 1)                                     AS high_card,
       substr('23456789TJQKA', r.hi_rank + 1, 1) || substr('23456789TJQKA', r.lo_rank + 1, 1)
           || CASE WHEN r.hi_rank = r.lo_rank THEN ''
                   WHEN r.alice_c0 // 13 = r.alice_c1 // 13 THEN 's' ELSE 'o' END    AS hole_class
FROM ranked r;

-- Staging: Alice's actions with the street and the raise size as a fraction of the pot.
CREATE OR REPLACE VIEW stg_ht_actions AS
SELECT a.*,
       CASE a.round WHEN 1 THEN 'preflop' WHEN 2 THEN 'flop' WHEN 3 THEN 'turn' ELSE 'river' END AS street,
       CASE WHEN a.action <> 'RAISE' THEN NULL
            WHEN a.amount <= 0.25 * a.pot_before THEN 'a: <= 1/4 pot'
            WHEN a.amount <= 0.5 * a.pot_before THEN 'b: <= 1/2 pot'
            WHEN a.amount <= 1.0 * a.pot_before THEN 'c: <= 1 pot'
            WHEN a.amount <= 2.0 * a.pot_before THEN 'd: <= 2 pots'
            ELSE 'e: > 2 pots' END                                                  AS size_bucket
FROM ht_action_rows a;

-- Mart: profit per match with standard error and 95% CI, and how hands ended.
CREATE OR REPLACE VIEW mart_ht_profit AS
SELECT match_id,
       count(*)                                                       AS hands,
       avg(profit)                                                    AS mean_profit,
       stddev_samp(profit)                                            AS sd,
       stddev_samp(profit) / sqrt(count(*))                           AS se,
       avg(profit) - 1.96 * stddev_samp(profit) / sqrt(count(*))      AS ci95_low,
       avg(profit) + 1.96 * stddev_samp(profit) / sqrt(count(*))      AS ci95_high,
       avg(CASE WHEN end_code = 2 THEN 1.0 ELSE 0.0 END)              AS bob_fold_rate,
       avg(CASE WHEN end_code = 1 THEN 1.0 ELSE 0.0 END)              AS alice_fold_rate,
       avg(CASE WHEN end_code = 0 THEN 1.0 ELSE 0.0 END)              AS showdown_rate,
       sum(rate_rollouts)                                             AS rate_rollouts
FROM ht_hands
GROUP BY match_id;

-- Mart: profit by Alice's starting hand (pair / suited / offsuit, by its high card).
CREATE OR REPLACE VIEW mart_ht_starting_hands AS
SELECT match_id, hole_kind, high_card,
       count(*)                                   AS hands,
       avg(profit)                                AS mean_profit,
       stddev_samp(profit) / sqrt(count(*))       AS se,
       avg(CASE WHEN showdown = 1 THEN 1.0 ELSE 0.0 END) AS best_hand_rate
FROM stg_ht_hands
GROUP BY ALL;

-- Mart: how Bob answers raises, by street and raise size.
CREATE OR REPLACE VIEW mart_ht_responses AS
SELECT match_id, round, street, size_bucket,
       count(*)                                                AS raises,
       avg(amount)                                             AS mean_amount,
       avg(CASE WHEN response = 'CALL' THEN 1.0 ELSE 0.0 END)  AS call_rate,
       avg(CASE WHEN response = 'FOLD' THEN 1.0 ELSE 0.0 END)  AS fold_rate
FROM stg_ht_actions
WHERE action = 'RAISE'
GROUP BY ALL;
