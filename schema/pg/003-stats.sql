-- PostgreSQL: schema version 003 of ../003-stats.sql: nothing to do (see 001-initial.sql).
SELECT 1;
