package executor

import (
	"context"
	"io"
	"log/slog"

	"minipg/pgerr"
	"minipg/types"
)

// Config configures an Engine.
type Config struct {
	DataDir       string
	SharedBuffers int64             // bytes; 0 means the default (128MB)
	Settings      map[string]string // -c name=value
}

// Column describes one result column (RowDescription).
type Column struct {
	Name     string
	Type     types.T
	TableOID uint32
	AttNum   int16
}

// Prepared is one parsed and bound statement.
type Prepared struct {
	SQL        string
	ParamTypes []types.OID
	Columns    []Column // nil => NoData
	IsCopyFrom bool

	stmt any // bound statement (sql package)
}

// Engine is one open data directory.
type Engine struct {
	cfg Config
	log *slog.Logger
}

// Open opens (creating if needed) the data directory.
func Open(cfg Config, log *slog.Logger) (*Engine, error) {
	return &Engine{cfg: cfg, log: log}, nil
}

// Close flushes and closes the engine.
func (e *Engine) Close() error { return nil }

// Setting returns a server-wide setting.
func (e *Engine) Setting(name string) (string, bool) { return "", false }

// Session is one connection's state. Not safe for concurrent use.
type Session struct {
	e *Engine
}

// NewSession starts a session.
func (e *Engine) NewSession(startup map[string]string) *Session { return &Session{e: e} }

// SplitQuery splits a simple-query string into statements.
func SplitQuery(query string) ([]string, error) { return []string{query}, nil }

// Prepare parses and binds one statement; (nil, nil) for an empty query.
func (s *Session) Prepare(query string, paramTypes []types.OID) (*Prepared, error) {
	return nil, pgerr.Unimplemented("statements")
}

// Portal is a bound statement ready to run.
type Portal struct {
	s *Session
	p *Prepared
}

// Bind binds parameter values.
func (s *Session) Bind(p *Prepared, params []types.Datum) (*Portal, error) {
	return &Portal{s: s, p: p}, nil
}

// Columns returns the result columns (nil => NoData).
func (pt *Portal) Columns() []Column { return pt.p.Columns }

// Run executes up to maxRows rows (0 = all).
func (pt *Portal) Run(ctx context.Context, maxRows int, emit func(row []types.Datum) error) (tag string, done bool, err error) {
	return "", true, pgerr.Unimplemented("statements")
}

// CopyFormat returns the COPY format and column count.
func (pt *Portal) CopyFormat() (format string, ncols int) { return "text", 0 }

// CopyFrom consumes the COPY data stream.
func (pt *Portal) CopyFrom(ctx context.Context, r io.Reader) (tag string, err error) {
	return "", pgerr.Unimplemented("COPY")
}

// Close releases the portal.
func (pt *Portal) Close() {}

// Sync ends an implicit transaction.
func (s *Session) Sync() error { return nil }

// TxStatus returns 'I', 'T' or 'E'.
func (s *Session) TxStatus() byte { return 'I' }

// TakeNotices returns notices raised since the last call.
func (s *Session) TakeNotices() []*pgerr.Error { return nil }

// ParamStatusChanges returns reported settings changed since the last call.
func (s *Session) ParamStatusChanges() map[string]string { return nil }

// Close aborts any open transaction.
func (s *Session) Close() {}
