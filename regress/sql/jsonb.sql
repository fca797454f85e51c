-- The jsonb type: normalized input (keys deduplicated and sorted, numbers
-- as numeric), its ordering and equality (ORDER BY, DISTINCT, GROUP BY,
-- btree and unique indexes), casts, operators and functions. Some queries
-- come from PostgreSQL's own src/test/regress/sql/jsonb.sql.
-- Input and output.
SELECT '""'::jsonb;
SELECT '"abc"'::jsonb;
SELECT '"abc'::jsonb;
SELECT '"\n\"\\"'::jsonb;
SELECT '"\v"'::jsonb;
SELECT '"\u00e9\ud83d\ude00\u0041"'::jsonb;
SELECT '"\u0000"'::jsonb;
SELECT '"\ud83d"'::jsonb;
SELECT '"\ude00"'::jsonb;
SELECT '"\ud83d\ud83d"'::jsonb;
SELECT '1'::jsonb, '0'::jsonb, '0.1'::jsonb, '-0.0'::jsonb, '1.50'::jsonb, '9223372036854775808'::jsonb, '1e3'::jsonb, '1.3e-2'::jsonb;
SELECT '01'::jsonb;
SELECT '1f2'::jsonb;
SELECT '[]'::jsonb, '[1,2]'::jsonb, '[1,[2,[3,{}]]]'::jsonb, '{}'::jsonb;
SELECT '[1,2,]'::jsonb;
SELECT '{"abc"}'::jsonb;
SELECT '{"abc":1,"def":2,"ghi":[3,4],"hij":{"klm":5,"nop":[6]}}'::jsonb;
SELECT '{"b": 1, "a": 2, "aa": 3, "b": 4, "": 5}'::jsonb;
SELECT 'true'::jsonb, 'false'::jsonb, 'null'::jsonb, ' true '::jsonb;
SELECT 'true false'::jsonb;
SELECT ''::jsonb;
SELECT '{
		"one": 1,
		"two":"two",
		"three":
		true}'::jsonb;
SELECT '{
		"one": 1,
		"two":,"two",
		"three":
		true}'::jsonb;
-- A table with jsonb columns.
CREATE TABLE js_jsonb (id int, j jsonb, note text);
\d js_jsonb
INSERT INTO js_jsonb VALUES
  (1, '{"a": 1, "b": [1, 2, {"c": "x"}], "d": null}', 'object'),
  (2, '[10, "twenty", [30], {"f": 40}, null]', 'array'),
  (3, '"a scalar"', 'string'),
  (4, '{"a": 1, "a": 2}', 'duplicate keys'),
  (5, NULL, 'null'),
  (6, '[]', 'empty array'),
  (7, '{}', 'empty object'),
  (8, 'null', 'json null'),
  (9, '1', 'number'),
  (10, '1.0', 'the same number'),
  (11, 'true', 'boolean'),
  (12, '[1]', 'one element'),
  (13, '{"a": 1, "b": 2}', 'two pairs'),
  (14, '{"aa": 1}', 'longer key');
SELECT id, j FROM js_jsonb ORDER BY j, id;
SELECT id, j FROM js_jsonb ORDER BY j DESC NULLS LAST, id;
SELECT j, count(*), min(id) FROM js_jsonb GROUP BY j ORDER BY j;
SELECT DISTINCT j FROM js_jsonb ORDER BY 1;
SELECT a.id, b.id FROM js_jsonb a JOIN js_jsonb b ON a.j = b.j AND a.id < b.id ORDER BY 1, 2;
SELECT id FROM js_jsonb WHERE j > '[1]' ORDER BY id;
SELECT id FROM js_jsonb WHERE j <= '1' AND j <> 'null' ORDER BY id;
SELECT '[]'::jsonb < 'null', 'null'::jsonb < '""', '"z"'::jsonb < '0', '9'::jsonb < 'false', 'true'::jsonb < '[0]',
  '[1, 2]'::jsonb > '[3]', '{"b": 1}'::jsonb > '{"a": 2}', '{"aa": 1}'::jsonb < '{"b": 1}', '[[]]'::jsonb > '[{}]';
