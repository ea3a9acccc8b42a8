-- kifu schema 10: format 2's lines, nags and engine figures (RECORDS.md
-- "Format 2"), kept with their game and given back by every export, never
-- indexed: statistics, the position index, the tree, search, novelties and
-- reviews read the main line only (game_data), so nothing else changes.
--
-- One row per stored game that has any: lines is a JSON object from the
-- main-line ply (1-based, as a string) to what that turn carries of
-- format 2: "nag" (one of ! ? !! ?? !? ?!), "eval" ({"engine", "expected"
-- as written, "best" canonical}) and "variations" (arrays of turn objects:
-- "move" canonical, "nag", "comment", "clock" as written, "eval",
-- "variations"). A game without them has no row. Games stored before this
-- version had none (their records could not hold any), so nothing is
-- copied.
CREATE TABLE game_lines (
	game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	lines TEXT NOT NULL
);
