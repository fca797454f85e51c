-- SIMILAR TO [ESCAPE] and similar_to_escape.
select similar_to_escape('a%b_c(d|e)[.x]\\.^$'), similar_to_escape('a#%b', '#'), similar_to_escape('ab', ''), similar_to_escape('[]a]%'), similar_to_escape('[^]a]_');
select 'abc' similar to 'a%', 'abc' similar to 'b%', 'a%c' similar to 'a#%c' escape '#', 'abc' not similar to '(a|b)%', 'abc' similar to '%(b|d)%', 'xyz' similar to '[x-z]{3}';
select 'a.c' similar to 'a.c', 'abc' similar to 'a.c', 'a+' similar to 'a+', 'aaa' similar to 'a+', 'ab' similar to 'a|b', 'a' similar to 'a|b';
select null similar to 'a', 'a' similar to null, 'a' similar to 'a' escape null;
select 'a' similar to 'a' escape 'ab';
create table simt (s text);
insert into simt values ('apple'), ('banana'), ('cherry'), ('a_b'), (null);
select s from simt where s similar to '(a|b)%' order by s;
select s from simt where s similar to '%\_%' order by s;
select s from simt where s not similar to '%an%' order by s;
drop table simt;
