-- kifu schema 11: the players' sums kept as games are written, as the
-- outcomes and lines are (schema/README.md "Kept sums"), beside
-- stats_players: what fitting the ratings again needs without reading the
-- games. stats_state 'players' says how far stats_players and these count
-- (last_id), and its depth whether the ratings in stats_players fit those
-- games (2) or wait for the next players report to fit them from these
-- tables (1, as imports leave them); a row without depth was written
-- before: the next report counts the tables again from the games.

-- Per player: the first game counted (and its side there), the order in
-- which the fit takes players; points, its score in its pairings.
CREATE TABLE IF NOT EXISTS stats_player_sums (
	player_id INTEGER PRIMARY KEY,
	first_game INTEGER NOT NULL,
	first_side INTEGER NOT NULL,
	points REAL NOT NULL
);

-- Pairings per pair of players (a < b, player ids): a two-sided game
-- with a result is one, a drawn game of n sides one for each pair, a won
-- one n - 1 (the winner's against each other side).
CREATE TABLE IF NOT EXISTS stats_pairs (
	a INTEGER NOT NULL,
	b INTEGER NOT NULL,
	games INTEGER NOT NULL,
	PRIMARY KEY (a, b)
) WITHOUT ROWID;

-- What stats_state said of the players was counted without these tables
-- (a database of version 10, or one made to look so, whose tables, kept by
-- IF NOT EXISTS, the recount empties first): the next players report
-- counts them again from the games.
UPDATE stats_state SET depth = NULL WHERE name = 'players';
