--
-- POSIX regular expressions: operators and the regexp_* functions
--
\set VERBOSITY sqlstate
SELECT 'abc' ~ 'b', 'abc' ~* 'B', 'abc' !~ 'b', 'abc' !~* 'B', 'abc' ~ '^b', 'abc' ~ 'c$';
SELECT E'a\nb' ~ 'a.b', 'aXb' ~ 'a[^b]b', 'foo123' ~ '\d+$', 'foo bar' ~ '\s', 'the cat' ~ '\ycat\y';
SELECT regexp_replace('abc', 'b', 'x'), regexp_replace('abcb', 'b', 'x', 'g'), regexp_replace('aBc', 'b', 'x', 'i'), regexp_replace('abcb', 'b', 'x');
SELECT regexp_replace('foobar', '(o+)(b)', '[\2\1\&]'), regexp_replace('a.b.c', '\.', '\\', 'g'), regexp_replace('abc', 'x', 'y'), regexp_replace('ABab', 'a', '-', 'gi');
SELECT regexp_match('foobarbequebaz', 'bar.*que'), regexp_match('foobarbequebaz', '(bar)(beque)'), regexp_match('abc', 'x'), regexp_match('ab', '(a)|(b)'), regexp_match('ABC', 'b', 'i');
SELECT regexp_matches('foobarbequebazilbarfbonk', '(b[^b]+)(b[^b]+)', 'g');
SELECT regexp_matches('abc', 'b'), regexp_matches('abc', 'x');
SELECT * FROM regexp_split_to_table('hello world  foo', '\s+') WITH ORDINALITY AS s(w, n);
SELECT regexp_split_to_array('hello', ''), regexp_split_to_array('a,b,,c', ','), regexp_split_to_array('a1b22c', '\d+'), regexp_split_to_array('aXbxc', 'x', 'i');
SELECT regexp_split_to_table('abc', 'x'), regexp_split_to_table('', ',');
CREATE TABLE re_t (s text);
INSERT INTO re_t VALUES ('apple pie'), ('Banana'), ('cherry'), (NULL);
SELECT s FROM re_t WHERE s ~ '^[ab]' ORDER BY s;
SELECT s FROM re_t WHERE s ~* '^[ab]' ORDER BY s;
SELECT s, regexp_replace(s, '[aeiou]', '_', 'g') FROM re_t ORDER BY s;
SELECT regexp_replace('abc', '(', 'x');
SELECT 'abc' ~ '[a';
SELECT 'abc' ~ '*a';
SELECT regexp_replace('abc', 'b', 'x', 'z');
SELECT regexp_match('abc', 'b', 'g');
SELECT regexp_split_to_array('abc', 'b', 'g');
SELECT 1 ~ 'a';
DROP TABLE re_t;
