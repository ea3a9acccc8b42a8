-- kifu schema 6: engine reviews kept by kifu-analyse --store.
--
-- One analysis_runs row per game and engine settings (engine, playouts,
-- seed): analysing the same game again with the same settings replaces the
-- run and its plies (kifu deletes the old run and inserts the new one in
-- one transaction); other settings are kept beside it. analysis_plies holds
-- the review of each ply of a run, as kifu-analyse's json gives it. Both
-- go with their game (ON DELETE CASCADE).
--
-- Portable SQL on purpose (PostgreSQL runs it too): BIGINT for 64-bit
-- values, DOUBLE PRECISION for scores, no WITHOUT ROWID.

CREATE TABLE analysis_runs (
	id INTEGER PRIMARY KEY,
	game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	engine TEXT NOT NULL,              -- 'mcts': the MCTS player of kifu-play
	playouts BIGINT NOT NULL,          -- iterations per position (--playouts)
	seed BIGINT NOT NULL,              -- --seed, its 64 bits read as signed (as hashes are)
	plies INTEGER NOT NULL,            -- plies reviewed: every ply of the game
	UNIQUE (game_id, engine, playouts, seed)
);

CREATE TABLE analysis_plies (
	run_id BIGINT NOT NULL REFERENCES analysis_runs(id) ON DELETE CASCADE,
	ply INTEGER NOT NULL,              -- from 1
	side_index INTEGER NOT NULL,       -- the mover, as in sides
	move TEXT NOT NULL,                -- played, canonical
	best TEXT NOT NULL,                -- the engine's choice, canonical
	expected DOUBLE PRECISION NOT NULL,     -- the mover's expected score before the move
	best_score DOUBLE PRECISION NOT NULL,
	played_score DOUBLE PRECISION NOT NULL,
	loss DOUBLE PRECISION NOT NULL,         -- max(0, best_score - played_score)
	mark TEXT,                         -- '?!', '?', '??' or NULL
	PRIMARY KEY (run_id, ply)
);