-- Indexes: btree order and uniqueness.
CREATE INDEX js_jsonb_j ON js_jsonb (j);
SELECT id FROM js_jsonb WHERE j = '{"a": 2}' ORDER BY id;
SELECT id FROM js_jsonb WHERE j = '1.00';
SELECT id, j FROM js_jsonb WHERE j >= '{}' ORDER BY j, id;
CREATE TABLE js_jsonb_u (k jsonb PRIMARY KEY, v int);
INSERT INTO js_jsonb_u VALUES ('{"x": 1, "y": [1, 2]}', 1), ('[1, 2]', 2), ('2', 3);
INSERT INTO js_jsonb_u VALUES ('{"y": [1, 2], "x": 1}', 4);
INSERT INTO js_jsonb_u VALUES ('2.0', 5);
SELECT * FROM js_jsonb_u ORDER BY k;
-- Operators.
SELECT id, j -> 'a' AS a, j ->> 'a' AS a_text, j -> 1 AS e1, j ->> 1 AS e1_text FROM js_jsonb WHERE id < 5 ORDER BY id;
SELECT id, j -> -1 AS last, j #> '{b,2}' AS b2, j #>> '{b,2,c}' AS b2c, j #> '{}' AS whole, j #>> '{}' AS whole_text FROM js_jsonb WHERE id < 5 ORDER BY id;
SELECT '{"a": {"b": [1, {"c": 3}]}}'::jsonb #> '{a,b,-1,c}', '{"a": [1]}'::jsonb #> '{a,x}', '{"a": 1}'::jsonb #> ARRAY['a', NULL];
SELECT id FROM js_jsonb WHERE j @> '{"a": 1}' ORDER BY id;
SELECT id FROM js_jsonb WHERE j @> '[1]' ORDER BY id;
SELECT id FROM js_jsonb WHERE '{"a": 1, "b": [1, 2, {"c": "x"}], "d": null, "e": 5}' @> j ORDER BY id;
SELECT '{"a":1,"b":[1,2,{"c":3}]}'::jsonb @> '{"b":[{"c":3}]}', '[1,2,[3]]'::jsonb @> '[[3]]', '[1,2]'::jsonb @> '1',
  '1'::jsonb @> '[1]', '[1,[2]]'::jsonb @> '[2]', '{"a":{"b":1}}'::jsonb @> '{"a":{}}', '[1]'::jsonb <@ '[1,2]';
SELECT id FROM js_jsonb WHERE j ? 'a' ORDER BY id;
EXPLAIN (COSTS OFF) SELECT id FROM js_jsonb WHERE j @> '{"a": 1}' AND j ? 'a' AND j ->> 'a' = '1';
SELECT '["a", "b"]'::jsonb ? 'a', '"a"'::jsonb ? 'a', '{"a": 1, "b": 2}'::jsonb ?| '{b,c}', '{"a": 1, "b": 2}'::jsonb ?& '{b,c}',
  '{"a": 1, "b": 2}'::jsonb ?& '{a,b}', '{"a": 1}'::jsonb ?| '{}';
SELECT '{"a": 1}'::jsonb || '{"b": 2}', '{"a": 1}'::jsonb || '{"a": 3, "c": 4}', '[1]'::jsonb || '[2, 3]', '[1]'::jsonb || '2',
  '1'::jsonb || '2', '{"a": 1}'::jsonb || '[2]', '[2]'::jsonb || '{"a": 1}', '{}'::jsonb || '{}';
SELECT '{"a": 1}'::jsonb || 'x'::text;
SELECT '{"a": 1, "b": 2}'::jsonb - 'a', '["a", "b", "a"]'::jsonb - 'a', '[1, 2, 3]'::jsonb - 1, '[1, 2, 3]'::jsonb - -1,
  '[1, 2, 3]'::jsonb - 5, '{"a": 1, "b": 2, "c": 3}'::jsonb - '{a,c}'::text[];
