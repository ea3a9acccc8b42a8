-- PostgreSQL: schema version 8 of ../008-cells.sql (the pattern search's
-- summary of each game's cells), filled by libkifu for the games stored.
CREATE TABLE game_cells (
	game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	cells bytea NOT NULL
);
