-- PostgreSQL: schema version 8 of ../008-history.sql: the tree counts'
-- dates (counted again by libkifu) and the pattern search's summary of
-- each game's cells (filled by libkifu for the games stored).
CREATE TABLE game_cells (
	game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	cells bytea NOT NULL
);

ALTER TABLE tree_moves ADD COLUMN first_seen TEXT COLLATE "C";
ALTER TABLE tree_moves ADD COLUMN last_seen TEXT COLLATE "C";
DELETE FROM tree_moves;
DELETE FROM stats_state WHERE name = 'tree';