SELECT '1'::jsonb - 'a';
SELECT '{"a": 1}'::jsonb - 1;
SELECT '{"a": [1, {"b": 2, "c": 3}]}'::jsonb #- '{a,1,b}', '[1, [2, 3]]'::jsonb #- '{1,0}', '[1, 2]'::jsonb #- '{-1}', '{"a": 1}'::jsonb #- '{x,y}';
SELECT '1'::jsonb #- '{a}';
-- Functions.
SELECT id, jsonb_typeof(j), jsonb_typeof(j -> 'a') FROM js_jsonb WHERE id < 12 ORDER BY id;
SELECT jsonb_array_length('[1, [2], {"a": 3}]'), jsonb_array_length('[]');
SELECT jsonb_array_length('{}');
SELECT jsonb_array_length('1');
SELECT jsonb_extract_path(j, 'b', '2'), jsonb_extract_path_text(j, 'b', '2', 'c') FROM js_jsonb WHERE id = 1;
SELECT * FROM jsonb_each((SELECT j FROM js_jsonb WHERE id = 1));
SELECT * FROM jsonb_each_text((SELECT j FROM js_jsonb WHERE id = 1));
SELECT id, e.key, e.value FROM js_jsonb, jsonb_each(j) AS e WHERE jsonb_typeof(j) = 'object' ORDER BY id, e.key;
SELECT * FROM jsonb_each('[1]');
SELECT * FROM jsonb_array_elements((SELECT j FROM js_jsonb WHERE id = 2)) WITH ORDINALITY;
SELECT * FROM jsonb_array_elements_text('[1, "two", null, {"a": [1]}]') AS e;
SELECT jsonb_array_elements('[1, [2, 3], "x"]'), jsonb_array_elements_text('["a", "b", "c"]');
SELECT * FROM jsonb_array_elements('{"a": 1}');
SELECT * FROM jsonb_array_elements('1');
SELECT jsonb_object_keys(j) FROM js_jsonb WHERE id IN (1, 13, 14) ORDER BY 1;
SELECT * FROM jsonb_object_keys('{"bb": 1, "a": 2, "c": 3}');
SELECT * FROM jsonb_object_keys('[1]');
SELECT jsonb_strip_nulls('{"a": null, "b": [null, {"c": null, "d": 1}]}');
SELECT jsonb_pretty('{"a": [1, {"b": 2}, []], "c": {}, "d": "x"}');
SELECT jsonb_pretty('1'), jsonb_pretty('[]'), jsonb_pretty('{}');
SELECT jsonb_set('{"a": [1, 2]}', '{a,0}', '9'), jsonb_set('{"a": [1, 2]}', '{a,5}', '9'), jsonb_set('{"a": [1, 2]}', '{a,-5}', '9'),
  jsonb_set('{"a": 1}', '{b}', '2'), jsonb_set('{"a": 1}', '{b}', '2', false), jsonb_set('{"a": 1}', '{b,c}', '2'),
  jsonb_set('{"a": {"b": 1}}', '{a,b}', '[true]'), jsonb_set('[]', '{0}', '1'), jsonb_set('{"a": 1}', '{}', '2');
SELECT jsonb_set('1', '{a}', '2');
SELECT jsonb_set('{"a": [1]}', '{a,x}', '2');
SELECT jsonb_insert('{"a": [1, 2]}', '{a,0}', '9'), jsonb_insert('{"a": [1, 2]}', '{a,0}', '9', true),
  jsonb_insert('{"a": [1, 2]}', '{a,-1}', '9'), jsonb_insert('{"a": [1, 2]}', '{a,10}', '9'), jsonb_insert('{"a": 1}', '{b}', '2');
SELECT jsonb_insert('{"a": 1}', '{a}', '2');
SELECT jsonb_set('{"a": 1}', '{b}', '2', create_if_missing => false), jsonb_insert('[1]', '{0}', '2', insert_after => true),
  jsonb_set(jsonb_in => '[1]', path => '{0}', replacement => '3');
SELECT jsonb_set('{"a": 1, "d": {"1": [2, 3]}}', '{d,NULL,0}', '[1]');
SELECT jsonb_set('{"a": {"b": [1, 2, 3]}}', '{a, b, NULL}', '"new_value"');
SELECT jsonb_set('{"a": 1}', '{x,NULL}', '2'), '{"a": [1, 2]}'::jsonb #- '{x,NULL}';
SELECT '{"a": [1, 2]}'::jsonb #- '{a,NULL}';
SELECT jsonb_set_lax('{"a": 1}', '{a}', NULL), jsonb_set_lax('{"a": 1}', '{a}', NULL, true, 'delete_key'),
  jsonb_set_lax('{"a": 1}', '{a}', NULL, true, 'return_target'), jsonb_set_lax('{"a": 1}', '{b}', '2'),
  jsonb_set_lax(NULL, '{a}', NULL), jsonb_set_lax('{"a": 1}', '{a}', NULL, null_value_treatment => 'delete_key');
