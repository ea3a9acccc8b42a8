-- kifu schema 7: hashes as 8-byte binary values.
--
-- Up to schema 6 a game's position hashes (game_moves.hashes) and its
-- canonical hashes (game_canon.canon) were JSON arrays of decimal text,
-- about 20 bytes a hash, written by formatting every hash at import and
-- read back by SQLite's JSON reader at every commit (the canonical index).
-- Now both are one BLOB each of the same game_data row: 8 bytes per hash,
-- big-endian two's complement, ply 0 first, so that hex(hashes) is the
-- tools' 16-hex-digit form of every ply, concatenated, and
-- substr(hashes, 8 * k + 1, 8) the hash after ply k. The moves and notes
-- keep their JSON text. game_moves and game_canon become views giving the
-- JSON arrays of schema 6 back, decoded in plain SQL (any sqlite3 reads
-- them; slowly: libkifu reads game_data). The canonical index
-- positions_canon goes (below): the plain index answers symmetric
-- questions too. The tree counts, the listing and every other table are
-- unchanged.
--
-- The copy goes through kifu_pack_hashes, a function of libkifu's
-- connections (JSON array -> BLOB): only kifu applies this file.

CREATE TABLE game_data (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	moves TEXT NOT NULL,               -- JSON array: the canonical moves, ply 1..plies
	hashes BLOB NOT NULL,              -- position hash after ply 0..plies, 8 bytes each
	canon BLOB,                        -- canonical hash after ply 0..plies, 8 bytes each;
	                                   -- NULL when not known (the game's rules unknown)
	notes TEXT                         -- JSON object, as game_moves.notes was
);

INSERT INTO game_data(game_id, moves, hashes, canon, notes)
SELECT m.game_id, m.moves, kifu_pack_hashes(m.hashes), kifu_pack_hashes(c.canon), m.notes
FROM game_moves m LEFT JOIN game_canon c ON c.game_id = m.game_id ORDER BY m.game_id;

-- Dropping the tables drops their triggers (schemas 4 and 5).
DROP VIEW positions_hex;
DROP VIEW positions;
DROP VIEW moves;
DROP TABLE game_canon;
DROP TABLE game_moves;

-- The tables of schema 6 as views: hashes and canon as JSON arrays of
-- signed decimal integers (each hash decoded from its 16 hex digits).
CREATE VIEW game_moves AS
SELECT d.game_id AS game_id, d.moves AS moves,
	(SELECT json_group_array((SELECT (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) - (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) >= 2147483648) * 4294967296) * 4294967296 + ((((((((instr('0123456789ABCDEF', substr(x, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 10, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 12, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 14, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 16, 1)) - 1) FROM (SELECT hex(substr(d.hashes, 8 * (j.key) + 1, 8)) AS x))) FROM json_each('[' || substr(replace(hex(zeroblob(length(d.hashes) / 8)), '00', '0,'), 1, length(d.hashes) / 4 - 1) || ']') j) AS hashes,
	d.notes AS notes
FROM game_data d;

CREATE VIEW game_canon AS
SELECT d.game_id AS game_id,
	(SELECT json_group_array((SELECT (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) - (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) >= 2147483648) * 4294967296) * 4294967296 + ((((((((instr('0123456789ABCDEF', substr(x, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 10, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 12, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 14, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 16, 1)) - 1) FROM (SELECT hex(substr(d.canon, 8 * (j.key) + 1, 8)) AS x))) FROM json_each('[' || substr(replace(hex(zeroblob(length(d.canon) / 8)), '00', '0,'), 1, length(d.canon) / 4 - 1) || ']') j) AS canon
FROM game_data d WHERE d.canon IS NOT NULL;

-- The moves as schema 1 stored them: one row per ply.
CREATE VIEW moves AS
SELECT m.game_id, j.key + 1 AS ply, j.value AS move,
	json_extract(m.notes, '$."' || (j.key + 1) || '".comment') AS comment,
	CAST(json_extract(m.notes, '$."' || (j.key + 1) || '".seconds') AS REAL) AS clock,
	json_extract(m.notes, '$."' || (j.key + 1) || '".clock') AS clock_text
FROM game_data m, json_each(m.moves) j;

-- The positions as schema 1 stored them: one row per ply, ply 0 the start.
CREATE VIEW positions AS
SELECT d.game_id AS game_id, j.key AS ply,
	(SELECT (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) - (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) >= 2147483648) * 4294967296) * 4294967296 + ((((((((instr('0123456789ABCDEF', substr(x, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 10, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 12, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 14, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 16, 1)) - 1) FROM (SELECT hex(substr(d.hashes, 8 * (j.key) + 1, 8)) AS x)) AS hash
FROM game_data d, json_each('[' || substr(replace(hex(zeroblob(length(d.hashes) / 8)), '00', '0,'), 1, length(d.hashes) / 4 - 1) || ']') j;

CREATE VIEW positions_hex AS
SELECT d.game_id AS game_id, j.key AS ply, lower(hex(substr(d.hashes, 8 * j.key + 1, 8))) AS hash
FROM game_data d, json_each('[' || substr(replace(hex(zeroblob(length(d.hashes) / 8)), '00', '0,'), 1, length(d.hashes) / 4 - 1) || ']') j;

-- No canonical index any more: the games reaching a canonical position are
-- those the plain index holds at any of its orientations (libkifu looks
-- each up), so that an import writes one position index instead of two.
-- positions_canon, a view, gives the rows the table held (each game once
-- per canonical position, at the first ply it reached any orientation),
-- computed from game_data.canon: slowly, for people and tests. While a
-- bulk load holds the indexes back (deferred_indexes), it shows the games
-- the table would have held: those up to the last one indexed before.
DROP TABLE positions_canon;
CREATE VIEW positions_canon AS
SELECT hash, game_id, min(ply) AS ply FROM (SELECT d.game_id AS game_id, j.key AS ply,
	(SELECT (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) - (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) >= 2147483648) * 4294967296) * 4294967296 + ((((((((instr('0123456789ABCDEF', substr(x, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 10, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 12, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 14, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 16, 1)) - 1) FROM (SELECT hex(substr(d.canon, 8 * (j.key) + 1, 8)) AS x)) AS hash
FROM game_data d, json_each('[' || substr(replace(hex(zeroblob(length(d.canon) / 8)), '00', '0,'), 1, length(d.canon) / 4 - 1) || ']') j
	WHERE d.canon IS NOT NULL AND d.game_id <= coalesce((SELECT last_id FROM deferred_indexes
		WHERE name = 'positions_canon'), d.game_id))
GROUP BY hash, game_id;

-- Changes by hand, as the triggers of schemas 4 and 5 followed them: new
-- moves or hashes make the opening lines and the tree counts stale and
-- the plain index follows the hashes; new canonical hashes (or none) make
-- the tree stale; a deleted game leaves the index. (libkifu sets canon
-- right after writing a new row: from NULL, which changes nothing here.)
CREATE TRIGGER game_data_update AFTER UPDATE OF moves, hashes, notes ON game_data BEGIN
	DELETE FROM stats_state WHERE name IN ('lines', 'tree');
	DELETE FROM positions_hash WHERE old.hashes IS NOT new.hashes AND game_id = old.game_id
		AND hash IN (SELECT value FROM (SELECT (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) - (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) >= 2147483648) * 4294967296) * 4294967296 + ((((((((instr('0123456789ABCDEF', substr(x, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 10, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 12, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 14, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 16, 1)) - 1) AS value, k AS key FROM (SELECT hex(substr(old.hashes, 8 * j.key + 1, 8)) AS x, j.key AS k FROM json_each('[' || substr(replace(hex(zeroblob(length(old.hashes) / 8)), '00', '0,'), 1, length(old.hashes) / 4 - 1) || ']') j)));
	INSERT OR IGNORE INTO positions_hash(hash, game_id, ply)
		SELECT value, new.game_id, key FROM (SELECT (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) - (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) >= 2147483648) * 4294967296) * 4294967296 + ((((((((instr('0123456789ABCDEF', substr(x, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 10, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 12, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 14, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 16, 1)) - 1) AS value, k AS key FROM (SELECT hex(substr(new.hashes, 8 * j.key + 1, 8)) AS x, j.key AS k FROM json_each('[' || substr(replace(hex(zeroblob(length(new.hashes) / 8)), '00', '0,'), 1, length(new.hashes) / 4 - 1) || ']') j))
		WHERE old.hashes IS NOT new.hashes ORDER BY key;
END;

CREATE TRIGGER game_data_canon_update AFTER UPDATE OF canon ON game_data
WHEN old.canon IS NOT NULL BEGIN
	DELETE FROM stats_state WHERE name = 'tree';
END;

CREATE TRIGGER game_data_delete AFTER DELETE ON game_data BEGIN
	DELETE FROM stats_state WHERE name IN ('lines', 'tree');
	DELETE FROM positions_hash WHERE game_id = old.game_id
		AND hash IN (SELECT value FROM (SELECT (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) - (((((((((instr('0123456789ABCDEF', substr(x, 1, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 2, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 3, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 4, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 5, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 6, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 7, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 8, 1)) - 1) >= 2147483648) * 4294967296) * 4294967296 + ((((((((instr('0123456789ABCDEF', substr(x, 9, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 10, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 11, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 12, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 13, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 14, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 15, 1)) - 1) * 16 + instr('0123456789ABCDEF', substr(x, 16, 1)) - 1) AS value, k AS key FROM (SELECT hex(substr(old.hashes, 8 * j.key + 1, 8)) AS x, j.key AS k FROM json_each('[' || substr(replace(hex(zeroblob(length(old.hashes) / 8)), '00', '0,'), 1, length(old.hashes) / 4 - 1) || ']') j)));
END;

-- Writing through the views: moves and notes as JSON text; the hashes
-- only kifu writes (plain SQL has no way from decimal text to bytes).
CREATE TRIGGER game_moves_update INSTEAD OF UPDATE ON game_moves BEGIN
	SELECT RAISE(ABORT, 'game_moves.hashes is read-only: the hashes are game_data.hashes')
		WHERE new.hashes IS NOT old.hashes;
	UPDATE game_data SET moves = new.moves, notes = new.notes WHERE game_id = old.game_id;
END;
CREATE TRIGGER game_moves_delete INSTEAD OF DELETE ON game_moves BEGIN
	DELETE FROM game_data WHERE game_id = old.game_id;
END;
CREATE TRIGGER game_canon_delete INSTEAD OF DELETE ON game_canon BEGIN
	UPDATE game_data SET canon = NULL WHERE game_id = old.game_id;
END;
