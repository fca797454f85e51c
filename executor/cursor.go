package executor

// SQL cursors (sql/bind_cursor.go): DECLARE makes a portal of the query
// and opens it (its snapshot is taken then, as PostgreSQL's); FETCH and
// MOVE read it forward; CLOSE and the end of the transaction close it.

import (
	"context"
	"maps"
	"slices"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// CursorColumns is sql.CursorCatalog for the session's binder.
func (c sessionCatalog) CursorColumns(name string) ([]sql.ResultCol, bool) {
	pt, ok := c.s.cursors[name]
	if !ok {
		return nil, false
	}
	return pt.p.bound.Columns, true
}

func (s *Session) declareCursor(ctx context.Context, st *sql.DeclareCursor) (string, error) {
	if !s.explicit {
		return "", pgerr.New(pgerr.Code("25P01"), "DECLARE CURSOR can only be used in transaction blocks")
	}
	if _, ok := s.cursors[st.Name]; ok {
		return "", pgerr.New(pgerr.Code("42P03"), "cursor \"%s\" already exists", st.Name)
	}
	p, err := s.Prepare(st.Query, nil)
	if err != nil {
		return "", err
	}
	pt, err := s.Bind(p, nil)
	if err != nil {
		return "", err
	}
	// Open it now: the cursor reads the rows as of its DECLARE.
	if _, _, err := pt.begin(ctx); err != nil {
		return "", err
	}
	if s.cursors == nil {
		s.cursors = map[string]*Portal{}
	}
	s.cursors[st.Name] = pt
	return "DECLARE CURSOR", nil
}

// fetchCursor reads up to st.Count rows (all for 0) of the cursor; FETCH
// hands them out, MOVE only counts them.
func (pt *Portal) fetchCursor(ctx context.Context, st *sql.FetchCursor) error {
	s := pt.s
	c, ok := s.cursors[st.Name]
	if !ok {
		return pgerr.New(pgerr.Code("34000"), "cursor \"%s\" does not exist", st.Name)
	}
	var rows [][]types.Datum
	n := int64(0)
	for st.Count == 0 || n < st.Count {
		step := 1024
		if st.Count > 0 {
			step = int(min(st.Count-n, 1024))
		}
		got := 0
		_, done, err := c.Run(ctx, step, func(row []types.Datum) error {
			got++
			if !st.Move {
				rows = append(rows, slices.Clone(row))
			}
			return nil
		})
		if err != nil {
			return err
		}
		n += int64(got)
		if done || got == 0 {
			break
		}
	}
	verb := "FETCH "
	if st.Move {
		verb = "MOVE "
	}
	pt.rows = &sliceIter{rows: rows}
	pt.tagFn = func(int64) string { return verb + itoa(n) }
	return nil
}

func (s *Session) closeCursor(st *sql.CloseCursor) (string, error) {
	if st.Name == "" {
		s.closeCursors()
		return "CLOSE CURSOR ALL", nil
	}
	c, ok := s.cursors[st.Name]
	if !ok {
		return "", pgerr.New(pgerr.Code("34000"), "cursor \"%s\" does not exist", st.Name)
	}
	c.Close()
	delete(s.cursors, st.Name)
	return "CLOSE CURSOR", nil
}

// closeCursors closes every cursor (CLOSE ALL, the transaction's end).
func (s *Session) closeCursors() {
	for _, name := range slices.Sorted(maps.Keys(s.cursors)) {
		s.cursors[name].Close()
	}
	s.cursors = nil
}
