-- text and varchar convert to regclass implicitly (pg_cast), so a size
-- function takes a table name held in a text value; name and the other
-- reg types do not.
CREATE TABLE rt (a int);
SELECT pg_relation_size('rt'::text);
SELECT pg_relation_size('rt'::varchar);
SELECT pg_relation_size(relname::text) FROM pg_class WHERE relname = 'rt';
SELECT pg_relation_size('no_such_table'::text);
SELECT pg_relation_size('rt'::name);
SELECT pg_relation_size('rt'::text::regtype);
SELECT 'rt'::text::regclass, 'rt'::varchar::regclass;
SELECT pg_table_size('rt'::text), pg_total_relation_size('rt'::text);
DROP TABLE rt;
