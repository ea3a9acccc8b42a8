-- kifu schema 9: names and paths of any length. SQLite's keys take text of
-- any length, so nothing changes here; the version keeps the two backends
-- in step with schema/pg/009-long-names.sql, where PostgreSQL's btree keys
-- (at most 2,704 bytes an entry) on players(name) and quarantine(file, ...)
-- become keys on the text's MD5.
SELECT 1;
