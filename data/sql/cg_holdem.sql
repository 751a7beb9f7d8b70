-- CodinGame Hold'em: raw tables cgh_<kind>, one per event kind the judge reports (engine/cg_holdem/events.py;
-- one unit = one game), then staging views and marts. The store prepends match_id and chunk to every raw table.

CREATE TABLE IF NOT EXISTS cgh_games (
    match_id         VARCHAR NOT NULL,
    chunk            INTEGER NOT NULL,
    unit             INTEGER NOT NULL,
    deal             INTEGER NOT NULL,   -- the shared cards: unit // players
    rotation         INTEGER NOT NULL,   -- seats rotated: unit % players
    game_seed        BIGINT NOT NULL,    -- the referee's Java seed (replays the game on CodinGame's referee)
    players          INTEGER NOT NULL,
    primary_seat     INTEGER NOT NULL,
    hands            INTEGER NOT NULL,
    rounds           INTEGER NOT NULL,
    overflow         BOOLEAN NOT NULL,   -- the Java referee would have crashed (NONE round past the cap)
    primary_position INTEGER NOT NULL,   -- 1 = first
    primary_score    BIGINT NOT NULL     -- CodinGame score: stack, or rank - players when eliminated
);

CREATE TABLE IF NOT EXISTS cgh_seats (
    match_id         VARCHAR NOT NULL,
    chunk            INTEGER NOT NULL,
    unit             INTEGER NOT NULL,
    seat             INTEGER NOT NULL,
    bot              VARCHAR NOT NULL,
    score            BIGINT NOT NULL,
    position         INTEGER NOT NULL,
    elimination_rank INTEGER NOT NULL,   -- 0 = first out, -1 = survived
    final_stack      BIGINT NOT NULL
);

