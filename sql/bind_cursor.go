package sql

import (
	pg_query "github.com/pganalyze/pg_query_go/v5"

	"minipg/pgerr"
)

// SQL cursors: DECLARE name [NO SCROLL] CURSOR [WITHOUT HOLD] FOR query,
// FETCH and MOVE forward, CLOSE. The session keeps a cursor as a portal of
// its query until CLOSE or the transaction's end; binding FETCH asks the
// Catalog, which the executor makes the session's (CursorCatalog), for the
// cursor's columns. Scrollable cursors, WITH HOLD and fetching backward or
// by absolute position are refused (0A000).

// DeclareCursor is a bound DECLARE CURSOR: Query is the query's text.
type DeclareCursor struct {
	Name  string
	Query string
}

// FetchCursor is a bound FETCH or MOVE: Count rows forward (0: all).
type FetchCursor struct {
	Name  string
	Count int64
	Move  bool
}

// CloseCursor is a bound CLOSE name | ALL ("" for ALL).
type CloseCursor struct {
	Name string
}

func (*DeclareCursor) stmt() {}
func (*FetchCursor) stmt()   {}
func (*CloseCursor) stmt()   {}

// CursorCatalog is what binding FETCH needs: a cursor's result columns (ok
// false if the session has no cursor of the name).
type CursorCatalog interface {
	CursorColumns(name string) (cols []ResultCol, ok bool)
}

// The bits of DeclareCursorStmt.Options (PostgreSQL's CURSOR_OPT_*).
const (
	cursorBinary   = 0x0001
	cursorScroll   = 0x0002
	cursorNoScroll = 0x0004
	cursorHold     = 0x0020
)

func (b *binder) declareCursor(s *pg_query.DeclareCursorStmt) (*DeclareCursor, error) {
	switch {
	case s.Options&cursorScroll != 0:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "scrollable cursors are not supported")
	case s.Options&cursorHold != 0:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "WITH HOLD cursors are not supported")
	case s.Options&cursorBinary != 0:
		return nil, pgerr.New(pgerr.FeatureNotSupported, "binary cursors are not supported")
	}
	if s.Query.GetSelectStmt() == nil {
		return nil, pgerr.New(pgerr.FeatureNotSupported, "this cursor query is not supported")
	}
	text, err := pg_query.Deparse(&pg_query.ParseResult{Stmts: []*pg_query.RawStmt{{Stmt: s.Query}}})
	if err != nil {
		return nil, pgerr.New(pgerr.InternalError, "cannot deparse cursor query: %v", err)
	}
	return &DeclareCursor{Name: s.Portalname, Query: text}, nil
}

// fetchAll is FETCH ALL's count in the parse tree (PostgreSQL's FETCH_ALL,
// LONG_MAX).
const fetchAll = 1<<63 - 1

func (b *binder) fetchCursor(s *pg_query.FetchStmt) (*FetchCursor, []ResultCol, error) {
	out := &FetchCursor{Name: s.Portalname, Count: s.HowMany, Move: s.Ismove}
	switch {
	case s.Direction == pg_query.FetchDirection_FETCH_FORWARD && s.HowMany >= 0:
	case s.Direction == pg_query.FetchDirection_FETCH_RELATIVE && s.HowMany >= 0 && s.HowMany <= 1:
		// FETCH NEXT is RELATIVE 1 in some forms; RELATIVE 0 refetches.
		if s.HowMany == 0 {
			return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "FETCH RELATIVE 0 is not supported")
		}
	default:
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "FETCH in this direction is not supported: minipg's cursors only move forward")
	}
	if out.Count == fetchAll {
		out.Count = 0
	} else if out.Count == 0 {
		// FETCH FORWARD 0 refetches the current row.
		return nil, nil, pgerr.New(pgerr.FeatureNotSupported, "FETCH FORWARD 0 is not supported")
	}
	cc, ok := b.cat.(CursorCatalog)
	var cols []ResultCol
	if ok {
		cols, ok = cc.CursorColumns(s.Portalname)
	}
	if !ok {
		return nil, nil, pgerr.New(pgerr.Code("34000"), "cursor \"%s\" does not exist", s.Portalname)
	}
	if out.Move {
		cols = nil
	}
	return out, cols, nil
}
