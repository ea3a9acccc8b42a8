-- kifu schema 8: history and shape. The dates of the tree counts
-- (kifu-stats tree's first_date and last_date), and what partial-board
-- pattern search reads (kifu-search --pattern).
--
-- tree_moves gains the earliest and the latest date among the games each
-- row counts, each as the game's first day, a space, and the date as the
-- record wrote it ("2020-01-01 2020"): the earliest and latest of several
-- are then their min and max as text, and a partial date comes back as it
-- was written. The counts kept so far have no dates: they are forgotten,
-- and libkifu counts every stored game again in the same transaction.
--
-- For every stored game of a game kifu knows, the cells each side's pieces
-- stood on at some ply (the start included): per side, one bit per cell
-- in the game's own cell order (kifu_game.cell_name; cell c is bit c % 8
-- of byte c / 8), the sides in turn order, (cells + 7) / 8 bytes each. A
-- pattern that needs a side's piece on a cell where none of that side's
-- ever stood cannot show in the game, so a search replays only the games
-- this table lets through. Only libkifu can replay a game: this file makes
-- the table, and libkifu fills it for the games already stored, in the
-- same transaction (lib/store/store_cells.c).
CREATE TABLE game_cells (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	cells BLOB NOT NULL
);

ALTER TABLE tree_moves ADD COLUMN first_seen TEXT;
ALTER TABLE tree_moves ADD COLUMN last_seen TEXT;
DELETE FROM tree_moves;
DELETE FROM stats_state WHERE name = 'tree';