SELECT jsonb_set_lax('{"a": 1}', '{a}', NULL, true, 'raise_exception');
SELECT jsonb_set_lax('{"a": 1}', '{a}', NULL, true, NULL);
SELECT jsonb_set_lax('{"a": 1}', '{a}', NULL, true, 'x');
-- Subscripts read as #> does.
SELECT j['a'], j['b'][2]['c'], j['b'][-1], j[1], j['x']['y'], j[NULL] FROM js_jsonb WHERE id IN (1, 2, 3) ORDER BY id;
SELECT ('{"a": {"1": "x"}}'::jsonb)['a'][1], ('[1, [2, 3]]'::jsonb)[1][0], ('[1]'::jsonb)['0'], ('{"a": 1}'::jsonb)['a'::varchar];
SELECT ('{"a": 1}'::jsonb)[1:2];
SELECT ('{"a": 1}'::jsonb)[1.5];
UPDATE js_jsonb SET j = jsonb_set(j, '{b,2,c}', '"y"') WHERE id = 1;
UPDATE js_jsonb SET j = j || '{"e": [5]}' WHERE jsonb_typeof(j) = 'object';
SELECT id, j FROM js_jsonb WHERE jsonb_typeof(j) = 'object' ORDER BY id;
-- Casts.
SELECT '1.5'::jsonb::numeric, '1.5'::jsonb::int, '2'::jsonb::int2, '-3'::jsonb::int8, '1e3'::jsonb::float4, '0.1'::jsonb::float8, 'true'::jsonb::bool;
SELECT '12345678901'::jsonb::int;
SELECT '"1"'::jsonb::int;
SELECT 'null'::jsonb::numeric;
SELECT '[1]'::jsonb::bool;
SELECT '{}'::jsonb::float8;
SELECT '1'::jsonb::bool;
SELECT j::text, j::json FROM js_jsonb WHERE id < 4 ORDER BY id;
SELECT '{"b": 1, "a": [1, 2.50]}'::json::jsonb, '{"b":1}'::text::jsonb, 'x'::text::jsonb;
-- Constructors.
SELECT to_jsonb(1), to_jsonb(1.50), to_jsonb(-0.5::float8), to_jsonb('NaN'::float8), to_jsonb(true), to_jsonb('a"b'::text),
  to_jsonb('2014-05-28 12:22:35.614298'::timestamp), to_jsonb(ARRAY[[1, 2], [3, NULL]]), to_jsonb('{"b": 1, "a": 2}'::json);
SELECT to_jsonb(t) FROM js_jsonb t WHERE id < 4 ORDER BY id;
SELECT to_jsonb(ROW(1, 'a', ARRAY[1.5]));
SELECT jsonb_build_object('a', 1, 'b', 1.2, 'c', true, 'd', NULL, 'e', '{"x": 3, "y": [1,2,3]}'::json, 'a', 2);
SELECT jsonb_build_object(1, 2, true, 'x'), jsonb_build_object(), jsonb_build_array(1, 'a', NULL, '[1]'::jsonb), jsonb_build_array();
SELECT jsonb_build_object('a');
SELECT jsonb_build_object(NULL, 1);
SELECT jsonb_object('{a,1,b,2,a,3}'), jsonb_object('{{a,1},{b,NULL}}'), jsonb_object('{x,y}', '{1,2}');
SELECT jsonb_object('{a,b,c}');
-- Aggregates.
SELECT jsonb_agg(id ORDER BY id), jsonb_agg(j ORDER BY id) FILTER (WHERE id < 4) FROM js_jsonb;
SELECT jsonb_agg(q ORDER BY id) FROM (SELECT id, note FROM js_jsonb WHERE id < 3) q;
SELECT jsonb_agg(x) FROM js_jsonb WHERE false;
SELECT jsonb_object_agg(note, id) FROM js_jsonb WHERE id < 5;
SELECT jsonb_object_agg(k, v ORDER BY v) FROM (VALUES ('a', 1), ('b', NULL), ('a', 3)) t(k, v);
SELECT jsonb_object_agg(k, v) FROM (VALUES ('a', 1), (NULL, 2)) t(k, v);
-- jsonb[] arrays.
SELECT ARRAY['{"a": 1}'::jsonb, '[2]'], '{"{\"a\": 1}","[2]"}'::jsonb[];
SELECT unnest(ARRAY['{"a": 1}'::jsonb, '[2]']) -> 'a';
DROP TABLE js_jsonb;
DROP TABLE js_jsonb_u;
