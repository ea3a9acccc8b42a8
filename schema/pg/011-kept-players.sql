-- PostgreSQL: schema version 11 of ../011-kept-players.sql: the players'
-- sums kept as games are written beside stats_players (each player's
-- first counted game and points, the pairings per pair of players).
CREATE TABLE IF NOT EXISTS stats_player_sums (
	player_id BIGINT PRIMARY KEY,
	first_game BIGINT NOT NULL,
	first_side INTEGER NOT NULL,
	points DOUBLE PRECISION NOT NULL
);

CREATE TABLE IF NOT EXISTS stats_pairs (
	a BIGINT NOT NULL,
	b BIGINT NOT NULL,
	games BIGINT NOT NULL,
	PRIMARY KEY (a, b)
);

-- What stats_state said of the players was counted without these tables
-- (a database of version 10, or one made to look so, whose tables, kept by
-- IF NOT EXISTS, the recount empties first): the next players report
-- counts them again from the games.
UPDATE stats_state SET depth = NULL WHERE name = 'players';
