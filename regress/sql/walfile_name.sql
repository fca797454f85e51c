-- pg_walfile_name: the segment holding the byte before an LSN, named as
-- PostgreSQL names WAL segments (16 MB segments).
SELECT pg_walfile_name('0/1000000'), pg_walfile_name('0/1000001'), pg_walfile_name('1/0'), pg_walfile_name('0/0');
SELECT pg_walfile_name('0/FFFFFF'), pg_walfile_name('5/12345678');
SELECT pg_walfile_name(NULL);
SELECT pg_walfile_name(pg_current_wal_lsn()) ~ '^[0-9A-F]{24}$' AS looks_right;
