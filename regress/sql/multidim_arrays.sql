-- Multidimensional arrays: literals, ARRAY[[...]] constructors, subscripts
-- and slices, array_dims/ndims/length/lower/upper, cardinality, and the
-- errors for non-rectangular input (SQLSTATE echoed after each error).
select '{{1,2},{3,4}}'::int[] a, '[0:1][2:3]={{1,2},{3,4}}'::int[] b, '{{{1},{2}},{{3},{4}}}'::int[] c;
select array_dims('{{1,2},{3,4}}'::int[]), array_ndims('{{1,2},{3,4}}'::int[]), array_length('{{1,2,3},{4,5,6}}'::int[], 2), array_lower('[0:1][2:3]={{1,2},{3,4}}'::int[], 2), array_upper('[0:1][2:3]={{1,2},{3,4}}'::int[], 2), cardinality('{{1,2,3},{4,5,6}}'::int[]);
select ('{{1,2},{3,4}}'::int[])[2][1], ('{{1,2},{3,4}}'::int[])[1], ('{{1,2},{3,4}}'::int[])[3][1];
select ARRAY[[1,2],[3,4]], ARRAY[ARRAY[1,2],ARRAY[3,4]], ARRAY[[['a','b']],[['c','d']]];
select '{{1,2},{3}}'::int[];
\echo :SQLSTATE
select ARRAY[[1,2],[3]];
\echo :SQLSTATE
select '{{1,2},3}'::int[];
\echo :SQLSTATE
select ARRAY[[1,2],3];
select ARRAY[1,[2,3]];
select ARRAY[[1,2],[3,4.5]], ARRAY[['a'],['b']]::text[], ARRAY[[1,2],[3,4]]::text[], ARRAY[[1,2],[3,4]]::numeric[];
select ARRAY[ARRAY[1,2], null], ARRAY[ARRAY[]::int[], ARRAY[]::int[]], ARRAY[ARRAY[1,2], ARRAY[]::int[]];
\echo :SQLSTATE
select ARRAY['[0:1]={1,2}'::int[], '[0:1]={3,4}'::int[]];
select ARRAY['[0:1]={1,2}'::int[], '{3,4}'::int[]];
\echo :SQLSTATE
select '{{1,2},{3,4}}'::int[] = ARRAY[[1,2],[3,4]], '{{1,2},{3,4}}'::int[] < ARRAY[[1,2],[3,5]];
create table mda (id int, a int[], t text[]);
insert into mda values (1, '{{1,2,3},{4,5,6}}', ARRAY[['a','b'],['c','d']]), (2, ARRAY[[[1],[2]],[[3],[4]]], '{x}'), (3, '{}', null), (4, '[2:3][0:0]={{7},{8}}', '{{"a b",NULL},{"",c}}');
select id, a, t, array_dims(a), array_ndims(a), array_length(a, 1), array_length(a, 2), array_length(a, 3), array_lower(a, 2), array_upper(a, 2), cardinality(a) from mda order by id;
select id, a[1][2], a[2][3], a[1][1][1], a[2][0], t[2][1], a[1], t[1][3] from mda order by id;
select id, a from mda where a[2][1] = 4 or a[3][0] = 8;
update mda set a = ARRAY[[a[1][1]*10, 0], [0, 0]] where id = 1;
select a from mda where id = 1;
select unnest(a) from mda where id = 2;
select array_dims(ARRAY[ARRAY[ARRAY[1]]]), array_dims('[-2:-1]={1,2}'::int[]), array_dims('{}'::int[]);
select '{{1,2},{3,4}'::int[];
\echo :SQLSTATE
select '{{1,2}},{3,4}}'::int[];
\echo :SQLSTATE
select '{1,{2}}'::int[];
\echo :SQLSTATE
select '{{{{{{{1}}}}}}}'::int[];
\echo :SQLSTATE
select array_length('{{1,2},{3,4}}'::int[], 0), array_upper('{{1,2},{3,4}}'::int[], 3), array_ndims('{}'::int[]);
select array_append(ARRAY[[1,2],[3,4]], 5);
\echo :SQLSTATE
select ('{{1,2},{3,4}}'::int[])[1:2][1:1], ('{{1,2},{3,4}}'::int[])[2:2], ('{{1,2},{3,4}}'::int[])[:][2:];
drop table mda;
select ('{{1,2,3},{4,5,6},{7,8,9}}'::int[])[2:3][2:3] a, ('{{1,2,3},{4,5,6},{7,8,9}}'::int[])[2][2:3] b, ('{{1,2,3},{4,5,6},{7,8,9}}'::int[])[:2] c, ('{{1,2,3},{4,5,6},{7,8,9}}'::int[])[0:9][3:9] d, ('{{1,2,3},{4,5,6},{7,8,9}}'::int[])[1:1][1:1][1:1] e, ('{{1,2,3},{4,5,6},{7,8,9}}'::int[])[3:2][1:1] f;
select ('[0:1][5:6]={{1,2},{3,4}}'::int[])[1:1][6:6], ('{1,2,3}'::int[])[2:], ('{1,2,3}'::int[])[null:2];
select ARRAY[ARRAY[ARRAY[1,2]], ARRAY[ARRAY[3,4]]], ARRAY[NULL::int[], NULL::int[]], array_ndims(ARRAY[[[[[[1]]]]]]);
select ARRAY[ARRAY[[[[[1]]]]]];
\echo :SQLSTATE
select x, ARRAY[[x, x+1], [x+2, x+3]] from generate_series(1, 2) x;
select ARRAY[ARRAY[x], ARRAY[x, x]] from generate_series(1, 2) x;
\echo :SQLSTATE
