-- bytea_output = escape and hex.
set bytea_output to escape;
select E'\\xDeAdBeEf'::bytea, E'\\x De Ad Be Ef '::bytea, E'\\xDe00BeEf'::bytea;
select E'DeAdBeEf'::bytea, E'De\\000dBeEf'::bytea, E'De\\123dBeEf'::bytea, E'a\\\\b'::bytea, '\x7f80ff0a'::bytea;
select 'h\\303\\251llo'::bytea;
show bytea_output;
set bytea_output to 'nosuch';
set bytea_output to hex;
select E'\\xDeAdBeEf'::bytea;
reset bytea_output;
