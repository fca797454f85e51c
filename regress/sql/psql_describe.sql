-- psql's \d family over the system catalogs: tables with primary keys,
-- indexes, defaults, NOT NULL and fillfactor. The scripts share one
-- database, so listings name the relations of this script.
CREATE TABLE items (id int PRIMARY KEY, name varchar(20) NOT NULL DEFAULT 'x', qty numeric(10,2), created timestamp DEFAULT now()) WITH (fillfactor = 70);
CREATE INDEX items_name_idx ON items (name);
CREATE TABLE notes (a int, b text, c boolean NOT NULL, d bigint DEFAULT 0);
CREATE UNIQUE INDEX notes_a_b ON notes (a, b);
CREATE SEQUENCE counter;
\dt (items|notes)
\dt notes
\d items
\d+ items
\d notes
\d+ notes
\d nosuch
\di (items|notes)*
\ds counter
\dn
\du
-- notes has a TOAST table in PostgreSQL (its size counts in \dt+); items has none
\dt+ items
\d items_pkey
SELECT relname, relkind, reloptions, relnatts, relhasindex FROM pg_class WHERE relnamespace = 'public'::regnamespace AND (relname LIKE 'items%' OR relname LIKE 'notes%' OR relname = 'counter') ORDER BY relname;
SELECT attname, format_type(atttypid, atttypmod), attnotnull, atthasdef FROM pg_attribute WHERE attrelid = 'items'::regclass AND attnum > 0 ORDER BY attnum;
SELECT indexrelid::regclass, indrelid::regclass, indisunique, indisprimary FROM pg_index WHERE indrelid = 'items'::regclass OR indrelid = 'notes'::regclass ORDER BY 1::text;
SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'items'::regclass;
SELECT pg_get_indexdef('notes_a_b'::regclass), pg_get_indexdef('notes_a_b'::regclass, 2, true);
SELECT datname, datistemplate FROM pg_database WHERE datname = 'template1';
SELECT nspname FROM pg_namespace ORDER BY 1;
SELECT amname, amtype FROM pg_am WHERE amname IN ('heap', 'btree') ORDER BY 1;
SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = 'items' ORDER BY ordinal_position;
SELECT pg_size_pretty(0::bigint), pg_size_pretty(10239::bigint), pg_size_pretty(10240::bigint), pg_size_pretty(123456789::bigint), pg_size_pretty(-5000000000::bigint);
SELECT current_schemas(true), current_schemas(false);
SELECT 1 AS n UNION SELECT 2 UNION ALL SELECT 1 ORDER BY 1;
SELECT array(SELECT relname FROM pg_class WHERE relkind = 'r' AND relname IN ('items', 'notes') ORDER BY 1);
SELECT 'a' COLLATE "nosuch";
-- \l's query, for one database (the list differs from server to server)
SELECT d.datname as "Name",
       pg_catalog.pg_get_userbyid(d.datdba) as "Owner",
       pg_catalog.pg_encoding_to_char(d.encoding) as "Encoding",
       d.datlocprovider, d.daticulocale,
       pg_catalog.array_to_string(d.datacl, E'\n') IS NULL AS "no ACL"
FROM pg_catalog.pg_database d WHERE d.datname = 'postgres'
ORDER BY 1;
SELECT pg_catalog.pg_encoding_to_char(6), pg_catalog.pg_encoding_to_char(0), pg_catalog.pg_encoding_to_char(-1) = '';
