-- PostgreSQL: schema version 5 of ../005-symmetric.sql: the same tables, columns and triggers
-- (see there and ../README.md). game_canon.canon is jsonb as game_moves' arrays; positions_canon
-- is partitioned by game id as positions_hash; text is COLLATE "C"; the triggers are PL/pgSQL.
CREATE TABLE game_canon (
	game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	canon JSONB NOT NULL
);

CREATE TABLE positions_canon (
	hash BIGINT NOT NULL,
	game_id BIGINT NOT NULL,
	ply INTEGER NOT NULL,
	PRIMARY KEY (hash, game_id)
) PARTITION BY HASH (game_id);
CREATE TABLE positions_canon_0 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 0);
CREATE TABLE positions_canon_1 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 1);
CREATE TABLE positions_canon_2 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 2);
CREATE TABLE positions_canon_3 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 3);
CREATE TABLE positions_canon_4 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 4);
CREATE TABLE positions_canon_5 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 5);
CREATE TABLE positions_canon_6 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 6);
CREATE TABLE positions_canon_7 PARTITION OF positions_canon FOR VALUES WITH (MODULUS 8, REMAINDER 7);

CREATE TABLE tree_moves (
	game TEXT COLLATE "C" NOT NULL,
	variant TEXT COLLATE "C" NOT NULL,
	"symmetric" INTEGER NOT NULL,
	hash BIGINT NOT NULL,
	move TEXT COLLATE "C" NOT NULL,
	games BIGINT NOT NULL,
	w0 BIGINT NOT NULL,
	w1 BIGINT NOT NULL,
	w2 BIGINT NOT NULL,
	w3 BIGINT NOT NULL,
	draws BIGINT NOT NULL,
	unfinished BIGINT NOT NULL,
	plies BIGINT NOT NULL,
	PRIMARY KEY ("symmetric", hash, game, variant, move)
);

CREATE TABLE game_listing (
	id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	game TEXT COLLATE "C" NOT NULL,
	variant TEXT COLLATE "C" NOT NULL,
	date TEXT COLLATE "C",
	date_first TEXT COLLATE "C",
	result TEXT COLLATE "C" NOT NULL,
	plies INTEGER NOT NULL,
	players TEXT COLLATE "C" NOT NULL
);

-- A game's players as the listing keeps them: a JSON object side -> name, in turn order.
CREATE FUNCTION kifu_listing_players(gid BIGINT) RETURNS TEXT LANGUAGE sql STABLE AS $$
	SELECT '{' || coalesce(string_agg(to_json(s.side)::text || ':' || to_json(p.name)::text, ','
		ORDER BY s.side_index), '') || '}'
	FROM sides s JOIN players p ON p.id = s.player_id WHERE s.game_id = gid
$$;

INSERT INTO game_listing(id, game, variant, date, date_first, result, plies, players)
SELECT g.id, g.game, g.variant, g.date, g.date_first, g.result, g.plies, kifu_listing_players(g.id)
FROM games g ORDER BY g.id;

CREATE FUNCTION kifu_listing_games() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE game_listing SET game = NEW.game, variant = NEW.variant, date = NEW.date,
		date_first = NEW.date_first, result = NEW.result, plies = NEW.plies
	WHERE id = NEW.id;
	RETURN NULL;
END $$;
CREATE TRIGGER game_listing_games_update AFTER UPDATE ON games
	FOR EACH ROW EXECUTE FUNCTION kifu_listing_games();

CREATE FUNCTION kifu_listing_player_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE game_listing SET players = kifu_listing_players(id)
	WHERE id IN (SELECT game_id FROM sides WHERE player_id = NEW.id);
	RETURN NULL;
END $$;
CREATE TRIGGER game_listing_players_update AFTER UPDATE OF name ON players
	FOR EACH ROW EXECUTE FUNCTION kifu_listing_player_renamed();

CREATE FUNCTION kifu_listing_sides_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'UPDATE' THEN
		UPDATE game_listing SET players = kifu_listing_players(id)
		WHERE id IN (OLD.game_id, NEW.game_id);
	ELSE
		UPDATE game_listing SET players = kifu_listing_players(id) WHERE id = OLD.game_id;
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER game_listing_sides_change AFTER UPDATE OR DELETE ON sides
	FOR EACH ROW EXECUTE FUNCTION kifu_listing_sides_changed();

CREATE FUNCTION kifu_tree_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM stats_state WHERE name = 'tree';
	RETURN NULL;
END $$;
CREATE TRIGGER symm_game_moves_update AFTER UPDATE ON game_moves
	FOR EACH STATEMENT EXECUTE FUNCTION kifu_tree_forget();

CREATE FUNCTION kifu_canon_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM stats_state WHERE name = 'tree';
	DELETE FROM positions_canon WHERE game_id = OLD.game_id
		AND hash IN (SELECT jsonb_array_elements_text(OLD.canon)::bigint);
	IF TG_OP = 'UPDATE' THEN
		INSERT INTO positions_canon(hash, game_id, ply)
		SELECT h.value::bigint, NEW.game_id, min(h.ord - 1)
		FROM jsonb_array_elements_text(NEW.canon) WITH ORDINALITY AS h(value, ord)
		GROUP BY 1 ON CONFLICT DO NOTHING;
	END IF;
	RETURN NULL;
END $$;
CREATE TRIGGER symm_game_canon_change AFTER UPDATE OR DELETE ON game_canon
	FOR EACH ROW EXECUTE FUNCTION kifu_canon_changed();
