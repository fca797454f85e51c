package executor

// SQL-level prepared statements (PREPARE, EXECUTE, DEALLOCATE). The
// session keeps them by name as Prepared statements, as the extended
// protocol's are kept (the server's own map): EXECUTE evaluates its
// arguments and binds the statement with them (Bind), so a statement
// prepared before DDL is bound again, as for the protocol's statements.
// Like PostgreSQL's, they are not transactional and last until DEALLOCATE,
// DISCARD ALL or the end of the session.

import (
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// PreparedStatement is sql.PreparedCatalog for the session's binder.
func (c sessionCatalog) PreparedStatement(name string) ([]types.OID, []sql.ResultCol, bool) {
	p, ok := c.s.sqlPrepared[name]
	if !ok {
		return nil, nil, false
	}
	return p.ParamTypes, p.bound.Columns, true
}

func (s *Session) prepareSQL(st *sql.PrepareSQL) (string, error) {
	if _, ok := s.sqlPrepared[st.Name]; ok {
		return "", pgerr.New(pgerr.Code("42P05"), "prepared statement \"%s\" already exists", st.Name)
	}
	p, err := s.Prepare(st.Query, st.ParamTypes)
	if err != nil {
		return "", err
	}
	if p == nil {
		return "", pgerr.New(pgerr.SyntaxError, "PREPARE needs a statement")
	}
	for i, t := range p.ParamTypes {
		if t == types.Unknown || t == 0 {
			return "", pgerr.New(pgerr.IndeterminateDatatype, "could not determine data type of parameter $%d", i+1)
		}
	}
	if s.sqlPrepared == nil {
		s.sqlPrepared = map[string]*Prepared{}
	}
	s.sqlPrepared[st.Name] = p
	return "PREPARE", nil
}

func (s *Session) deallocate(st *sql.Deallocate) (string, error) {
	if st.Name == "" {
		s.sqlPrepared = nil
		return "DEALLOCATE ALL", nil
	}
	if _, ok := s.sqlPrepared[st.Name]; !ok {
		return "", pgerr.New(pgerr.Code("26000"), "prepared statement \"%s\" does not exist", st.Name)
	}
	delete(s.sqlPrepared, st.Name)
	return "DEALLOCATE", nil
}

// bindExecute is Bind for EXECUTE: the arguments become the parameters of
// the named statement, whose portal runs in EXECUTE's place (its tag and
// rows are the statement's, as in PostgreSQL).
func (s *Session) bindExecute(st *sql.ExecuteSQL, params []types.Datum) (*Portal, error) {
	p, ok := s.sqlPrepared[st.Name]
	if !ok {
		return nil, s.fail(pgerr.New(pgerr.Code("26000"), "prepared statement \"%s\" does not exist", st.Name))
	}
	ev := &evalCtx{s: s, params: params}
	vals := make([]types.Datum, len(st.Args))
	for i, a := range st.Args {
		v, err := ev.eval(a, nil)
		if err != nil {
			return nil, s.fail(err)
		}
		vals[i] = v
	}
	return s.Bind(p, vals)
}
