-- PostgreSQL: schema version 7 of ../007-binary.sql. PostgreSQL keeps its
-- tables of version 6 (hashes as jsonb arrays in game_moves and
-- game_canon, written by its own loading path); what libkifu reads from
-- version 7 on is one row per game, game_data, which is a view here.
CREATE VIEW game_data AS
SELECT m.game_id, m.moves, m.hashes, c.canon, m.notes
FROM game_moves m LEFT JOIN game_canon c ON c.game_id = m.game_id;
