-- kifu schema 12: the balance report's sums kept as games are written, as
-- the outcomes, lines and players are (schema/README.md "Kept sums").
-- stats_state 'balance' says how far stats_balance counts (last_id); a
-- missing row: the next balance report counts the table again from the
-- games (replaying each for its legal moves).

-- Per game, variant and level (the SPEC of kifu-play's players, or
-- 'players'; kifu-stats balance says which games are at a level, and
-- leaves the others out): games, first mover's wins, draws, unfinished
-- games, plies summed (also the positions before a move, branching's
-- denominator) and the legal moves of the side to move summed over those
-- positions. The review measures are not kept: the report reads the
-- stored reviews, only those.
CREATE TABLE IF NOT EXISTS stats_balance (
	game TEXT NOT NULL,
	variant TEXT NOT NULL,
	level TEXT NOT NULL,
	games INTEGER NOT NULL,
	fm_wins INTEGER NOT NULL,
	draws INTEGER NOT NULL,
	unfinished INTEGER NOT NULL,
	plies INTEGER NOT NULL,
	moves INTEGER NOT NULL,
	PRIMARY KEY (game, variant, level)
) WITHOUT ROWID;

-- Changed by hand, what a game's level or legal moves rest on makes the
-- table stale (schema 3's triggers forget every state when games change):
-- its players' names, its sides, its moves.
CREATE TRIGGER IF NOT EXISTS stats_balance_players_update AFTER UPDATE OF name ON players BEGIN
	DELETE FROM stats_state WHERE name = 'balance';
END;
CREATE TRIGGER IF NOT EXISTS stats_balance_sides_change AFTER UPDATE ON sides BEGIN
	DELETE FROM stats_state WHERE name = 'balance';
END;
CREATE TRIGGER IF NOT EXISTS stats_balance_sides_delete AFTER DELETE ON sides BEGIN
	DELETE FROM stats_state WHERE name = 'balance';
END;
CREATE TRIGGER IF NOT EXISTS stats_balance_moves_update AFTER UPDATE OF moves ON game_data BEGIN
	DELETE FROM stats_state WHERE name = 'balance';
END;

-- What stats_state said of the balance was not written by this version (a
-- database made to look older, its table kept by IF NOT EXISTS): counted
-- again from the games by the next report.
DELETE FROM stats_state WHERE name = 'balance';
