-- UPDATE ... SET (a, b) = (x, y): each column takes its item of the row.
create table ma (a int default 10, b int, c text);
insert into ma values (1, 2, 'x'), (3, 4, 'y');
update ma set (b, c) = (b + 100, c || '!') where a = 1;
update ma set (a, b) = row(default, a * 2) where a = 3;
update ma set c = 'z', (a, b) = (b, a) where c = 'x!';
select * from ma order by a;
update ma set (a, b) = (1);
update ma set (a, b) = (1, 2, 3);
update ma set (a, a) = (1, 2);
update ma set (a, nosuch) = (1, 2);
update ma set (a, b) = ('x', 2);

update ma set a = 1, a = 2;
drop table ma;
