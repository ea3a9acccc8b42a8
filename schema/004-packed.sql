-- kifu schema 4: a game's moves and positions packed into one row.
--
-- Schema 1 stored two B-tree rows per ply (moves, positions) and an index
-- entry per ply (positions_hash): about 2.7 us of an import's time per ply.
-- Now a game's moves, notes and position hashes are three JSON values of
-- one row of game_moves, and the position index positions_hash holds one
-- entry per distinct position per game, written in sorted batches or
-- rebuilt with one sort after a bulk load. The views moves and positions
-- give the old one-row-per-ply tables back (with SQLite's JSON functions,
-- in any sqlite3), so queries written for schema 1 still work.
-- Migrating copies every game; nothing else is lost or changed.

-- One row per game: its moves, their comments and clocks, its positions.
CREATE TABLE game_moves (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	moves TEXT NOT NULL,               -- JSON array: the canonical moves, ply 1..plies
	hashes TEXT NOT NULL,              -- JSON array: position hash after ply 0..plies
	notes TEXT                         -- JSON object, for each ply with a comment or a
	                                   -- clock: "PLY": {"comment": TEXT, "clock": TEXT
	                                   -- as written, "seconds": NUMBER}; else NULL
);

INSERT INTO game_moves(game_id, moves, hashes, notes)
SELECT g.id,
	(SELECT json_group_array(move) FROM
	 (SELECT move FROM moves WHERE game_id = g.id ORDER BY ply)),
	(SELECT json_group_array(hash) FROM
	 (SELECT hash FROM positions WHERE game_id = g.id ORDER BY ply)),
	(SELECT NULLIF(json_group_object(ply, CASE
		WHEN clock_text IS NULL THEN json_object('comment', comment)
		WHEN comment IS NULL THEN json_object('clock', clock_text, 'seconds', clock)
		ELSE json_object('comment', comment, 'clock', clock_text, 'seconds', clock) END), '{}')
	 FROM (SELECT ply, comment, clock, clock_text FROM moves WHERE game_id = g.id
	       AND (comment IS NOT NULL OR clock_text IS NOT NULL) ORDER BY ply))
FROM games g ORDER BY g.id;

-- Dropping the tables drops their triggers of schema 3 and the index positions_hash.
DROP VIEW positions_hex;
DROP TABLE moves;
DROP TABLE positions;

-- The position index: each game once per position it reached, with the
-- first ply at which it did. A search by position reads one range of it.
-- (The name is quoted as ALTER TABLE ... RENAME writes it: a bulk load
-- sets the table aside under another name and back.)
CREATE TABLE "positions_hash" (hash INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL, PRIMARY KEY (hash, game_id)) WITHOUT ROWID;

INSERT OR IGNORE INTO positions_hash(hash, game_id, ply)
SELECT j.value, m.game_id, j.key FROM game_moves m, json_each(m.hashes) j
ORDER BY 1, 2, 3;

-- The moves as schema 1 stored them: one row per ply.
CREATE VIEW moves AS
SELECT m.game_id, j.key + 1 AS ply, j.value AS move,
	json_extract(m.notes, '$."' || (j.key + 1) || '".comment') AS comment,
	CAST(json_extract(m.notes, '$."' || (j.key + 1) || '".seconds') AS REAL) AS clock,
	json_extract(m.notes, '$."' || (j.key + 1) || '".clock') AS clock_text
FROM game_moves m, json_each(m.moves) j;

-- The positions as schema 1 stored them: one row per ply, ply 0 the start.
CREATE VIEW positions AS
SELECT m.game_id, j.key AS ply, j.value AS hash
FROM game_moves m, json_each(m.hashes) j;

CREATE VIEW positions_hex AS
SELECT game_id, ply, printf('%016x', hash) AS hash
FROM positions;

-- Changed moves or positions make the precomputed opening lines stale;
-- a deleted game leaves the position index with it.
CREATE TRIGGER stats_game_moves_update AFTER UPDATE ON game_moves BEGIN
	DELETE FROM stats_state WHERE name = 'lines';
	DELETE FROM "positions_hash" WHERE game_id = old.game_id
		AND hash IN (SELECT value FROM json_each(old.hashes));
	INSERT OR IGNORE INTO "positions_hash"(hash, game_id, ply)
		SELECT value, new.game_id, key FROM json_each(new.hashes) ORDER BY key;
END;
CREATE TRIGGER stats_game_moves_delete AFTER DELETE ON game_moves BEGIN
	DELETE FROM stats_state WHERE name = 'lines';
	DELETE FROM "positions_hash" WHERE game_id = old.game_id
		AND hash IN (SELECT value FROM json_each(old.hashes));
END;

-- Indexes dropped for a bulk load are named only: libkifu rebuilds each
-- from the definition compiled into it, never from text in the database.
-- The position index is rebuilt above, whatever the state.
-- last_id: for positions_hash, the last game it covered when it was set
-- aside (as positions_hash_deferred) for a bulk load.
DELETE FROM deferred_indexes WHERE name NOT IN ('sides_player', 'games_date');
ALTER TABLE deferred_indexes DROP COLUMN sql;
ALTER TABLE deferred_indexes ADD COLUMN last_id INTEGER;

-- A rejected record already held (the same bytes) is not stored again,
-- whatever path it was read through.
CREATE INDEX quarantine_raw ON quarantine(raw_hash);
