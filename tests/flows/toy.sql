CREATE TABLE IF NOT EXISTS toy_flips (match_id VARCHAR, chunk INTEGER, unit INTEGER, heads BOOLEAN);
