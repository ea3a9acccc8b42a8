-- kifu schema 5: board symmetries, and what the tree and the search read.
--
-- The canonical position hash (the smallest hash of a position over its
-- game's board symmetries, games/*.md "Symmetries") is kept for every ply
-- next to the plain one, and indexed like it; the moves played from each
-- position of the first plies are counted once at import (tree_moves), so
-- that kifu-stats tree reads a few rows instead of every game reaching a
-- popular position; kifu-search lists games from one narrow row per game
-- (game_listing) instead of joining players per row. Only libkifu can
-- compute canonical hashes (the engines' symmetries): this file makes the
-- tables, and libkifu fills them for the games already stored in the same
-- transaction (lib/store/store_symm.c), replaying each game once.

-- The canonical hash after each ply, ply 0 (the start) .. plies, as a JSON
-- array like game_moves.hashes, one row per game beside game_moves (a
-- column of it would make its rows too long for two to share a page).
CREATE TABLE game_canon (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	canon TEXT NOT NULL
);

-- The canonical position index: each game once per canonical position it
-- reached (any orientation of it), with the first ply at which it did.
CREATE TABLE positions_canon (
	hash INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	ply INTEGER NOT NULL,
	PRIMARY KEY (hash, game_id)
) WITHOUT ROWID;

-- The moves played from each position a game reached in its first plies
-- (ply 0 .. stats_state 'tree'.depth; a game counted once per position, at
-- the first ply it reached it, and only when that ply is one of those),
-- per game and variant: symmetric = 0 by plain hash and the move as
-- played, symmetric = 1 by canonical hash and the move mapped onto the
-- canonical orientation (the symmetry of smallest index that gives the
-- canonical hash). w0..w3: wins of side 0..3 in turn order; plies: the sum
-- of the games' lengths. Up to date for the games with id <= stats_state
-- 'tree'.last_id (kept by every import, in its own transaction).
CREATE TABLE tree_moves (
	game TEXT NOT NULL,
	variant TEXT NOT NULL,
	symmetric INTEGER NOT NULL,
	hash INTEGER NOT NULL,
	move TEXT NOT NULL,
	games INTEGER NOT NULL,
	w0 INTEGER NOT NULL,
	w1 INTEGER NOT NULL,
	w2 INTEGER NOT NULL,
	w3 INTEGER NOT NULL,
	draws INTEGER NOT NULL,
	unfinished INTEGER NOT NULL,
	plies INTEGER NOT NULL,
	PRIMARY KEY (symmetric, hash, game, variant, move)
) WITHOUT ROWID;

-- One narrow row per game with what kifu-search lists: players is a JSON
-- object, side -> player's name, for the sides that name one, in turn
-- order (as kifu-search --json writes it): {"white":"Kiri Walker"}.
CREATE TABLE game_listing (
	id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	game TEXT NOT NULL,
	variant TEXT NOT NULL,
	date TEXT,
	date_first TEXT,
	result TEXT NOT NULL,
	plies INTEGER NOT NULL,
	players TEXT NOT NULL
);

INSERT INTO game_listing(id, game, variant, date, date_first, result, plies, players)
SELECT g.id, g.game, g.variant, g.date, g.date_first, g.result, g.plies,
	(SELECT '{' || ifnull(group_concat(json_quote(x.side) || ':' || json_quote(x.name), ','),
		'') || '}'
	 FROM (SELECT s.side AS side, p.name AS name FROM sides s
	       JOIN players p ON p.id = s.player_id WHERE s.game_id = g.id
	       ORDER BY s.side_index) AS x)
FROM games g ORDER BY g.id;

-- Changes made by hand: the listing follows its game and players; the
-- canonical index follows game_canon as positions_hash does game_moves
-- (libkifu alone computes canon: a game whose moves are edited by hand
-- keeps its old one); the tree counts are forgotten (stats_state) and
-- counted again by the next report.
CREATE TRIGGER game_listing_games_update AFTER UPDATE ON games BEGIN
	UPDATE game_listing SET game = new.game, variant = new.variant, date = new.date,
		date_first = new.date_first, result = new.result, plies = new.plies
	WHERE id = new.id;
END;
CREATE TRIGGER game_listing_players_update AFTER UPDATE OF name ON players BEGIN
	UPDATE game_listing SET players = (SELECT '{' || ifnull(group_concat(
		json_quote(x.side) || ':' || json_quote(x.name), ','), '') || '}'
		FROM (SELECT s.side AS side, p.name AS name FROM sides s JOIN players p ON p.id = s.player_id
		      WHERE s.game_id = game_listing.id ORDER BY s.side_index) AS x)
	WHERE id IN (SELECT game_id FROM sides WHERE player_id = new.id);
END;
CREATE TRIGGER game_listing_sides_update AFTER UPDATE ON sides BEGIN
	UPDATE game_listing SET players = (SELECT '{' || ifnull(group_concat(
		json_quote(x.side) || ':' || json_quote(x.name), ','), '') || '}'
		FROM (SELECT s.side AS side, p.name AS name FROM sides s JOIN players p ON p.id = s.player_id
		      WHERE s.game_id = game_listing.id ORDER BY s.side_index) AS x)
	WHERE id IN (old.game_id, new.game_id);
END;
CREATE TRIGGER game_listing_sides_delete AFTER DELETE ON sides BEGIN
	UPDATE game_listing SET players = (SELECT '{' || ifnull(group_concat(
		json_quote(x.side) || ':' || json_quote(x.name), ','), '') || '}'
		FROM (SELECT s.side AS side, p.name AS name FROM sides s JOIN players p ON p.id = s.player_id
		      WHERE s.game_id = game_listing.id ORDER BY s.side_index) AS x)
	WHERE id = old.game_id;
END;
CREATE TRIGGER symm_game_moves_update AFTER UPDATE ON game_moves BEGIN
	DELETE FROM stats_state WHERE name = 'tree';
END;
CREATE TRIGGER symm_game_canon_update AFTER UPDATE ON game_canon BEGIN
	DELETE FROM stats_state WHERE name = 'tree';
	DELETE FROM positions_canon WHERE game_id = old.game_id
		AND hash IN (SELECT value FROM json_each(old.canon));
	INSERT OR IGNORE INTO positions_canon(hash, game_id, ply)
		SELECT value, new.game_id, key FROM json_each(new.canon) ORDER BY key;
END;
CREATE TRIGGER symm_game_canon_delete AFTER DELETE ON game_canon BEGIN
	DELETE FROM stats_state WHERE name = 'tree';
	DELETE FROM positions_canon WHERE game_id = old.game_id
		AND hash IN (SELECT value FROM json_each(old.canon));
END;
