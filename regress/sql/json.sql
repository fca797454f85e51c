-- The json type: input checked by PostgreSQL's JSON parser and kept as
-- written, its errors (DETAIL and CONTEXT), the processing functions and
-- operators, the constructors and aggregates. Some queries come from
-- PostgreSQL's own src/test/regress/sql/json.sql.
\set VERBOSITY default
-- Strings.
SELECT '""'::json;
SELECT $$''$$::json;
SELECT '"abc"'::json;
SELECT '"abc'::json;
SELECT '"abc
def"'::json;
SELECT '"\n\"\\"'::json;
SELECT '"\v"'::json;
SELECT '"\u00e9\u0000"'::json;
SELECT '"\u12"'::json;
-- Numbers.
SELECT '1'::json;
SELECT '0'::json;
SELECT '01'::json;
SELECT '0.1'::json;
SELECT '9223372036854775808'::json;
SELECT '1e100'::json;
SELECT '1.3e100'::json;
SELECT '1f2'::json;
SELECT '0.x1'::json;
SELECT '1.3ex100'::json;
SELECT '-'::json;
-- Arrays.
SELECT '[]'::json;
SELECT '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'::json;
SELECT '[1,2]'::json;
SELECT '[1,2,]'::json;
SELECT '[1,2'::json;
SELECT '[1,[2]'::json;
SELECT '[1 2]'::json;
-- Objects.
SELECT '{}'::json;
SELECT '{"abc"}'::json;
SELECT '{"abc":1}'::json;
SELECT '{1:"abc"}'::json;
SELECT '{"abc",1}'::json;
SELECT '{"abc"=1}'::json;
SELECT '{"abc"::1}'::json;
SELECT '{"abc":1,"def":2,"ghi":[3,4],"hij":{"klm":5,"nop":[6]}}'::json;
SELECT '{"abc":1:2}'::json;
SELECT '{"abc":1,3}'::json;
SELECT '{"a": 1, "b": 2, "a": 3}'::json;
-- Miscellaneous stuff.
SELECT 'true'::json;
SELECT 'false'::json;
SELECT 'null'::json;
SELECT ' true '::json;
SELECT 'true false'::json;
SELECT 'true, false'::json;
SELECT 'truf'::json;
SELECT 'trues'::json;
SELECT ''::json;
SELECT '    '::json;
-- Multi-line JSON input to check ERROR reporting
SELECT '{
		"one": 1,
		"two":"two",
		"three":
		true}'::json;
SELECT '{
		"one": 1,
		"two":,"two",  -- ERROR extraneous comma before field "two"
		"three":
		true}'::json;
SELECT '{
		"one": 1,
		"two":"two",
		"averyveryveryveryveryveryveryveryveryverylongfieldname":}'::json;
-- A table with json columns.
CREATE TABLE js_json (id int, j json, note text);
\d js_json
INSERT INTO js_json VALUES
  (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "d": null}', 'object'),
  (2, '[10, "twenty", [30], {"f": 40}, null]', 'array'),
  (3, '"a scalar"', 'string'),
  (4, '{"a": 1, "a": 2}', 'duplicate keys'),
  (5, NULL, 'null');
INSERT INTO js_json VALUES (6, '{"broken"', 'bad');
SELECT id, j FROM js_json ORDER BY id;
SELECT id, j -> 'a' AS a, j ->> 'a' AS a_text, j -> 1 AS e1, j ->> 1 AS e1_text FROM js_json ORDER BY id;
SELECT id, j -> -1 AS last, j #> '{b,2}' AS b2, j #>> '{b,2,c}' AS b2c, j #> '{}' AS whole FROM js_json ORDER BY id;
SELECT id, json_typeof(j), json_typeof(j -> 'a'), json_typeof(j -> 'd') FROM js_json ORDER BY id;
SELECT id, json_array_length(j) FROM js_json WHERE id = 2;
SELECT json_array_length(j) FROM js_json WHERE id = 1;
SELECT json_array_length(j) FROM js_json WHERE id = 3;
SELECT json_extract_path(j, 'b', '2'), json_extract_path_text(j, 'b', '2', 'c') FROM js_json WHERE id = 1;
SELECT * FROM json_each((SELECT j FROM js_json WHERE id = 1));
SELECT * FROM json_each_text((SELECT j FROM js_json WHERE id = 4));
SELECT key, value FROM js_json, json_each(j) WHERE id IN (1, 4) ORDER BY id, key;
SELECT * FROM json_each('[1]');
SELECT * FROM json_each('1');
SELECT * FROM json_array_elements((SELECT j FROM js_json WHERE id = 2));
SELECT * FROM json_array_elements_text('[1, "two", null, {"a": [1]}]') WITH ORDINALITY;
SELECT json_array_elements('[1, [2, 3], "x"]');
SELECT id, json_array_elements_text(j) FROM js_json WHERE id = 2;
SELECT * FROM json_array_elements('{"a": 1}');
SELECT * FROM json_array_elements('1');
SELECT json_object_keys(j) FROM js_json WHERE id IN (1, 4) ORDER BY 1;
SELECT * FROM json_object_keys('[1]');
SELECT * FROM json_object_keys('1');
SELECT json_strip_nulls('{"a": null, "b": [null, {"c": null, "d": 1}], "e": "\u00e9"}');
-- json has no equality or ordering.
SELECT j = j FROM js_json;
SELECT '{"a":1}'::json -> 'a' = '1';
SELECT j FROM js_json ORDER BY j;
SELECT j FROM js_json GROUP BY j;
SELECT DISTINCT j FROM js_json;
CREATE INDEX js_json_j ON js_json (j);
SELECT j FROM js_json UNION SELECT j FROM js_json;
SELECT count(*) FROM (SELECT j FROM js_json UNION ALL SELECT j FROM js_json) u;
SELECT count(DISTINCT j) FROM js_json;
-- Casts.
SELECT j::text, j::jsonb FROM js_json ORDER BY id;
SELECT '{"b": 1, "a": 2}'::text::json, 'x'::text::json;
SELECT '[1, 2]'::json::int;
-- to_json and array_to_json.
SELECT to_json(1), to_json(1.50), to_json(-0.5::float8), to_json('NaN'::float8), to_json('Infinity'::numeric),
  to_json(true), to_json('a"b\c'::text), to_json(E'tab\there'::text), to_json('x'::varchar);
