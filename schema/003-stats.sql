-- kifu schema 3: what kifu-stats precomputes, so that its reports stay fast
-- on millions of games.
--
-- These tables are derived from games, moves, positions and sides, and are
-- brought up to date lazily by libkifu (lib/stats/) when a report needs
-- them: stats_state says up to which game id each one counts, and only the
-- games added since are read (players' ratings, being global, are computed
-- again from every game). Imports therefore pay nothing for them. Changing
-- or deleting stored rows (by hand: kifu never does) fires the triggers
-- below, which forget the state so that the next report rebuilds from
-- scratch. Inserts fire none: kifu adds sides, moves and positions only
-- with their new game (a row added by hand to an older game is not seen
-- until something forgets the state, e.g. DELETE FROM stats_state).

-- How far each precomputed table is up to date.
CREATE TABLE stats_state (
	name TEXT PRIMARY KEY,             -- 'outcomes', 'lines' or 'players'
	last_id INTEGER NOT NULL,          -- games with id <= last_id are counted
	depth INTEGER                      -- lines: the plies kept
);

-- Games per game, variant, first side, result, termination and length
-- (summary and lengths).
CREATE TABLE stats_outcomes (
	game TEXT NOT NULL,
	variant TEXT NOT NULL,
	first TEXT NOT NULL,
	result TEXT NOT NULL,              -- a side name, 'draw' or 'unfinished'
	termination TEXT NOT NULL,         -- as in games, '' for NULL
	plies INTEGER NOT NULL,
	games INTEGER NOT NULL,
	PRIMARY KEY (game, variant, first, result, termination, plies)
) WITHOUT ROWID;

-- Games per opening line of 1..depth plies (openings). `line` is the
-- canonical moves joined by ',' (moves never hold one); `hash` the position
-- after it; `repeat` is 1 when the game had already been in that position
-- earlier in the line (so that --by-position counts a game once per
-- position). w0..w3: wins of side 0..3 in turn order.
CREATE TABLE stats_lines (
	plies INTEGER NOT NULL,            -- first: reports read the lines up to a depth
	game TEXT NOT NULL,
	variant TEXT NOT NULL,
	line TEXT NOT NULL,
	first TEXT NOT NULL,
	repeat INTEGER NOT NULL,
	hash INTEGER NOT NULL,
	games INTEGER NOT NULL,
	w0 INTEGER NOT NULL,
	w1 INTEGER NOT NULL,
	w2 INTEGER NOT NULL,
	w3 INTEGER NOT NULL,
	draws INTEGER NOT NULL,
	unfinished INTEGER NOT NULL,
	PRIMARY KEY (plies, game, variant, line, first, repeat)
) WITHOUT ROWID;

-- Per player over every game whose sides all name a player (players):
-- draw_points sums 1 / number of sides per draw; rating is NULL without a
-- finished game.
CREATE TABLE stats_players (
	player_id INTEGER PRIMARY KEY,
	games INTEGER NOT NULL,
	wins INTEGER NOT NULL,
	draws INTEGER NOT NULL,
	draw_points REAL NOT NULL,
	losses INTEGER NOT NULL,
	unfinished INTEGER NOT NULL,
	rating REAL
);

CREATE TRIGGER stats_games_update AFTER UPDATE ON games BEGIN
	DELETE FROM stats_state;
END;
CREATE TRIGGER stats_games_delete AFTER DELETE ON games BEGIN
	DELETE FROM stats_state;
END;
CREATE TRIGGER stats_moves_update AFTER UPDATE ON moves BEGIN
	DELETE FROM stats_state WHERE name = 'lines';
END;
CREATE TRIGGER stats_moves_delete AFTER DELETE ON moves BEGIN
	DELETE FROM stats_state WHERE name = 'lines';
END;
CREATE TRIGGER stats_positions_update AFTER UPDATE ON positions BEGIN
	DELETE FROM stats_state WHERE name = 'lines';
END;
CREATE TRIGGER stats_positions_delete AFTER DELETE ON positions BEGIN
	DELETE FROM stats_state WHERE name = 'lines';
END;
CREATE TRIGGER stats_sides_update AFTER UPDATE ON sides BEGIN
	DELETE FROM stats_state WHERE name = 'players';
END;
CREATE TRIGGER stats_sides_delete AFTER DELETE ON sides BEGIN
	DELETE FROM stats_state WHERE name = 'players';
END;
