-- Leagues (flows/league.py): entrants by program version, one row per game played (each game
-- is also a match in the hand log), and the ratings computed from them.

CREATE TABLE IF NOT EXISTS leagues (
    league     VARCHAR PRIMARY KEY,
    game       VARCHAR NOT NULL,
    seed       BIGINT NOT NULL,
    players    INTEGER NOT NULL,     -- seats per table (1: fixed opponent or reference simulator)
    options    VARCHAR NOT NULL,     -- JSON of the league's game options
    created_at TIMESTAMP NOT NULL
);

-- entrant = name@version; version = sha256 (12 hex) of the program files (flows/league_spec.py).
CREATE TABLE IF NOT EXISTS league_entrants (
    league        VARCHAR NOT NULL,
    entrant       VARCHAR NOT NULL,
    name          VARCHAR NOT NULL,
    version       VARCHAR NOT NULL,
    command       VARCHAR NOT NULL,
    registered_at TIMESTAMP NOT NULL,
    PRIMARY KEY (league, entrant)
);

-- A game is written once, after it was played and its match stored in the hand log.
CREATE TABLE IF NOT EXISTS league_games (
    league    VARCHAR NOT NULL,
    game_key  VARCHAR NOT NULL,      -- r<round>:<entrant>,<entrant>,... in seat order
    round     INTEGER NOT NULL,
    seed      BIGINT NOT NULL,       -- the round's deal
    match_id  VARCHAR NOT NULL,      -- the hand log's match
    seconds   DOUBLE,
    played_at TIMESTAMP NOT NULL,
    PRIMARY KEY (league, game_key)
);

CREATE TABLE IF NOT EXISTS league_seats (
    league      VARCHAR NOT NULL,
    game_key    VARCHAR NOT NULL,
    seat        INTEGER NOT NULL,
    entrant     VARCHAR NOT NULL,
    payoff      DOUBLE NOT NULL,     -- profit per hand, win share, or share of cases agreed
    units       INTEGER NOT NULL,    -- hands or cases the payoff is over (1 for a game between entrants)
    rank        INTEGER NOT NULL,    -- 1 = best in the game
    fault       VARCHAR NOT NULL,    -- '' or the contest's verdict on the program's fault
    cpu_seconds DOUBLE,
    PRIMARY KEY (league, game_key, seat)
);

-- Recomputed from league_seats (in round, key order) after every run of the league.
CREATE TABLE IF NOT EXISTS league_ratings (
    league     VARCHAR NOT NULL,
    entrant    VARCHAR NOT NULL,
    mu         DOUBLE,
    sigma      DOUBLE,
    ordinal    DOUBLE,
    games      INTEGER NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (league, entrant)
);

-- league_seats before `units` was added (a share's interval counts hands or cases).
ALTER TABLE league_seats ADD COLUMN IF NOT EXISTS units INTEGER DEFAULT 1;
