-- High card keeps no raw tables of its own: the referee loop's events are its record.
-- Staging: one row per hand, decoded from the events.
CREATE OR REPLACE VIEW stg_highcard_hands AS
SELECT match_id, unit,
       json_extract_string(event, '$.action') AS action,
       CAST(json_extract(event, '$.card') AS INTEGER) AS card,
       CAST(json_extract(event, '$.house') AS INTEGER) AS house,
       CAST(json_extract(event, '$.payoff') AS DOUBLE) AS payoff
FROM referee_events
WHERE match_id IN (SELECT match_id FROM matches WHERE game = 'highcard');
