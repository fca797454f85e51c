package server

import (
	"context"
	"log/slog"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
)

// simpleQuery runs a Query message: every statement in turn (Prepare, Bind,
// Run) with RowDescription, DataRows in text and CommandComplete; the first
// error is reported and the rest of the message skipped; then the implicit
// transaction ends (Session.Sync) and ReadyForQuery follows. A message with
// no statement at all (empty, or only comments: pgx's Ping sends "-- ping")
// gets EmptyQueryResponse.
//
// It returns only connection failures and FATAL errors.
func (c *conn) simpleQuery(ctx context.Context, query string) error {
	if c.log.Enabled(ctx, slog.LevelDebug) {
		c.log.Debug("query", "sql", query)
	}
	c.reportQuery(query)
	// PostgreSQL drops the unnamed statement and portal on a simple query.
	delete(c.stmts, "")
	c.closePortal("")

	ctx = c.startStatement(ctx)
	defer c.endStatement()

	// Statements are separated by semicolons: without one there is at most
	// one statement, and splitting (a full parse) can be skipped.
	stmts := []string{query}
	var err error
	if strings.IndexByte(query, ';') >= 0 {
		stmts, err = c.srv.cfg.Backend.SplitQuery(query)
	}
	if err != nil {
		// Let Prepare report the syntax error (with its position) on the
		// whole string, so that the session sees it and fails an open
		// transaction block as PostgreSQL does.
		stmts = []string{query}
	}
	ran := false
	cursor := 0
	for _, sql := range stmts {
		// Where the statement starts in the message, for error positions.
		offset := -1
		if i := strings.Index(query[cursor:], sql); i >= 0 {
			offset = cursor + i
			cursor = offset + len(sql)
		}
		empty, err := c.runSimpleStatement(ctx, sql)
		if err != nil {
			if isIOError(err) || isFatal(err) {
				return err
			}
			if offset > 0 {
				err = shiftPosition(err, int32(utf8.RuneCountInString(query[:offset])))
			}
			c.sendError(err)
			ran = true
			break
		}
		if !empty {
			ran = true
		}
	}
	if !ran {
		c.send(&pgproto3.EmptyQueryResponse{})
	}
	return c.syncAndReady()
}

// runSimpleStatement runs one statement of a simple query; empty reports a
// statement with nothing to run.
func (c *conn) runSimpleStatement(ctx context.Context, sql string) (empty bool, err error) {
	st, err := c.sess.Prepare(sql, nil)
	if err != nil {
		if pe, ok := err.(*pgerr.Error); ok && pe.Code == pgerr.IndeterminateDatatype && strings.HasPrefix(pe.Message, "could not determine data type of parameter") {
			return false, noParameter(sql) // an unused $n below a used one
		}
		return false, err
	}
	if st == nil {
		return true, nil
	}
	c.sendNotices() // raised while parsing: before the statement's results
	p, err := c.sess.Bind(st, nil)
	if err != nil {
		if len(st.ParamTypes) > 0 {
			// The simple protocol has no parameters: PostgreSQL rejects $n
			// while parsing. (Bind has marked the transaction failed.)
			return false, noParameter(sql)
		}
		return false, err
	}
	defer p.Close()
	var tag string
	err = c.runStatement(ctx, func(ctx context.Context) (err error) {
		if st.IsCopyFrom {
			tag, err = c.copyIn(ctx, p)
			return err
		}
		if st.IsCopyTo {
			tag, err = c.copyOut(ctx, p)
			return err
		}
		cols := p.Columns()
		if cols != nil {
			c.send(rowDescription(cols, nil))
		}
		tag, _, err = p.Run(ctx, 0, c.sink.start(cols, nil))
		return err
	})
	if err != nil {
		return false, err
	}
	c.sendNotices()
	c.sendCommandComplete(tag)
	return false, c.maybeFlush()
}

// shiftPosition makes an error position that is relative to one statement
// relative to the whole query string, as PostgreSQL reports it.
func shiftPosition(err error, chars int32) error {
	pe := toPGError(err)
	if pe.Position <= 0 {
		return err
	}
	pe.Position += chars
	return pe
}

// noParameter is PostgreSQL's error for a $n in a simple query, pointing at
// the first $n outside quotes.
func noParameter(sql string) error {
	var quote byte
	for i := 0; i < len(sql); i++ {
		switch ch := sql[i]; {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case ch == '$' && i+1 < len(sql) && sql[i+1] >= '0' && sql[i+1] <= '9' && (i == 0 || !isIdentByte(sql[i-1])):
			j := i + 1
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			e := pgerr.New(pgerr.UndefinedParameter, "there is no parameter %s", sql[i:j])
			e.Position = int32(utf8.RuneCountInString(sql[:i])) + 1
			return e
		}
	}
	return pgerr.New(pgerr.UndefinedParameter, "there is no parameter $1")
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
