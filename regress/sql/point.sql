--
-- point: input, output, subscripts, casts, and the ctid idiom
--
\set VERBOSITY sqlstate
SELECT '(1,2)'::point, '1,2'::point, ' ( 1.5 , -2e3 ) '::point, '(0.1,1e300)'::point;
SELECT '(nan,inf)'::point, '(-0,1)'::point, '(-Infinity, 3)'::point;
SELECT ('(1,2)'::point)[0], ('(1,2)'::point)[1], ('(1,2)'::point)[2], ('(1,2)'::point)[-1], ('(1,2)'::point)[NULL];
SELECT pg_typeof(('(1,2)'::point)[0]), pg_typeof('1,2'::point);
SELECT ('(1,2)'::point)[0][0];
SELECT '(1,2)'::point::text, ('(3,4)'::text)::point;
SELECT '(1,2'::point;
SELECT '1,2,3'::point;
SELECT 'abc'::point;
SELECT '(1,2)x'::point;
SELECT ('(1,2)'::point)[1:2];
SELECT ('(1,2)'::point)['a'];
SELECT (1)[0];
CREATE TABLE heap_pt (id int, pad text);
INSERT INTO heap_pt SELECT g, repeat('x', 100) FROM generate_series(1, 300) g;
SELECT (ctid::text::point)[0]::int AS blk, count(*) FROM heap_pt GROUP BY 1 ORDER BY 1;
SELECT (ctid::text::point)[1]::int AS lp, id FROM heap_pt WHERE id IN (1, 2, 300) ORDER BY id;
SELECT min((ctid::text::point)[0]), max((ctid::text::point)[0]) FROM heap_pt;
CREATE TABLE pts (p point);
INSERT INTO pts VALUES ('(1,2)'), ('3,4'), (NULL);
SELECT p, p[0] + p[1] AS s FROM pts ORDER BY s;
DROP TABLE heap_pt, pts;