SELECT to_json('2014-05-28 12:22:35.614298'::timestamp), to_json('2014-05-28'::date), to_json('infinity'::timestamp);
SET TimeZone = 'America/New_York';
SELECT to_json('2014-05-28 12:22:35.614298-04'::timestamptz), to_json('2014-05-28 12:22:35+05:30'::timestamptz);
SELECT json_agg(t), json_object_agg(t, t), jsonb_agg(t) FROM (VALUES ('2014-05-28 12:22:35-04'::timestamptz)) v(t);
RESET TimeZone;
SELECT to_json(ARRAY[1, 2, NULL]), to_json('{{1,2},{3,4}}'::int[]), to_json(ARRAY['a', 'b"']), to_json('{}'::int[]);
SELECT array_to_json(ARRAY[[1, 2], [3, 4]]), array_to_json(ARRAY[[1, 2], [3, 4]], true);
SELECT to_json('abc');
SELECT to_json(NULL::int), to_json('{"x": [1, 2]}'::json), to_json('{"x": [1, 2]}'::jsonb);
-- row_to_json and to_json over rows.
SELECT row_to_json(t) FROM js_json t ORDER BY id;
SELECT row_to_json(q, true) FROM (SELECT id, note, ARRAY[id, id + 1] AS arr FROM js_json WHERE id < 3) q ORDER BY id;
SELECT to_json(q) FROM (SELECT 1 AS "a b", 'x'::text AS "c""d", NULL::int AS n) q;
SELECT row_to_json(ROW(1, 'foo', true)), row_to_json((1, 2.5));
-- Constructors.
SELECT json_build_object('a', 1, 'b', 1.2, 'c', true, 'd', NULL, 'e', '{"x": 3, "y": [1,2,3]}'::json, 'f', ARRAY[1, 2]);
SELECT json_build_object(1, 2, true, 'x', 1.5, NULL::text);
SELECT json_build_object();
SELECT json_build_object('a');
SELECT json_build_object(NULL, 1);
SELECT json_build_object(ARRAY[1], 1);
SELECT json_build_object(VARIADIC ARRAY['a', 'b', 'c', 'd']);
SELECT json_build_array('a', 1, 'b', 1.2, 'c', true, 'd', NULL, 'e', '{"x": 3}'::json), json_build_array();
SELECT json_object('{a,1,b,2,3,NULL,"d e f","a b c"}');
SELECT json_object('{{a,1},{b,2},{3,NULL}}');
SELECT json_object('{a,b,c}', '{1,2,NULL}');
SELECT json_object('{}'::text[]);
SELECT json_object('{a,b,c}');
SELECT json_object('{{a,b,c},{1,2,3}}');
SELECT json_object('{a,b}', '{1}');
SELECT json_object('{a,NULL}', '{1,2}');
-- Aggregates.
SELECT json_agg(id ORDER BY id), json_agg(j ORDER BY id), json_agg(note ORDER BY id) FILTER (WHERE id > 2) FROM js_json;
SELECT json_agg(q ORDER BY id) FROM (SELECT id, note FROM js_json WHERE id < 3) q;
SELECT json_agg(ARRAY[id, id * 10] ORDER BY id) FROM js_json WHERE id < 4;
SELECT json_agg(x) FROM js_json WHERE false;
SELECT json_object_agg(note, id ORDER BY id) FROM js_json;
SELECT json_object_agg(id, j ORDER BY id) FROM js_json WHERE id < 3;
SELECT json_object_agg(CASE WHEN id = 5 THEN NULL ELSE note END, id) FROM js_json;
SELECT id % 2 AS odd, json_agg(id ORDER BY id) FROM js_json GROUP BY 1 ORDER BY 1;
SELECT id, json_agg(note) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), json_object_agg(note, id) OVER (ORDER BY id) FROM js_json ORDER BY id;
DROP TABLE js_json;

-- A table's row keeps its column names under an alias's column list.
create table js_rj (q1 int, q2 int); insert into js_rj values (1, 2);
select row_to_json(i) from js_rj i(x, y);
select row_to_json(i) from js_rj i;
select row_to_json(s) from (select 1 as a, 2 as b) s(x);
select to_jsonb(i) from js_rj i(x);
select json_agg(i) from js_rj i(x, y);
drop table js_rj;
