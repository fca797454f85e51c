package executor

// SQL-level prepared statements (PREPARE, EXECUTE, DEALLOCATE). The
// session keeps them by name as Prepared statements, as the extended
// protocol's are kept (the server's own map): EXECUTE evaluates its
// arguments and binds the statement with them (Bind), so a statement
// prepared before DDL is bound again, as for the protocol's statements.
// Like PostgreSQL's, they are not transactional and last until DEALLOCATE,
// DISCARD ALL or the end of the session.

import (
	"maps"
	"slices"
	"time"

	"minipg/catalog"
	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// sqlStatement is a statement SQL's PREPARE made: the prepared statement,
// the PREPARE's text and time, and how many times it ran.
type sqlStatement struct {
	Prepared
	text string
	at   time.Time
	runs int64
}

// PreparedStatement is sql.PreparedCatalog for the session's binder.
func (c sessionCatalog) PreparedStatement(name string) ([]types.OID, []sql.ResultCol, bool) {
	p, ok := c.s.sqlPrepared[name]
	if !ok {
		return nil, nil, false
	}
	return p.ParamTypes, p.bound.Columns, true
}

func (s *Session) prepareSQL(st *sql.PrepareSQL, text string) (string, error) {
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
		s.sqlPrepared = map[string]*sqlStatement{}
	}
	s.sqlPrepared[st.Name] = &sqlStatement{Prepared: *p, text: text, at: time.Now()}
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
	pt, _, err := s.bindExecuteArgs(st, params)
	return pt, err
}

// bindExecuteArgs evaluates EXECUTE's arguments and binds the named
// statement with them; it returns the portal and the values.
func (s *Session) bindExecuteArgs(st *sql.ExecuteSQL, params []types.Datum) (*Portal, []types.Datum, error) {
	p, ok := s.sqlPrepared[st.Name]
	if !ok {
		return nil, nil, s.fail(pgerr.New(pgerr.Code("26000"), "prepared statement \"%s\" does not exist", st.Name))
	}
	ev := &evalCtx{s: s, params: params}
	vals := make([]types.Datum, len(st.Args))
	for i, a := range st.Args {
		v, err := ev.eval(a, nil)
		if err != nil {
			return nil, nil, s.fail(err)
		}
		vals[i] = v
	}
	p.runs++
	pt, err := s.Bind(&p.Prepared, vals)
	return pt, vals, err
}

// pgPreparedStatements are the session's rows of pg_prepared_statements:
// the statements SQL's PREPARE made (the protocol's are the server's, not
// listed). minipg plans a statement for each run, so every run counts as a
// custom plan.
func (s *Session) pgPreparedStatements() [][]types.Datum {
	var out [][]types.Datum
	for _, name := range slices.Sorted(maps.Keys(s.sqlPrepared)) {
		p := s.sqlPrepared[name]
		ptypes := make([]types.Datum, len(p.ParamTypes))
		for i, t := range p.ParamTypes {
			ptypes[i] = types.RegName{OID: uint32(t), Name: types.T{OID: t, Typmod: -1}.Name()}
		}
		out = append(out, []types.Datum{name, p.text, p.at, types.NewArray(ptypes), true, int64(0), p.runs})
	}
	return out
}

func init() {
	col := func(name string, t types.OID) catalog.Column {
		return catalog.Column{Name: name, TypeOID: uint32(t), Typmod: -1}
	}
	v := sql.RegisterVirtualTable("pg_prepared_statements", []catalog.Column{
		col("name", types.Text), col("statement", types.Text), col("prepare_time", types.TimestampTZ),
		col("parameter_types", types.ArrayOID(types.RegType)), col("from_sql", types.Bool),
		col("generic_plans", types.Int8), col("custom_plans", types.Int8),
	}, func(env any) ([][]types.Datum, error) {
		return env.(*Session).pgPreparedStatements(), nil
	})
	v.Session = true
}
