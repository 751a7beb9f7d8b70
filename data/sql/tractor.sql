-- Tractor hand log: one row per round and one per trick (the judge's events, engine/tractor/events.py).
-- Ranks are stored as indices 0..12 (2..A); a new CR above 12 means that team won the game.

CREATE TABLE IF NOT EXISTS tr_rounds (
    match_id      VARCHAR NOT NULL,
    chunk         INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    main          VARCHAR NOT NULL,   -- H S C D, or O for no main suit
    dealer        VARCHAR NOT NULL,   -- Alice Bob Charles David
    cr1           INTEGER NOT NULL,
    cr2           INTEGER NOT NULL,
    primary_team  INTEGER NOT NULL,   -- team (1 = Alice+Charles) the primary bot played
    ft_points     BIGINT NOT NULL,    -- defenders' points incl. the hidden cards x 2^w
    trick_points  INTEGER NOT NULL,
    hidden_points INTEGER NOT NULL,
    multiplier    BIGINT NOT NULL,    -- 2^w when the defenders took the last trick, else 0
    new_cr1       INTEGER NOT NULL,
    new_cr2       INTEGER NOT NULL,
    next_dealer   VARCHAR NOT NULL,
    winner_team   INTEGER NOT NULL,   -- 0 while no CR passed A
    tricks        INTEGER NOT NULL,
    faults        INTEGER NOT NULL,   -- illegal bot answers the judge replaced
    payoff        INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS tr_tricks (
    match_id  VARCHAR NOT NULL,
    chunk     INTEGER NOT NULL,
    round     INTEGER NOT NULL,
    trick     INTEGER NOT NULL,       -- 1-based
    leader    VARCHAR NOT NULL,
    play1     VARCHAR NOT NULL,       -- plays in play order, the leader's first, as the contest writes them
    play2     VARCHAR NOT NULL,
    play3     VARCHAR NOT NULL,
    play4     VARCHAR NOT NULL,
    structure VARCHAR NOT NULL,       -- e.g. tractor2+pair+single
    winner    VARCHAR NOT NULL,
    points    INTEGER NOT NULL
);

-- Staging: rounds decoded (rank letters, declarer team, make/down).
CREATE OR REPLACE VIEW stg_tr_rounds AS
SELECT r.*,
       CASE WHEN r.dealer IN ('Alice', 'Charles') THEN 1 ELSE 2 END            AS declarer_team,
       substr('23456789TJQKA', r.cr1 + 1, 1)                                     AS cr1_rank,
       substr('23456789TJQKA', r.cr2 + 1, 1)                                     AS cr2_rank,
       CASE WHEN r.ft_points >= 80 THEN 'down' ELSE 'make' END                   AS result,
       (CASE WHEN r.dealer IN ('Alice', 'Charles') THEN 1 ELSE 2 END) = r.primary_team AS primary_declares
FROM tr_rounds r;

-- Staging: tricks with the winner's team and the number of cards led.
CREATE OR REPLACE VIEW stg_tr_tricks AS
SELECT t.*,
       CASE WHEN t.winner IN ('Alice', 'Charles') THEN 1 ELSE 2 END AS winner_team,
       length(t.play1) // 2                                          AS cards_led,
       t.structure LIKE '%+%'                                        AS is_throw
FROM tr_tricks t;

-- Mart: per match, how the primary bot does as declarer and as defender.
CREATE OR REPLACE VIEW mart_tr_roles AS
SELECT match_id,
       primary_declares,
       count(*)                                       AS rounds,
       avg(payoff)                                    AS mean_payoff,
       avg(ft_points)                                 AS mean_ft_points,
       avg(CASE WHEN result = 'down' THEN 1 ELSE 0 END) AS down_rate,
       sum(faults)                                    AS faults
FROM stg_tr_rounds
GROUP BY ALL;

-- Mart: which lead structures win tricks for the leader, per match.
CREATE OR REPLACE VIEW mart_tr_structures AS
SELECT match_id, structure,
       count(*)                                        AS tricks,
       avg(CASE WHEN winner = leader THEN 1 ELSE 0 END) AS leader_keeps,
       avg(points)                                     AS mean_points
FROM stg_tr_tricks
GROUP BY ALL;
