-- pg_settings (\dconfig), current_setting and set_config.
\dconfig work*
set work_mem = '16MB';
\dconfig work_mem
select current_setting('work_mem'), current_setting('TimeZone'), current_setting('nosuch', true);
select current_setting('nosuch');
select set_config('work_mem', '32MB', false), current_setting('work_mem');
begin;
select set_config('work_mem', '1MB', true), current_setting('work_mem');
commit;
select current_setting('work_mem');
select set_config('nosuch', 'x', false);
select set_config(null, 'x', false);
select name, setting, unit, source, boot_val, reset_val from pg_settings where name in ('work_mem', 'autovacuum_naptime', 'statement_timeout') order by 1;
reset work_mem;
select name, setting, source from pg_settings where name = 'work_mem';
