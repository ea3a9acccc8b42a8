-- PLACEHOLDER on branch `analyse` only: version 5 is schema/005-symmetric.sql of
-- branch `symm`. This file lets 006 build until that lands; the merge of main
-- that brings 005-symmetric.sql deletes it (two 005 files fail the build).
SELECT 1;
