-- kifu schema 1: the tables and their indexes.
--
-- Applied by libkifu (lib/store/store.c) in one transaction, which then sets
-- PRAGMA user_version = 1. Never edit a released migration: add a new file.
-- 64-bit hashes and keys are signed INTEGERs holding the same 64 bits.

-- Marks the file as a kifu database ('kifu' in ASCII).
PRAGMA application_id = 1802069621;

-- One run of kifu-import (or of any other writer that records provenance).
CREATE TABLE imports (
	id INTEGER PRIMARY KEY,
	started_at TEXT NOT NULL,          -- UTC, 'YYYY-MM-DDTHH:MM:SSZ'
	finished_at TEXT,                  -- NULL while running, or if interrupted
	paths TEXT,                        -- the PATH arguments, one per line
	imported INTEGER,                  -- counts, set when finished
	duplicates INTEGER,
	rejected INTEGER
);

-- A file read by an import ('<stdin>' for standard input).
CREATE TABLE files (
	id INTEGER PRIMARY KEY,
	import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
	path TEXT NOT NULL,
	size INTEGER                       -- bytes, NULL when unknown
);

-- One valid, replayed game.
CREATE TABLE games (
	id INTEGER PRIMARY KEY,
	game TEXT NOT NULL,                -- record id: 'splay-schmidt', ...
	variant TEXT NOT NULL,             -- stated or the game's default
	first TEXT NOT NULL,               -- the side that moved first
	event TEXT,
	site TEXT,
	round TEXT,
	date TEXT,                         -- as written: YYYY, YYYY-MM or YYYY-MM-DD
	date_first TEXT,                   -- its first day, YYYY-MM-DD (sorts)
	annotator TEXT,
	source TEXT,
	result TEXT NOT NULL,              -- a side name, 'draw' or 'unfinished'
	winner INTEGER,                    -- side index of the winner, else NULL
	termination TEXT,                  -- stated or implied ('rules'); NULL if unfinished
	plies INTEGER NOT NULL,
	content_hash INTEGER NOT NULL,     -- duplicate key (kifu_store_game_key)
	file_id INTEGER REFERENCES files(id) ON DELETE SET NULL,
	file_line INTEGER,                 -- first line of the document
	file_game INTEGER                  -- 1-based game number in the file
);
CREATE UNIQUE INDEX games_content_hash ON games(content_hash);
CREATE INDEX games_date ON games(date_first);

-- Every player name, once.
CREATE TABLE players (
	id INTEGER PRIMARY KEY,
	name TEXT NOT NULL UNIQUE
);

-- Who played which side of a game (only the sides the record names).
CREATE TABLE sides (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	side_index INTEGER NOT NULL,       -- index in the game's turn order, from 0
	side TEXT NOT NULL,                -- its name: 'white', 'red', ...
	player_id INTEGER NOT NULL REFERENCES players(id),
	rating INTEGER,                    -- as given in the record, else NULL
	PRIMARY KEY (game_id, side_index)
) WITHOUT ROWID;
CREATE INDEX sides_player ON sides(player_id);

-- The moves, in canonical notation, ply 1..plies.
CREATE TABLE moves (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply INTEGER NOT NULL,
	move TEXT NOT NULL,
	comment TEXT,
	clock REAL,                        -- seconds
	clock_text TEXT,                   -- the clock as written ('12.50')
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- The position hash after each ply, ply 0 (the start) .. plies.
CREATE TABLE positions (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply INTEGER NOT NULL,
	hash INTEGER NOT NULL,
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX positions_hash ON positions(hash);

-- The figures the game's rules report at the end (score, captures, ...).
CREATE TABLE figures (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	key TEXT NOT NULL,
	num INTEGER,                       -- when the figure is a number
	text TEXT,                         -- when it is text
	PRIMARY KEY (game_id, key)
) WITHOUT ROWID;

-- The record's free tags, in their order.
CREATE TABLE tags (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	key TEXT NOT NULL,
	value TEXT NOT NULL,
	type TEXT NOT NULL,                -- how YAML typed it: str, int, float, bool, null, timestamp
	PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- Records that failed validation, as they were written.
CREATE TABLE quarantine (
	id INTEGER PRIMARY KEY,
	import_id INTEGER REFERENCES imports(id) ON DELETE SET NULL,
	file TEXT NOT NULL,                -- path as given, '<stdin>' for standard input
	file_line INTEGER,                 -- first line of the document
	file_game INTEGER NOT NULL,        -- 1-based game number in the file
	game TEXT,                         -- the game named by the record, if any
	raw BLOB NOT NULL,                 -- the document's bytes
	raw_truncated INTEGER NOT NULL DEFAULT 0,
	raw_hash INTEGER NOT NULL,         -- 64-bit hash of raw
	errors INTEGER NOT NULL,           -- error diagnostics
	UNIQUE (file, file_game, raw_hash)
);

-- Every diagnostic of a quarantined record, in document order.
CREATE TABLE quarantine_diags (
	quarantine_id INTEGER NOT NULL REFERENCES quarantine(id) ON DELETE CASCADE,
	seq INTEGER NOT NULL,
	severity TEXT NOT NULL,            -- 'error' or 'warning'
	line INTEGER,                      -- 1-based, NULL when unknown
	col INTEGER,
	ply INTEGER,                       -- for a move, else NULL
	message TEXT NOT NULL,             -- 'game K, ply P: illegal move ...'
	PRIMARY KEY (quarantine_id, seq)
) WITHOUT ROWID;

-- Indexes dropped for a bulk load (kifu_store_indexes_defer), with the SQL
-- that recreates them; empty when every index is in place.
CREATE TABLE deferred_indexes (
	name TEXT PRIMARY KEY,
	sql TEXT NOT NULL
);
