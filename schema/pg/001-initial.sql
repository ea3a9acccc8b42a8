-- PostgreSQL: schema version 1 of ../001-initial.sql. A PostgreSQL database starts in the
-- layout of version 4 (004-packed.sql); this file only marks the database as kifu's and
-- holds its version (SQLite keeps both in PRAGMA application_id and user_version), and
-- 002 and 003 do nothing: a version number means the same schema on both backends.
CREATE TABLE kifu_schema (
	application TEXT COLLATE "C" NOT NULL,   -- 'kifu'
	version INTEGER NOT NULL
);
INSERT INTO kifu_schema(application, version) VALUES ('kifu', 0);
