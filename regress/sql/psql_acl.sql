-- psql's \dp, \z and \dn+ (relacl, attacl, nspacl and the schemas'
-- comments).
create table acl_t (a int primary key, b text);
create sequence acl_s;
\dp acl_*
\z acl_t
\dn+ public
\dn pg_catalog
drop table acl_t;
drop sequence acl_s;
