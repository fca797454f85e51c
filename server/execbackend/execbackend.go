// Package execbackend adapts the executor's Engine to server.Backend, so
// that the wire layer (package server) does not depend on the executor and
// can be tested against a fake engine.
package execbackend

import (
	"time"

	"context"
	"io"

	"minipg/executor"
	"minipg/pgerr"
	"minipg/server"
	"minipg/txn"
	"minipg/types"
)

// New returns a server.Backend running statements on e.
func New(e *executor.Engine) server.Backend { return backend{e} }

type backend struct{ e *executor.Engine }

func (b backend) NewSession(startup map[string]string) server.Session {
	return session{b.e.NewSession(startup)}
}

// SetSignal lets pg_cancel_backend and pg_terminate_backend reach the
// server's connections (server.SignalBackend).
func (b backend) SetSignal(signal func(pid uint32, terminate bool) bool) {
	b.e.SetBackendSignal(func(pid int32, terminate bool) bool { return pid > 0 && signal(uint32(pid), terminate) })
}

func (b backend) SplitQuery(q string) ([]string, error) { return executor.SplitQuery(q) }

func (b backend) Setting(name string) (string, bool) { return b.e.Setting(name) }

type session struct{ s *executor.Session }

func columns(cols []executor.Column) []server.Column {
	if cols == nil {
		return nil
	}
	out := make([]server.Column, len(cols))
	for i, c := range cols {
		out[i] = server.Column{Name: c.Name, Type: c.Type, TableOID: c.TableOID, AttNum: c.AttNum}
	}
	return out
}

// prepared is a server.Statement's Impl: the executor's statement and the
// result columns that Statement.Columns was converted from.
type prepared struct {
	p    *executor.Prepared
	cols []executor.Column
}

func (s session) Prepare(query string, paramTypes []types.OID) (*server.Statement, error) {
	p, err := s.s.Prepare(query, paramTypes)
	if err != nil || p == nil {
		return nil, err
	}
	return &server.Statement{SQL: p.SQL, ParamTypes: p.ParamTypes, Columns: columns(p.Columns), IsCopyFrom: p.IsCopyFrom,
		IsCopyTo: p.IsCopyTo, Impl: &prepared{p: p, cols: p.Columns}}, nil
}

func (s session) Bind(st *server.Statement, params []types.Datum) (server.Portal, error) {
	impl := st.Impl.(*prepared)
	p, err := s.s.Bind(impl.p, params)
	if err != nil {
		return nil, err
	}
	return &portal{p: p, st: st, s: s.s}, nil
}

func (s session) Sync() error                           { return s.s.Sync() }
func (s session) TxStatus() byte                        { return s.s.TxStatus() }
func (s session) TakeNotices() []*pgerr.Error           { return s.s.TakeNotices() }
func (s session) ParamStatusChanges() map[string]string { return s.s.ParamStatusChanges() }
func (s session) Close()                                { s.s.Close() }

// Attach, ReportQuery and ReportIdle feed pg_stat_activity
// (server.ActivitySession).
func (s session) Attach(pid uint32, addr string, port int) { s.s.Attach(int32(pid), addr, port) }
func (s session) ReportQuery(query string)                 { s.s.ReportQuery(query) }
func (s session) ReportIdle()                              { s.s.ReportIdle() }

// Setting is the session's value of a setting (SHOW's text).
func (s session) Setting(name string) (string, bool) { return s.s.Setting(name) }

type portal struct {
	p    *executor.Portal
	s    *executor.Session
	st   *server.Statement
	cols []server.Column
	done bool // cols set
}

func (p *portal) Columns() []server.Column {
	if !p.done {
		pc := p.p.Columns()
		if sameSlice(pc, p.st.Impl.(*prepared).cols) {
			// The statement's own columns, converted once at Prepare.
			p.cols = p.st.Columns
		} else {
			p.cols = columns(pc)
		}
		p.done = true
	}
	return p.cols
}

// sameSlice reports whether a and b are the same slice (not merely equal);
// nil (NoData) and empty (zero columns) differ.
func sameSlice(a, b []executor.Column) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0]
}

func (p *portal) Run(ctx context.Context, maxRows int, emit func(row []types.Datum) error) (string, bool, error) {
	return p.p.Run(p.lockTimeout(ctx), maxRows, emit)
}

// lockTimeout gives ctx the session's lock_timeout (a wait for a row or
// relation lock longer than that fails with 55P03) and the reporter of
// waits for other transactions (pg_stat_activity's wait event).
func (p *portal) lockTimeout(ctx context.Context) context.Context {
	ctx = txn.WithWaitReporter(ctx, p.s.ReportLockWait)
	if v, ok := p.s.Setting("lock_timeout"); ok && v != "0" {
		return txn.WithLockTimeout(ctx, server.ParseMillis(v))
	}
	return ctx
}

func (p *portal) CopyFormat() (string, int) { return p.p.CopyFormat() }

// StartCopyFrom is server.CopyFromStarter.
func (p *portal) StartCopyFrom() error { return p.p.StartCopyFrom() }

func (p *portal) CopyFrom(ctx context.Context, r io.Reader) (string, error) {
	return p.p.CopyFrom(p.lockTimeout(ctx), r)
}

// CopyTo runs COPY ... TO STDOUT (server.CopyToPortal).
func (p *portal) CopyTo(ctx context.Context, send func(data []byte) error) (string, error) {
	return p.p.CopyTo(ctx, send)
}

func (p *portal) Close() { p.p.Close() }

// Location is the session's TimeZone (server.ZoneSession).
func (s session) Location() *time.Location { return s.s.Location() }

// Conv is the session's TimeZone and IntervalStyle (server.ConvSession).
func (s session) Conv() types.Conv { return s.s.Conv() }
