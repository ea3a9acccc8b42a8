-- PostgreSQL: schema version 10 of ../010-lines.sql: format 2's lines, nags
-- and engine figures of each game that has any, one JSON text per game
-- (kept as kifu wrote it, never indexed).
CREATE TABLE game_lines (
	game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	lines TEXT COLLATE "C" NOT NULL
);
