-- PostgreSQL: schema version 11 of ../011-kept-players.sql: the players'
-- sums kept as games are written beside stats_players (each player's
-- first counted game and points, the pairings per pair of players).
CREATE TABLE stats_player_sums (
	player_id BIGINT PRIMARY KEY,
	first_game BIGINT NOT NULL,
	first_side INTEGER NOT NULL,
	points DOUBLE PRECISION NOT NULL
);

CREATE TABLE stats_pairs (
	a BIGINT NOT NULL,
	b BIGINT NOT NULL,
	games BIGINT NOT NULL,
	PRIMARY KEY (a, b)
);
