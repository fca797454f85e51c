-- VARIADIC arrays for the functions with a variadic "any" parameter.
select concat(variadic array[1, 2, 3]);
select concat_ws(',', variadic array[1, 2, 3]);
select concat_ws(',', variadic null::int[]);
select concat(variadic null::int[]) is null;
select concat(variadic '{}'::int[]) = '';
select concat_ws('-', variadic array['b', null, 'c']);
select format('%s and %s', variadic array['x', 'y']);
select format('%2$s, %1$s', variadic array[1, 2]);
select format('none', variadic null::text[]);
select format('%s', variadic null::text[]);
select concat(variadic array[[1, 2], [3, 4]]);
-- errors
select concat_ws(',', variadic 10);
select concat('a', variadic array['b']);
select abs(variadic array[1]);
select left('abc', variadic array[1]);
