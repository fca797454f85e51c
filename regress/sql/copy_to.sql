-- COPY ... TO STDOUT: text, CSV and binary; a table, some columns, a query.
create table ct (id int, name text, amount numeric(8,2), at timestamp, flag boolean);
insert into ct values (1, 'one', 1.50, '2024-01-01 10:00:00', true),
  (2, 'tab	and\back', null, null, false),
  (3, 'line
break', -3.25, '2024-01-03 00:00:00', null),
  (4, '', 0, null, true),
  (5, 'quote" and, comma', 5, null, null);
copy ct to stdout;
copy ct (name, id) to stdout;
copy ct to stdout with (format csv);
copy ct to stdout with (format csv, header);
copy ct (id, name) to stdout with (format csv, force_quote (name));
copy ct (id, name) to stdout with (format csv, force_quote *, quote '''', delimiter ';');
copy ct to stdout with (delimiter '|', null 'NULL');
copy ct to stdout with (header);
copy (select id, name from ct where id > 3 order by id desc) to stdout;
copy (select count(*), sum(amount) from ct) to stdout with (format csv, header true);
\copy ct to stdout
\copy (select id from ct where id < 3) to stdout with csv
copy ct (nosuch) to stdout;
copy nosuch to stdout;
copy ct to stdout with (force_quote (id));
copy ct to stdout with (format csv, force_quote (nosuch));
copy ct to stdout with (freeze);
drop table ct;
