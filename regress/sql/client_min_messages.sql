--
-- client_min_messages: notices and warnings below it do not reach the
-- client; errors always do.
--
drop table if exists cmm_none;
commit;
set client_min_messages = warning;
drop table if exists cmm_none;
commit;
set client_min_messages = error;
drop table if exists cmm_none;
commit;
select 1 / 0;
set client_min_messages = notice;
drop table if exists cmm_none;
reset client_min_messages;
show client_min_messages;
commit;
set client_min_messages = nonsense;
