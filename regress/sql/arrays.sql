--
-- one-dimensional arrays: constructors, literals, subscripts, functions,
-- unnest, ANY/ALL
--
\set VERBOSITY sqlstate
SELECT ARRAY[1,2,3], ARRAY['a','b c',NULL,'"q"','',E'back\\slash','NULL','{x}'], '{1,2,3}'::int[], '{}'::int[], ARRAY[]::int[];
SELECT '{ 1 , 2 }'::int[], '{"a b", c, " d "}'::text[], '[0:1]={1,2}'::int[], '{{1,2},{3,4}}'::int[], '{NULL, null, "NULL"}'::text[];
SELECT pg_typeof(ARRAY[1,2]), pg_typeof(ARRAY[1.5]), pg_typeof(ARRAY['a']), pg_typeof(ARRAY['a'::varchar(3)]), pg_typeof(ARRAY[1::int8]);
SELECT ARRAY[1.5, 2], ARRAY[true,false], ARRAY['2020-01-01'::date], ARRAY['2020-01-01 10:00'::timestamp], ARRAY[1::float8, 1e300, 0.1];
SELECT ARRAY[1, 2.5], ARRAY[1::int2, 2::int8], ARRAY['x'::varchar, 'y'::text];
SELECT '{1,2}'::text[]::int[], ARRAY['1','2']::int[], ARRAY[1,2]::text[], '{a,b}'::varchar(1)[];
SELECT (ARRAY[1,2])[1], (ARRAY[1,2])[3], (ARRAY[1,2])[0], (ARRAY[1,2,3])[2:3], (ARRAY[1,2,3])[:2], (ARRAY[1,2,3])[2:], (ARRAY[1,2,3])[3:1];
SELECT ('{{1,2},{3,4}}'::int[])[2][1], ('[0:1]={a,b}'::text[])[0], (ARRAY[1,2])[NULL];
SELECT array_length(ARRAY[1,2,3], 1), array_length(ARRAY[1,2,3], 2), cardinality(ARRAY[1,2]), cardinality('{}'::int[]), array_length('{}'::int[], 1);
SELECT array_lower('[0:1]={1,2}'::int[], 1), array_upper(ARRAY[1,2], 1), array_ndims(ARRAY[1]), array_ndims('{{1},{2}}'::int[]);
SELECT array_to_string(ARRAY[1,NULL,3], ','), array_to_string(ARRAY[1,NULL,3], ',', '*'), array_to_string(ARRAY['a','b'], NULL);
SELECT string_to_array('a,b,,c', ','), string_to_array('a,b,,c', ',', ''), string_to_array('abc', NULL), string_to_array('abc', ''), string_to_array('', ',');
SELECT array_position(ARRAY[1,2,3,2], 2), array_position(ARRAY[1,2,3,2], 2, 3), array_position(ARRAY[1,NULL], NULL), array_position(ARRAY['a','b'], 'b'), array_position(ARRAY[1], 5);
SELECT array_append(ARRAY[1,2], 3), array_prepend(0, ARRAY[1,2]), array_append(NULL::int[], 1);
SELECT * FROM unnest(ARRAY[1,2,3]) WITH ORDINALITY AS u(x, n);
SELECT unnest(ARRAY['a','b']), 1 AS one;
SELECT u FROM unnest('{x,NULL,z}'::text[]) u;
SELECT count(*) FROM unnest('{}'::int[]);
SELECT 2 = ANY(ARRAY[1,2]), 5 <> ALL(ARRAY[1,2]), NULL = ANY(ARRAY[1,2]), 3 = ANY(ARRAY[1,NULL]), 1 = ANY('{}'::int[]), 1 = ALL('{}'::int[]);
SELECT 2 = ANY('{1,2}'), 'b' = ANY(ARRAY['a','b']), 2.0 = ANY(ARRAY[1,2]), 3 > ALL(ARRAY[1,2]), 1 < ANY(ARRAY[1,NULL]);
CREATE TABLE arr_t (id int, tags text);
INSERT INTO arr_t VALUES (1, 'a,b'), (2, 'c'), (3, NULL);
SELECT id, string_to_array(tags, ',') AS a, cardinality(string_to_array(tags, ',')) FROM arr_t ORDER BY id;
SELECT id FROM arr_t WHERE id = ANY(ARRAY[1,3]) ORDER BY id;
SELECT id, t FROM arr_t, unnest(string_to_array(tags, ',')) AS t ORDER BY id, t;
SELECT string_to_array(tags, ',') AS a, count(*) FROM arr_t GROUP BY 1 ORDER BY 1;
SELECT ARRAY[id, id * 10] FROM arr_t ORDER BY 1 DESC;
SELECT '{1,2'::int[];
SELECT '{1,a}'::int[];
SELECT '1,2'::int[];
SELECT '{{1},2}'::int[];
SELECT '{{1,2},{3}}'::int[];
SELECT '{1,2}}'::int[];
SELECT '{1,,2}'::int[];
SELECT '[1:3]={1,2}'::int[];
SELECT '{"a}'::text[];
SELECT '{abc}'::varchar(2)[];
SELECT ARRAY[];
SELECT ARRAY[1, 'x'];
SELECT ARRAY[1, true];
SELECT (1)[1];
SELECT (ARRAY[1])['x'];
SELECT 1 = ANY(1);
SELECT unnest(1);
SELECT array_length(1, 1);
SELECT array_position(ARRAY[1], 'x');
SELECT array_position(ARRAY[1], 1::bigint);
DROP TABLE arr_t;
