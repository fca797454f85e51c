--
-- Field selection from the record of a pageinspect function in the select
-- list, (f(...)).col and (f(...)).*, as the pageinspect documentation and
-- heap studies write it: once, per row of FROM, or a set-returning
-- function's rows.
--
set client_min_messages = warning;
create extension if not exists pageinspect;
reset client_min_messages;
create table rf (a int, b text);
insert into rf select g, repeat('x', 20) from generate_series(1, 600) g;
select (page_header(get_raw_page('rf', 0))).lower, (page_header(get_raw_page('rf', 0))).upper;
select (page_header(get_raw_page('rf', 0))).special as sp, (page_header(get_raw_page('rf', 0))).pagesize;
select blkno, (page_header(get_raw_page('rf', blkno))).lower from generate_series(0, 3) blkno order by blkno;
select lower, upper, special, pagesize, version from (select (page_header(get_raw_page('rf', 1))).*) s;
select (heap_page_items(get_raw_page('rf', 0))).lp limit 3;
select (heap_page_items(get_raw_page('rf', 0))).lp, (heap_page_items(get_raw_page('rf', 0))).t_ctid,
  (heap_page_items(get_raw_page('rf', 0))).lp_len order by 1 desc limit 3;
select count(*) from (select (heap_page_items(get_raw_page('rf', 2))).t_ctid) s;
-- Errors.
select (page_header(get_raw_page('rf', 0))).nope;
select (page_header(get_raw_page('rf', 99))).lower;
select (lower('x')).y;
select (1).y;
select (lower('x')).*;
select ('abc').x;
select ('a'::varchar(3)).x;
drop table rf;
