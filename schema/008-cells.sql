-- kifu schema 8: what partial-board pattern search reads (kifu-search
-- --pattern).
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
