-- wal_compression: PostgreSQL 15's enum (on/true/yes/1 mean pglz), a bad
-- value's error and hint, and SET LOCAL / RESET.
SHOW wal_compression;
SET wal_compression = lz4;
SHOW wal_compression;
SET wal_compression = zstd;
SHOW wal_compression;
SET wal_compression = pglz;
SHOW wal_compression;
SET wal_compression = off;
SHOW wal_compression;
SET wal_compression = on;
SHOW wal_compression;
SET wal_compression = 'LZ4';
SHOW wal_compression;
SET wal_compression = true;
SHOW wal_compression;
SET wal_compression = 0;
SHOW wal_compression;
SET wal_compression = gzip;
SET wal_compression = '';
SHOW wal_compression;
BEGIN;
SET LOCAL wal_compression = zstd;
SHOW wal_compression;
COMMIT;
SHOW wal_compression;
SET wal_compression = lz4;
-- full-page images are written compressed; the rows read back the same
CREATE TABLE walc_t (a int, b text);
INSERT INTO walc_t SELECT g, repeat('x', 100) FROM generate_series(1, 500) g;
CHECKPOINT;
UPDATE walc_t SET a = a + 1;
SELECT count(*), sum(a), min(length(b)) FROM walc_t;
RESET wal_compression;
SHOW wal_compression;
DROP TABLE walc_t;
