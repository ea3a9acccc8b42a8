-- PostgreSQL: schema version 12 of ../012-kept-balance.sql: the balance
-- report's sums per game, variant and level kept as games are written.
CREATE TABLE IF NOT EXISTS stats_balance (
	game TEXT COLLATE "C" NOT NULL,
	variant TEXT COLLATE "C" NOT NULL,
	level TEXT COLLATE "C" NOT NULL,
	games BIGINT NOT NULL,
	fm_wins BIGINT NOT NULL,
	draws BIGINT NOT NULL,
	unfinished BIGINT NOT NULL,
	plies BIGINT NOT NULL,
	moves BIGINT NOT NULL,
	PRIMARY KEY (game, variant, level)
);

-- Changed by hand, a game's players' names, sides or moves make the table stale.
CREATE OR REPLACE FUNCTION kifu_stats_forget_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM stats_state WHERE name = 'balance';
	RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS stats_balance_players_update ON players;
CREATE TRIGGER stats_balance_players_update AFTER UPDATE OF name ON players
	FOR EACH STATEMENT EXECUTE FUNCTION kifu_stats_forget_balance();
DROP TRIGGER IF EXISTS stats_balance_sides_change ON sides;
CREATE TRIGGER stats_balance_sides_change AFTER UPDATE OR DELETE ON sides
	FOR EACH STATEMENT EXECUTE FUNCTION kifu_stats_forget_balance();
DROP TRIGGER IF EXISTS stats_balance_moves_update ON game_moves;
CREATE TRIGGER stats_balance_moves_update AFTER UPDATE OF moves ON game_moves
	FOR EACH STATEMENT EXECUTE FUNCTION kifu_stats_forget_balance();

-- What stats_state said of the balance was not written by this version: counted again.
DELETE FROM stats_state WHERE name = 'balance';
