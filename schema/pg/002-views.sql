-- PostgreSQL: schema version 002 of ../002-views.sql: nothing to do (see 001-initial.sql).
SELECT 1;
