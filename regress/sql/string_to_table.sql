-- string_to_table.
select string_to_table('a,b,,c', ',');
select string_to_table('a,b,,c', ',', '');
select string_to_table('abc', null);
select string_to_table('abc', '');
select string_to_table(null, ',');
select string_to_table('', ',');
select x, ord from string_to_table('x-y-z', '-') with ordinality as t(x, ord);
select string_to_table('1 2 3', ' ')::int * 2 as doubled;
select count(*) from string_to_table('a b c', ' ');
select string_to_table('a', 1);
