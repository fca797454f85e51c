-- A regular expression without non-greedy quantifiers takes the longest
-- match at the leftmost position, as PostgreSQL's AREs do.
select regexp_match('xyz', '.|...');
select regexp_match('abcd', 'a|ab|abc');
select regexp_replace('abcabc', 'a|abc', 'X', 'g');
select substring('foobar' from 'o|oob');
select regexp_matches('aaa', 'a|aa', 'g');
select regexp_match('xyz', '.|...?');
