-- DISCARD: ALL resets the settings to the session's start-up values and
-- forgets currval and lastval, SEQUENCES only those; PLANS and TEMP have
-- nothing to do.
create sequence dseq;
select nextval('dseq');
select currval('dseq'), lastval();
set work_mem = '12MB';
set application_name = 'discard_test';
discard sequences;
select currval('dseq');
select lastval();
show work_mem;
discard plans;
discard temp;
discard temporary;
begin;
discard all;
rollback;
select nextval('dseq');
discard all;
show work_mem;
show application_name;
select currval('dseq');
drop sequence dseq;
set application_name = 'x';
reset application_name;
show application_name;
set application_name = 'y';
reset all;
show application_name;
