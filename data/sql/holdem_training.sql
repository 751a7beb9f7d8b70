-- Hold'em Training hand log: the judge's hands and actions events (engine/holdem_training/events.py),
-- one row per hand, Alice's (the primary bot's) actions included. Cards are engine ints: suit * 13
-- + rank, rank 0..12 = 2..A (the contest prints suit, rank + 1). A hand replays from its
-- opponent_key, its cards and its actions (judge.replay_hand).
--
-- The raw table packs each hand into a few integers (flows/games/holdem_training_log.py, the
-- encoder's layout for this game): the log is written while a bot plays some 30,000 hands a
-- second, and its cost is per value stored (cardlab bench store). Read
-- the views, which decode them: ht_hand_rows and ht_action_rows have the columns of the
-- first raw tables (ht_hands, ht_actions; their rows in older logs are still included),
-- stg_ht_hands and stg_ht_actions add readable labels, the marts answer questions.

CREATE TABLE IF NOT EXISTS ht_packed_hands (
    match_id      VARCHAR NOT NULL,
    chunk         INTEGER NOT NULL,
    hand          INTEGER NOT NULL,   -- 1-based, as the contest numbers hands
    deal_key      UBIGINT NOT NULL,   -- SplitMix64 key derived from (match seed, hand - 1)
    opponent_key  UBIGINT NOT NULL,   -- key of the one stream serving RATE answers and Bob's rollouts
    cards         BIGINT NOT NULL,    -- 6 bits a card from bit 0: Alice 2, Bob 2, board 5 in deal order
    outcome       BIGINT NOT NULL,    -- from bit 0: showdown + 1 (2 bits), end_code (2), rounds_played (3),
                                      -- final_pot (10), profit + 512 (10), rate_rollouts (31)
    -- Alice acts once per round. Her action in round r, or 0 if the hand ended before it;
    -- from bit 0: action (2 bits: 1 CHECK, 2 FOLD, 3 RAISE), Bob's response (2: 0 none,
    -- after Alice folds; 1 CHECK, 2 CALL, 3 FOLD), amount (8), pot_before (10),
    -- stack_before (8), RATE rollouts asked just before acting (31).
    action_r1     BIGINT NOT NULL,
    action_r2     BIGINT NOT NULL,
    action_r3     BIGINT NOT NULL,
    action_r4     BIGINT NOT NULL
);

