-- substring(string FROM pattern): the POSIX regular expression form.
select substring('(0,11)' from ',(\d+)\)'), substring('(3,1)' from '\((\d+),');
select substring('Thomas' from '...$'), substring('Thomas' from 'z'), substring('Thomas' from 'T(x)?');
select substring('foobar' from 'o(b)'), substring('foobar' from '(o)(b)');
select substring('hello' from 2), substring('hello' from 2 for 2), substring('hello', 2);
select substring('abc' from '(');
select substring(null from 'a'), substring('abc' from null::text);