CREATE TABLE IF NOT EXISTS cgh_hands (
    match_id    VARCHAR NOT NULL,
    chunk       INTEGER NOT NULL,
    unit        INTEGER NOT NULL,
    hand        INTEGER NOT NULL,
    big_blind   BIGINT NOT NULL,
    dealer      INTEGER NOT NULL,
    sb_seat     INTEGER NOT NULL,
    bb_seat     INTEGER NOT NULL,
    board       VARCHAR NOT NULL,        -- contest spelling, X = not dealt
    pot         BIGINT NOT NULL,
    showdown    BOOLEAN NOT NULL,
    cancelled   BOOLEAN NOT NULL,        -- refunded at the 600-round cap
    first_round INTEGER NOT NULL,
    last_round  INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS cgh_hand_seats (
    match_id    VARCHAR NOT NULL,
    chunk       INTEGER NOT NULL,
    unit        INTEGER NOT NULL,
    hand        INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    cards       VARCHAR NOT NULL,        -- e.g. AS_KD; empty when not dealt in
    start_stack BIGINT NOT NULL,
    posted      BIGINT NOT NULL,
    put_in      BIGINT NOT NULL,         -- chips put in the hand, blinds included
    won         BIGINT NOT NULL,         -- chips received at settlement (returns included)
    end_stack   BIGINT NOT NULL,
    folded      BOOLEAN NOT NULL
);

CREATE TABLE IF NOT EXISTS cgh_actions (
    match_id VARCHAR NOT NULL,
    chunk    INTEGER NOT NULL,
    unit     INTEGER NOT NULL,
    hand     INTEGER NOT NULL,
    round    INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   VARCHAR NOT NULL,           -- after replacement: FOLD, CHECK, CALL, BET_x, ALL-IN, TIMEOUT
    chips    BIGINT NOT NULL,
    street   INTEGER NOT NULL            -- 0 preflop .. 3 river
);

-- Staging: every seat of every hand with its bot name and net result.
CREATE OR REPLACE VIEW stg_cgh_hand_seats AS
SELECT hs.match_id, hs.chunk, hs.unit, hs.hand, hs.seat, s.bot, g.players, h.big_blind, h.showdown, h.cancelled,
       hs.cards, hs.start_stack, hs.put_in, hs.won, hs.won - hs.put_in AS net, hs.folded,
       (hs.won - hs.put_in) / h.big_blind::DOUBLE AS net_bb
FROM cgh_hand_seats hs
JOIN cgh_hands h USING (match_id, chunk, unit, hand)
JOIN cgh_seats s USING (match_id, chunk, unit, seat)
JOIN cgh_games g USING (match_id, chunk, unit)
WHERE hs.cards <> '';

CREATE OR REPLACE VIEW stg_cgh_actions AS
SELECT a.*, s.bot, CASE WHEN a.action LIKE 'BET_%' THEN 'BET' ELSE a.action END AS kind
FROM cgh_actions a JOIN cgh_seats s USING (match_id, chunk, unit, seat);

-- Mart: finishing position per bot and match with a 95% interval, never of zero width (all games in one
-- place are not a certain place): normal, within [1, players], where the positions vary; Hoeffding's for
-- a value in [1, players] where they do not. ci_method names which (flows.stats.mean_interval's rule).
CREATE OR REPLACE VIEW mart_cgh_positions AS
WITH per_bot AS (
    SELECT s.match_id, s.bot, g.players, count(*) AS games,
           avg(s.position) AS mean_position,  -- an integer sum: exact in any order
           -- ordered: a parallel stddev adds in any order, so two reads could differ in the last bits
           coalesce(stddev_samp(s.position ORDER BY s.unit, s.seat), 0) AS sd,
           avg(CASE WHEN s.position = 1 THEN 1.0 ELSE 0.0 END) AS win_rate
    FROM cgh_seats s JOIN cgh_games g USING (match_id, chunk, unit)
    GROUP BY s.match_id, s.bot, g.players
), halves AS (
    SELECT *, CASE WHEN sd > 0 THEN 1.959963984540054 * sd / sqrt(games)
                   ELSE (players - 1) * sqrt(ln(2 / 0.05) / (2 * games)) END AS half
    FROM per_bot
)
SELECT match_id, bot, players, games, mean_position, sd / sqrt(games) AS se,
       greatest(1, mean_position - half) AS ci_low, least(players, mean_position + half) AS ci_high,
       win_rate, CASE WHEN sd > 0 THEN 'normal' ELSE 'Hoeffding' END AS ci_method
FROM halves;

-- Mart: style per bot (VPIP-like share of hands voluntarily played, aggression, showdown share, bb/hand).
CREATE OR REPLACE VIEW mart_cgh_style AS
WITH voluntary AS (
    SELECT match_id, chunk, unit, hand, seat,
           max(CASE WHEN street = 0 AND kind IN ('CALL', 'BET', 'ALL-IN') THEN 1 ELSE 0 END) AS vpip,
           sum(CASE WHEN kind IN ('BET', 'ALL-IN') THEN 1 ELSE 0 END) AS aggressive,
           sum(CASE WHEN kind = 'CALL' THEN 1 ELSE 0 END) AS calls
    FROM stg_cgh_actions GROUP BY ALL
)
SELECT hs.match_id, hs.bot, count(*) AS hands, avg(coalesce(v.vpip, 0)) AS vpip,
       sum(coalesce(v.aggressive, 0)) / greatest(sum(coalesce(v.calls, 0)), 1) AS aggression_factor,
       avg(CASE WHEN hs.showdown AND NOT hs.folded THEN 1.0 ELSE 0.0 END) AS showdown_share,
       avg(hs.net_bb ORDER BY hs.unit, hs.hand, hs.seat) AS net_bb_per_hand  -- a float: in order, the same bits
FROM stg_cgh_hand_seats hs
LEFT JOIN voluntary v USING (match_id, chunk, unit, hand, seat)
WHERE NOT hs.cancelled
GROUP BY hs.match_id, hs.bot;

-- HUD statistics (what poker trackers show), per seat name and match; every rate has its count of
-- chances beside it, so matches can be pooled (sum the chances and hits, not the rates).
-- Decisions in order with, for each, the raises made earlier on its street and by whom, and the
-- hand's last preflop raiser. A raise is a BET, or an ALL-IN that puts more in than any seat had (not a call).
CREATE OR REPLACE VIEW stg_cgh_hud_actions AS
WITH totals AS (  -- chips the seat has in the hand after each action, and the most any seat had before it
    SELECT x.match_id, x.chunk, x.unit, x.hand, x.round, x.seat, x.bot, x.street, x.kind, x.chips,
           hs.posted + sum(x.chips) OVER (PARTITION BY x.match_id, x.chunk, x.unit, x.hand, x.seat ORDER BY x.round)
               AS total_after,
           b.top_posted
    FROM stg_cgh_actions x
    JOIN cgh_hand_seats hs USING (match_id, chunk, unit, hand, seat)
    JOIN (SELECT match_id, chunk, unit, hand, max(posted) AS top_posted FROM cgh_hand_seats GROUP BY ALL) b
        USING (match_id, chunk, unit, hand)
    WHERE x.kind <> 'TIMEOUT'
), a AS (
    SELECT match_id, chunk, unit, hand, round, seat, bot, street, kind,
           kind = 'BET' OR (kind = 'ALL-IN' AND total_after > greatest(top_posted, coalesce(max(total_after) OVER (
               PARTITION BY match_id, chunk, unit, hand ORDER BY round ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
               0))) AS aggressive
    FROM totals
), counted AS (
    SELECT *,
           coalesce(sum(aggressive::INTEGER) OVER earlier, 0) AS raises_before,
           last_value(CASE WHEN aggressive THEN seat END IGNORE NULLS) OVER earlier AS last_raiser_before
    FROM a
    WINDOW earlier AS (PARTITION BY match_id, chunk, unit, hand, street ORDER BY round
                       ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
), preflop AS (
    SELECT match_id, chunk, unit, hand, arg_max(seat, round) AS aggressor
    FROM a WHERE street = 0 AND aggressive GROUP BY ALL
)
SELECT c.*, p.aggressor AS preflop_aggressor,
       row_number() OVER (PARTITION BY c.match_id, c.chunk, c.unit, c.hand, c.street, c.seat ORDER BY c.round)
           AS nth_on_street
FROM counted c LEFT JOIN preflop p USING (match_id, chunk, unit, hand);

-- VPIP: called or raised preflop; PFR: raised preflop; 3-bet: raised when facing exactly one raise
-- preflop; aggression factor: postflop raises per call; WTSD: showdowns of the hands whose flop the
-- seat saw; c-bet: the preflop raiser's first flop action, nobody having bet, is a bet; fold to c-bet:
-- facing the flop's first bet, made by the preflop raiser, the seat folds.
CREATE OR REPLACE VIEW mart_cgh_hud AS
WITH per_hand AS (
    SELECT match_id, chunk, unit, hand, seat,
           bool_or(street = 0 AND kind IN ('CALL', 'BET', 'ALL-IN')) AS vpip,
           bool_or(street = 0 AND aggressive) AS pfr,
           bool_or(street = 0 AND raises_before = 1 AND last_raiser_before <> seat) AS three_bet_chance,
           bool_or(street = 0 AND raises_before = 1 AND last_raiser_before <> seat AND aggressive) AS three_bet,
           sum(CASE WHEN street > 0 AND aggressive THEN 1 ELSE 0 END) AS post_raises,
           sum(CASE WHEN street > 0 AND kind = 'CALL' THEN 1 ELSE 0 END) AS post_calls,
           bool_or(street = 0 AND kind = 'FOLD') AS folded_preflop,
           bool_or(street = 1 AND nth_on_street = 1 AND preflop_aggressor = seat AND raises_before = 0) AS cbet_chance,
           bool_or(street = 1 AND nth_on_street = 1 AND preflop_aggressor = seat AND raises_before = 0
                   AND aggressive) AS cbet,
           bool_or(street = 1 AND raises_before = 1 AND last_raiser_before = preflop_aggressor
                   AND preflop_aggressor <> seat) AS fold_cbet_chance,
           bool_or(street = 1 AND raises_before = 1 AND last_raiser_before = preflop_aggressor
                   AND preflop_aggressor <> seat AND kind = 'FOLD') AS fold_cbet
    FROM stg_cgh_hud_actions GROUP BY ALL
), seats AS (
    SELECT hs.match_id, hs.bot, hs.showdown, hs.folded, p.*,
           h.board NOT LIKE 'X%' AND NOT coalesce(p.folded_preflop, FALSE) AS saw_flop
    FROM stg_cgh_hand_seats hs
    JOIN cgh_hands h USING (match_id, chunk, unit, hand)
    LEFT JOIN per_hand p USING (match_id, chunk, unit, hand, seat)
    WHERE NOT hs.cancelled
)
SELECT match_id, bot, count(*) AS hands,
       avg(coalesce(vpip, FALSE)::INTEGER) AS vpip,
       avg(coalesce(pfr, FALSE)::INTEGER) AS pfr,
       count(*) FILTER (three_bet_chance) AS three_bet_chances,
       count(*) FILTER (three_bet) / nullif(count(*) FILTER (three_bet_chance), 0) AS three_bet,
       sum(coalesce(post_raises, 0)) / greatest(sum(coalesce(post_calls, 0)), 1) AS aggression_factor,
       count(*) FILTER (saw_flop) AS saw_flop,
       count(*) FILTER (saw_flop AND showdown AND NOT folded) / nullif(count(*) FILTER (saw_flop), 0) AS wtsd,
       count(*) FILTER (cbet_chance) AS cbet_chances,
       count(*) FILTER (cbet) / nullif(count(*) FILTER (cbet_chance), 0) AS cbet,
       count(*) FILTER (fold_cbet_chance) AS fold_to_cbet_chances,
       count(*) FILTER (fold_cbet) / nullif(count(*) FILTER (fold_cbet_chance), 0) AS fold_to_cbet
FROM seats
GROUP BY match_id, bot;
