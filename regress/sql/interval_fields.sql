-- A time field and a seconds unit in one interval conflict.
select interval '1:20:05 5 microseconds';
select interval '5 microseconds 1:20:05';
select interval '1:20:05 5 milliseconds';
select interval '1:20:05 2 days';
select interval '1 day 1:20:05.5';
select interval '1:20 30 seconds';
select interval '10 seconds 1:20';
