-- psql's \df and \dfS read pg_proc: no user functions in a new database;
-- built-in functions and aggregates with their argument and result types.
\df
\dfS pg_backend_pid
\dfS version
\dfS setval
\dfS nextval
\dfS generate_series
\dfS count
\dfS bool_and
\dfS char_length
\dfS pg_relation_size
\dfS now
SELECT proname, prokind, proretset, pronargs FROM pg_proc WHERE proname IN ('upper', 'sum', 'generate_series') AND pronargs = 2 ORDER BY 1, 2;
