-- An aggregate's syntax on a function that is not an aggregate, or on one
-- that does not exist.
select newcnt(*) from (values (1)) v(x);
select aggfns(distinct x, x) from (values (1)) v(x);
select abs(*) from (values (1)) v(x);
select abs(distinct x) from (values (1)) v(x);
select abs(x order by x) from (values (1)) v(x);
select abs(x) filter (where x > 0) from (values (1)) v(x);
select any_value(x) filter (where x > 2) from (values (1)) v(x);
select abs(nosuch) filter (where x > 0) from (values (1)) v(x);
