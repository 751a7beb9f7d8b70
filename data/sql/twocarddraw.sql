-- TwoCardDraw hand log: one row per hand (the judge's hands events, engine/twocarddraw/events.py), enough to
-- replay it: dealt cards, draws, final cards, each round's actions, how it ended, profit.
-- Action letters alternate player/server, player first: k check, b bet (openings), then
-- f fold, c call, r raise. -1 marks what the hand never reached.

CREATE TABLE IF NOT EXISTS tcd_hands (
    match_id  VARCHAR NOT NULL,
    chunk     INTEGER NOT NULL,
    hand      INTEGER NOT NULL,
    bet1      INTEGER NOT NULL,
    bet2      INTEGER NOT NULL,
    p_card1   INTEGER NOT NULL,   -- player's dealt cards, card1 <= card2
    p_card2   INTEGER NOT NULL,
    s_card1   INTEGER NOT NULL,   -- server's dealt cards (the player never sees these)
    s_card2   INTEGER NOT NULL,
    p_drew    INTEGER NOT NULL,   -- cards exchanged, -1 if round 1 ended in a fold
    s_drew    INTEGER NOT NULL,
    p_final1  INTEGER NOT NULL,   -- cards after the draw, -1 if no draw
    p_final2  INTEGER NOT NULL,
    s_final1  INTEGER NOT NULL,
    s_final2  INTEGER NOT NULL,
    round1    VARCHAR NOT NULL,
    round2    VARCHAR NOT NULL,
    bets1     INTEGER NOT NULL,
    bets2     INTEGER NOT NULL,   -- -1 if round 2 never started
    "first"   INTEGER NOT NULL,   -- who bet first in round 1 (0 player or nobody, 1 server), -1 if folded
    ended     VARCHAR NOT NULL,   -- showdown, player_fold, server_fold
    profit    INTEGER NOT NULL
);

-- Staging: hands with readable cards and what the player could see of the server.
CREATE OR REPLACE VIEW stg_tcd_hands AS
SELECT h.*,
       h.p_card1 || '-' || h.p_card2                                        AS player_dealt,
       h.s_card1 || '-' || h.s_card2                                        AS server_dealt,
       CASE WHEN h.ended = 'showdown' THEN h.s_final1 || '-' || h.s_final2 END AS server_shown,
       h.p_drew >= 0                                                        AS reached_draw,
       h.round2 <> ''                                                       AS reached_round2,
       length(h.round1) + length(h.round2)                                  AS actions,
       h.profit > 0                                                         AS won
FROM tcd_hands h;

-- Mart: per match, profit with a normal 95% interval and the TopCoder score of the test.
CREATE OR REPLACE VIEW mart_tcd_matches AS
SELECT m.match_id, m.bot, m.config, m.options, m.seed,
       any_value(h.bet1) AS bet1, any_value(h.bet2) AS bet2,
       count(*)                                                   AS hands,
       sum(h.profit)::BIGINT                                      AS profit,
       avg(h.profit)                                              AS mean_profit,
       -- the standard deviation in hand order: a parallel one adds in any order (reads could differ in the last bits)
       avg(h.profit) - 1.959963984540054 * stddev_samp(h.profit ORDER BY h.hand) / sqrt(count(*)) AS ci_low,
       avg(h.profit) + 1.959963984540054 * stddev_samp(h.profit ORDER BY h.hand) / sqrt(count(*)) AS ci_high,
       greatest(0, sum(h.profit) + count(*))::BIGINT             AS score,
       avg((h.ended = 'showdown')::INTEGER)                       AS showdown_rate,
       avg((h.ended = 'server_fold')::INTEGER)                    AS server_fold_rate,
       avg((h.ended = 'player_fold')::INTEGER)                    AS player_fold_rate,
       'normal'                                                   AS ci_method
FROM tcd_hands h JOIN matches m USING (match_id)
GROUP BY ALL;

-- Mart: where the money comes from, by the player's dealt hand and how the hand ended.
CREATE OR REPLACE VIEW mart_tcd_by_hand AS
SELECT match_id, player_dealt, ended, count(*) AS hands, avg(profit) AS mean_profit
FROM stg_tcd_hands
GROUP BY ALL;

-- Mart: the server's first-round answers as observed, per its dealt hand and the bets it faced
-- (the first server letter of round 1: after a check it faced 0 bets, after a bet 1).
CREATE OR REPLACE VIEW mart_tcd_server_round1 AS
SELECT match_id, server_dealt,
       CASE WHEN round1[1] = 'k' THEN 0 ELSE 1 END AS bets_faced,
       round1[2] AS action, count(*) AS times
FROM stg_tcd_hands
GROUP BY ALL;

-- Mart: the learning curve, mean profit per block of 1,000 hands of each match.
CREATE OR REPLACE VIEW mart_tcd_learning_curve AS
SELECT match_id, hand // 1000 AS block, count(*) AS hands, avg(profit) AS mean_profit,
       stddev_samp(profit ORDER BY hand) / sqrt(count(*)) AS se  -- ordered: the same bits on every read
FROM tcd_hands
GROUP BY ALL
ORDER BY match_id, block;
