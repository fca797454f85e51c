-- psql's \dD and \db: pg_type.typdefault, pg_tablespace.spcacl and
-- pg_tablespace_location. (\dT works too, without the types' comments.)
\dD
\db pg_*
select pg_tablespace_size(1) is null as no_such_tablespace;