-- The first raw tables, one column per value and a row per action. Nothing writes them any
-- more; the views below still read the rows of older logs.
CREATE TABLE IF NOT EXISTS ht_hands (
    match_id      VARCHAR NOT NULL,
    chunk         INTEGER NOT NULL,
    hand          INTEGER NOT NULL,
    deal_key      UBIGINT NOT NULL,
    opponent_key  UBIGINT NOT NULL,
    alice_c0      SMALLINT NOT NULL,
    alice_c1      SMALLINT NOT NULL,
    bob_c0        SMALLINT NOT NULL,
    bob_c1        SMALLINT NOT NULL,
    board_c0      SMALLINT NOT NULL,
    board_c1      SMALLINT NOT NULL,
    board_c2      SMALLINT NOT NULL,
    board_c3      SMALLINT NOT NULL,
    board_c4      SMALLINT NOT NULL,
    showdown      SMALLINT NOT NULL,
    end_code      SMALLINT NOT NULL,
    rounds_played SMALLINT NOT NULL,
    final_pot     INTEGER NOT NULL,
    profit        INTEGER NOT NULL,
    rate_rollouts INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS ht_actions (
    match_id      VARCHAR NOT NULL,
    chunk         INTEGER NOT NULL,
    hand          INTEGER NOT NULL,
    round         SMALLINT NOT NULL,
    action        VARCHAR NOT NULL,
    amount        INTEGER NOT NULL,
    response      VARCHAR NOT NULL,
    pot_before    INTEGER NOT NULL,
    stack_before  INTEGER NOT NULL,
    rate_rollouts INTEGER NOT NULL
);

-- Columns added after the first hand logs were written (no-ops on a fresh database).
ALTER TABLE ht_hands ADD COLUMN IF NOT EXISTS opponent_key UBIGINT;
ALTER TABLE ht_actions ADD COLUMN IF NOT EXISTS rate_rollouts INTEGER;

CREATE OR REPLACE MACRO ht_bits(x, lowest, bits) AS (x >> lowest) & ((1::BIGINT << bits) - 1);

-- One row per hand (the columns of ht_hands). Rows of the first tables count only for
-- chunks not since written again in packed form, so no hand is counted twice.
CREATE OR REPLACE VIEW ht_hand_rows AS
SELECT match_id, chunk, hand, deal_key, opponent_key,
       CAST(ht_bits(cards, 0, 6) AS SMALLINT)                AS alice_c0,
       CAST(ht_bits(cards, 6, 6) AS SMALLINT)                AS alice_c1,
       CAST(ht_bits(cards, 12, 6) AS SMALLINT)               AS bob_c0,
       CAST(ht_bits(cards, 18, 6) AS SMALLINT)               AS bob_c1,
       CAST(ht_bits(cards, 24, 6) AS SMALLINT)               AS board_c0,  -- flop 0-2, turn 3, river 4
       CAST(ht_bits(cards, 30, 6) AS SMALLINT)               AS board_c1,
       CAST(ht_bits(cards, 36, 6) AS SMALLINT)               AS board_c2,
       CAST(ht_bits(cards, 42, 6) AS SMALLINT)               AS board_c3,
       CAST(ht_bits(cards, 48, 6) AS SMALLINT)               AS board_c4,
       CAST(ht_bits(outcome, 0, 2) - 1 AS SMALLINT)          AS showdown,       -- +1 Alice's 7 cards beat Bob's, 0 tie, -1 lose
       CAST(ht_bits(outcome, 2, 2) AS SMALLINT)              AS end_code,       -- 0 showdown, 1 Alice folded, 2 Bob folded
       CAST(ht_bits(outcome, 4, 3) AS SMALLINT)              AS rounds_played,  -- round (1..4) in which the hand ended
       CAST(ht_bits(outcome, 7, 10) AS INTEGER)              AS final_pot,      -- before the raise Bob folded to
       CAST(ht_bits(outcome, 17, 10) - 512 AS INTEGER)       AS profit,         -- Alice's ending stack - 100
       CAST(ht_bits(outcome, 27, 31) AS INTEGER)             AS rate_rollouts   -- RATE rollouts Alice spent on the hand
FROM ht_packed_hands
UNION ALL
SELECT match_id, chunk, hand, deal_key, opponent_key, alice_c0, alice_c1, bob_c0, bob_c1, board_c0, board_c1,
       board_c2, board_c3, board_c4, showdown, end_code, rounds_played, final_pot, profit, rate_rollouts
FROM ht_hands
WHERE (match_id, chunk) NOT IN (SELECT match_id, chunk FROM ht_packed_hands);

-- One row per action of Alice (the columns of ht_actions), the same way.
CREATE OR REPLACE VIEW ht_action_rows AS
WITH packed AS (
    UNPIVOT (SELECT match_id, chunk, hand, action_r1, action_r2, action_r3, action_r4 FROM ht_packed_hands)
    ON action_r1, action_r2, action_r3, action_r4 INTO NAME slot VALUE code
)
SELECT match_id, chunk, hand,
       CAST(right(slot, 1) AS SMALLINT)                      AS round,          -- 1 preflop, 2 flop, 3 turn, 4 river
       ['CHECK', 'FOLD', 'RAISE'][ht_bits(code, 0, 2)]       AS action,
       CAST(ht_bits(code, 4, 8) AS INTEGER)                  AS amount,         -- chips raised, 0 otherwise
       ['', 'CHECK', 'CALL', 'FOLD'][ht_bits(code, 2, 2) + 1] AS response,      -- Bob's; '' after Alice folds
       CAST(ht_bits(code, 12, 10) AS INTEGER)                AS pot_before,
       CAST(ht_bits(code, 22, 8) AS INTEGER)                 AS stack_before,
       CAST(ht_bits(code, 30, 31) AS INTEGER)                AS rate_rollouts   -- asked just before this action
FROM packed
WHERE code <> 0
UNION ALL
SELECT match_id, chunk, hand, round, action, amount, response, pot_before, stack_before, rate_rollouts
FROM ht_actions
WHERE (match_id, chunk) NOT IN (SELECT match_id, chunk FROM ht_packed_hands);

CREATE OR REPLACE MACRO ht_card(c) AS
    substr('23456789TJQKA', (c % 13) + 1, 1) || substr('cdhs', (c // 13) + 1, 1);

-- Staging: hands with readable cards, how they ended and Alice's starting-hand class.
CREATE OR REPLACE VIEW stg_ht_hands AS
WITH ranked AS (
    SELECT h.*,
           greatest(h.alice_c0 % 13, h.alice_c1 % 13) AS hi_rank,
           least(h.alice_c0 % 13, h.alice_c1 % 13)    AS lo_rank
    FROM ht_hand_rows h
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

-- Mart: profit per match with standard error and 95% CI, and how hands ended. The standard deviation
-- takes the hands in order: a parallel one adds in any order and two reads could differ in the last bits
-- (the averages of integers and decimals are exact sums, the same in any order).
CREATE OR REPLACE VIEW mart_ht_profit AS
SELECT match_id,
       count(*)                                                       AS hands,
       avg(profit)                                                    AS mean_profit,
       stddev_samp(profit ORDER BY hand)                              AS sd,
       stddev_samp(profit ORDER BY hand) / sqrt(count(*))             AS se,
       avg(profit) - 1.959963984540054 * stddev_samp(profit ORDER BY hand) / sqrt(count(*)) AS ci95_low,
       avg(profit) + 1.959963984540054 * stddev_samp(profit ORDER BY hand) / sqrt(count(*)) AS ci95_high,
       avg(CASE WHEN end_code = 2 THEN 1.0 ELSE 0.0 END)              AS bob_fold_rate,
       avg(CASE WHEN end_code = 1 THEN 1.0 ELSE 0.0 END)              AS alice_fold_rate,
       avg(CASE WHEN end_code = 0 THEN 1.0 ELSE 0.0 END)              AS showdown_rate,
       sum(rate_rollouts)                                             AS rate_rollouts
FROM ht_hand_rows
GROUP BY match_id;

-- Mart: profit by Alice's starting hand (pair / suited / offsuit, by its high card).
CREATE OR REPLACE VIEW mart_ht_starting_hands AS
SELECT match_id, hole_kind, high_card,
       count(*)                                   AS hands,
       avg(profit)                                AS mean_profit,
       stddev_samp(profit ORDER BY hand) / sqrt(count(*)) AS se,  -- ordered: the same bits on every read
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
