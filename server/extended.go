package server

import (
	"context"
	"log/slog"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
	"minipg/types"
)

// The extended query protocol. Each handler returns an error to be sent
// as ErrorResponse, after which the message loop skips to Sync.

func stmtNotFound(name string) error {
	if name == "" {
		return pgerr.New(pgerr.InvalidSQLStatementName, "unnamed prepared statement does not exist")
	}
	return pgerr.New(pgerr.InvalidSQLStatementName, "prepared statement \"%s\" does not exist", name)
}

func portalNotFound(name string) error {
	return pgerr.New(codeInvalidPortal, "portal \"%s\" does not exist", name)
}

func (c *conn) parse(m *pgproto3.Parse) error {
	if m.Name != "" {
		if _, ok := c.stmts[m.Name]; ok {
			return pgerr.New(pgerr.DuplicatePreparedStatement, "prepared statement \"%s\" already exists", m.Name)
		}
	} else {
		delete(c.stmts, "")
	}
	oids := make([]types.OID, len(m.ParameterOIDs))
	for i, o := range m.ParameterOIDs {
		oids[i] = types.OID(o)
	}
	if c.log.Enabled(context.Background(), slog.LevelDebug) {
		c.log.Debug("parse", "name", m.Name, "sql", m.Query)
	}
	c.reportQuery(m.Query)
	st, err := c.sess.Prepare(m.Query, oids)
	if err != nil {
		return err
	}
	c.stmts[m.Name] = &prepStmt{name: m.Name, sql: m.Query, st: st}
	c.sendNotices()
	c.send(&pgproto3.ParseComplete{})
	return nil
}

func (c *conn) bind(m *pgproto3.Bind) error {
	ps, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return stmtNotFound(m.PreparedStatement)
	}
	c.reportQuery(ps.sql)
	if m.DestinationPortal == "" {
		c.closePortal("")
	} else if _, ok := c.portals[m.DestinationPortal]; ok {
		return pgerr.New(pgerr.DuplicateCursor, "portal \"%s\" already exists", m.DestinationPortal)
	}
	var paramTypes []types.OID
	var cols []Column
	if ps.st != nil {
		paramTypes, cols = ps.st.ParamTypes, ps.st.Columns
	}
	if len(m.Parameters) != len(paramTypes) {
		return pgerr.New(pgerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
			len(m.Parameters), ps.name, len(paramTypes))
	}
	if err := checkFormats(m.ParameterFormatCodes, len(m.Parameters), "parameter"); err != nil {
		return err
	}
	if err := checkFormats(m.ResultFormatCodes, len(cols), "result"); err != nil {
		return err
	}
	// Bind.Decode makes new slices for every message: the portal may keep
	// ResultFormatCodes.
	pt := &portal{name: m.DestinationPortal, stmt: ps, cols: cols, formats: m.ResultFormatCodes}
	if ps.st != nil {
		params, err := decodeParams(paramTypes, m.ParameterFormatCodes, m.Parameters, sessionConv(c.sess))
		if err != nil {
			return err
		}
		p, err := c.sess.Bind(ps.st, params)
		if err != nil {
			return err
		}
		pt.p = p
		if pc := p.Columns(); cols != nil && len(pc) == len(cols) {
			pt.cols = pc
		}
	}
	c.portals[pt.name] = pt
	c.sendNotices()
	c.send(&pgproto3.BindComplete{})
	return nil
}

func (c *conn) describe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		ps, ok := c.stmts[m.Name]
		if !ok {
			return stmtNotFound(m.Name)
		}
		var oids []uint32
		var cols []Column
		if ps.st != nil {
			oids = make([]uint32, len(ps.st.ParamTypes))
			for i, o := range ps.st.ParamTypes {
				oids[i] = uint32(o)
			}
			cols = ps.st.Columns
		}
		c.send(&pgproto3.ParameterDescription{ParameterOIDs: oids})
		c.send(rowDescription(cols, nil))
	case 'P':
		pt, ok := c.portals[m.Name]
		if !ok {
			return portalNotFound(m.Name)
		}
		c.send(rowDescription(pt.cols, pt.formats))
	default:
		return pgerr.New(pgerr.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
	return nil
}

func (c *conn) execute(ctx context.Context, m *pgproto3.Execute) error {
	pt, ok := c.portals[m.Portal]
	if !ok {
		return portalNotFound(m.Portal)
	}
	c.reportQuery(pt.stmt.sql)
	if pt.p == nil {
		c.send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	if pt.failed {
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "portal \"%s\" cannot be run", pt.name)
	}
	if pt.done {
		// As PostgreSQL: a finished portal that returns rows fetches no
		// more ("SELECT 0"); other statements run only once.
		if pt.cols != nil && pt.tag != "" {
			c.sendCommandComplete(withCount(pt.tag, 0))
			return nil
		}
		return pgerr.New(pgerr.ObjectNotInPrerequisiteState, "portal \"%s\" cannot be run", pt.name)
	}
	ctx = c.startStatement(ctx)
	defer c.endStatement()
	var tag string
	var err error
	finished := true
	err = c.runStatement(ctx, func(ctx context.Context) (err error) {
		if pt.stmt.st.IsCopyFrom {
			tag, err = c.copyIn(ctx, pt.p)
			return err
		}
		if pt.stmt.st.IsCopyTo {
			tag, err = c.copyOut(ctx, pt.p)
			return err
		}
		maxRows := int(m.MaxRows)
		if maxRows < 0 {
			maxRows = 0
		}
		tag, finished, err = pt.p.Run(ctx, maxRows, c.sink.start(pt.cols, pt.formats))
		if err == nil && finished && pt.suspended {
			// The tag of a resumed portal counts the rows of this Execute.
			tag = withCount(tag, c.sink.rows)
		}
		return err
	})
	if err != nil {
		pt.failed = true
		return err
	}
	c.sendNotices()
	if !finished {
		pt.suspended = true
		c.send(&pgproto3.PortalSuspended{})
		return c.maybeFlush()
	}
	pt.done, pt.tag = true, tag
	c.sendCommandComplete(tag)
	return c.maybeFlush()
}

func (c *conn) closeMsg(m *pgproto3.Close) error {
	switch m.ObjectType {
	case 'S':
		delete(c.stmts, m.Name)
	case 'P':
		c.closePortal(m.Name)
	default:
		return pgerr.New(pgerr.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	c.send(&pgproto3.CloseComplete{})
	return nil
}

func (c *conn) closePortal(name string) {
	if pt, ok := c.portals[name]; ok {
		if pt.p != nil {
			pt.p.Close()
		}
		delete(c.portals, name)
	}
}

// withCount replaces the row count at the end of a command tag ("SELECT 5",
// "INSERT 0 5") with n; a tag without a count is returned as it is.
func withCount(tag string, n int) string {
	i := strings.LastIndexByte(tag, ' ')
	if i < 0 {
		return tag
	}
	if _, err := strconv.Atoi(tag[i+1:]); err != nil {
		return tag
	}
	return tag[:i+1] + strconv.Itoa(n)
}
