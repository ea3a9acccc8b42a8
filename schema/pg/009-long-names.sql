-- PostgreSQL: schema version 9 of ../009-long-names.sql: names and paths of
-- any length. A btree entry holds at most 2,704 bytes (a third of a page),
-- so the unique key on a player's name refused a valid record naming a
-- player of 3,000 characters ("index row size 3016 exceeds btree version 4
-- maximum 2704 for index players_name_key") where SQLite stores it, and the
-- quarantine's key on (file, file_game, raw_hash) a path as long. The keys
-- are now on the text's MD5 (32 hex digits, always small): libkifu looks a
-- name up by its MD5 and compares the name itself too, so that two names
-- with one MD5 (made on purpose) are never taken for one player (the second
-- cannot be stored, and its record is quarantined with the reason).
ALTER TABLE players DROP CONSTRAINT players_name_key;
CREATE UNIQUE INDEX players_name_md5 ON players (md5(name));
ALTER TABLE quarantine DROP CONSTRAINT quarantine_file_file_game_raw_hash_key;
CREATE UNIQUE INDEX quarantine_file_md5 ON quarantine (md5(file), file_game, raw_hash);
