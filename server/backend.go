package server

import (
	"context"
	"io"

	"minipg/pgerr"
	"minipg/types"
)

// Backend is what the server needs from the SQL engine. It mirrors the
// executor's API (see executor.Engine) so that the wire layer can be tested
// against a fake engine; package server/execbackend adapts the real one.
type Backend interface {
	// NewSession starts the state of one connection. startup holds the
	// startup packet's parameters (user, database, application_name,
	// options, ...).
	NewSession(startup map[string]string) Session
	// SplitQuery splits a simple-query string into its statements.
	SplitQuery(query string) ([]string, error)
	// Setting returns a server-wide setting (TimeZone, DateStyle, ...).
	Setting(name string) (string, bool)
}

// Session is one connection's SQL state. The server calls it from the
// connection's goroutine only.
type Session interface {
	// Prepare parses and binds one statement; (nil, nil) means the query is
	// empty or only a comment (EmptyQueryResponse). paramTypes[i] == 0
	// asks for inference.
	Prepare(query string, paramTypes []types.OID) (*Statement, error)
	// Bind binds parameter values (nil is NULL) to a prepared statement.
	Bind(st *Statement, params []types.Datum) (Portal, error)
	// Sync ends an implicit transaction (commit, or rollback if it failed).
	Sync() error
	// TxStatus is ReadyForQuery's status: 'I', 'T' or 'E'.
	TxStatus() byte
	// TakeNotices returns the notices and warnings raised since the last call.
	TakeNotices() []*pgerr.Error
	// ParamStatusChanges returns GUC_REPORT settings changed since the last call.
	ParamStatusChanges() map[string]string
	// Close aborts any open transaction.
	Close()
}

// Statement is a prepared statement as the engine describes it.
type Statement struct {
	SQL        string
	ParamTypes []types.OID // inferred where the client sent 0
	Columns    []Column    // nil => NoData
	IsCopyFrom bool
	IsCopyTo   bool // COPY ... TO STDOUT: its portal implements CopyToPortal
	Impl       any  // the engine's own prepared statement
}

// Column describes one result column (a RowDescription field).
type Column struct {
	Name     string
	Type     types.T
	TableOID uint32
	AttNum   int16
}

// Portal is a bound statement ready to run.
type Portal interface {
	Columns() []Column
	// Run executes up to maxRows rows (0 = all), calling emit for each;
	// done == false means the portal is suspended. tag is CommandComplete's.
	// A cancelled ctx makes it return 57014.
	Run(ctx context.Context, maxRows int, emit func(row []types.Datum) error) (tag string, done bool, err error)
	// CopyFormat is COPY FROM STDIN's format ("text", "csv", "binary") and
	// column count.
	CopyFormat() (format string, ncols int)
	// CopyFrom consumes the COPY data stream from r (io.EOF at CopyDone).
	CopyFrom(ctx context.Context, r io.Reader) (tag string, err error)
	Close()
}

// CopyFromStarter is implemented by the portals of COPY FROM STDIN whose
// checks come before the server asks for data: an error from
// StartCopyFrom is sent instead of CopyInResponse.
type CopyFromStarter interface {
	StartCopyFrom() error
}

// CopyToPortal is implemented by the portals of COPY ... TO STDOUT
// statements (Statement.IsCopyTo).
type CopyToPortal interface {
	// CopyTo runs the statement, handing each CopyData payload to send.
	CopyTo(ctx context.Context, send func(data []byte) error) (tag string, err error)
}

// ActivitySession is implemented by sessions that show what they are doing
// (pg_stat_activity). The server attaches the connection once, before its
// first statement, reports each query as PostgreSQL's traffic cop does (a
// Query message, and each Parse, Bind and Execute with the statement's
// text) and reports the wait for the client before every ReadyForQuery.
type ActivitySession interface {
	// Attach gives the session the process id sent in BackendKeyData and
	// the client's address and port ("" and -1 for a Unix-domain socket).
	Attach(pid uint32, addr string, port int)
	ReportQuery(query string)
	ReportIdle()
}

// SignalBackend is implemented by backends whose SQL cancels statements of
// other connections or ends them (pg_cancel_backend, pg_terminate_backend):
// New hands them the server's Signal.
type SignalBackend interface {
	SetSignal(signal func(pid uint32, terminate bool) bool)
}
