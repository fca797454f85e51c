package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"minipg/pgerr"
	"minipg/types"
)

// fakeBackend is a tiny engine for wire-level tests. Its "SQL" is one
// command per statement:
//
//	rows N             N rows (i int4, s text): i, "row i"
//	echo               one row with one column per parameter, of its type
//	                   (parameters without a type are int4)
//	insert             tag "INSERT 0 1"
//	fail CODE MESSAGE  an error with that SQLSTATE
//	begin|commit|rollback
//	notice MESSAGE     a NOTICE, tag "DO"
//	set NAME VALUE     reports ParameterStatus NAME=VALUE, tag "SET"
//	sleep              blocks until its context is cancelled
//	copy [binary]      COPY FROM STDIN; tag "COPY n" with n lines (text) or bytes (binary)
//	panic              panics
//	(empty or -- comment) nothing
//
// Statements are split at ';'. "syntax" anywhere in a message makes
// SplitQuery fail.
type fakeBackend struct {
	mu       sync.Mutex
	sessions int
	closed   int
	copied   []string // data received by COPY, per statement
}

func (b *fakeBackend) NewSession(startup map[string]string) Session {
	b.mu.Lock()
	b.sessions++
	b.mu.Unlock()
	return &fakeSession{b: b}
}

func (b *fakeBackend) SplitQuery(q string) ([]string, error) {
	if strings.Contains(q, "syntax") {
		return nil, pgerr.New(pgerr.SyntaxError, "syntax error at or near \"syntax\"")
	}
	var out []string
	for _, s := range strings.Split(q, ";") {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

func (b *fakeBackend) Setting(name string) (string, bool) {
	if name == "TimeZone" {
		return "Etc/UTC", true
	}
	return "", false
}

type fakeSession struct {
	b        *fakeBackend
	inBlock  bool
	failed   bool
	implicit bool // an implicit transaction is open
	notices  []*pgerr.Error
	changes  map[string]string
	settings map[string]string // what "set" set
}

// Setting reports what "set" set (see settingSession).
func (s *fakeSession) Setting(name string) (string, bool) {
	v, ok := s.settings[name]
	return v, ok
}

func (s *fakeSession) Prepare(q string, paramTypes []types.OID) (*Statement, error) {
	q = strings.TrimSpace(q)
	if strings.HasPrefix(q, "--") {
		q = ""
	}
	if q == "" {
		return nil, nil
	}
	f := strings.Fields(q)
	if strings.Contains(q, "syntax") {
		return nil, s.fail(pgerr.New(pgerr.SyntaxError, "syntax error at or near \"syntax\"").WithPosition(int32(strings.Index(q, "syntax") + 1)))
	}
	if s.failed && f[0] != "commit" && f[0] != "rollback" {
		return nil, pgerr.New(pgerr.InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	for len(f) < 4 {
		f = append(f, "") // missing arguments read as empty
	}
	st := &Statement{SQL: q, Impl: f}
	switch f[0] {
	case "rows":
		st.Columns = []Column{{Name: "i", Type: types.TInt4, TableOID: 16384, AttNum: 1}, {Name: "s", Type: types.TText, TableOID: 16384, AttNum: 2}}
	case "echo":
		n := strings.Count(q, "$")
		st.ParamTypes = make([]types.OID, n)
		copy(st.ParamTypes, paramTypes)
		st.Columns = []Column{}
		for i := range st.ParamTypes {
			if st.ParamTypes[i] == 0 {
				st.ParamTypes[i] = types.Int4
			}
			st.Columns = append(st.Columns, Column{Name: fmt.Sprintf("p%d", i+1), Type: types.T{OID: st.ParamTypes[i], Typmod: -1}})
		}
	case "copy":
		st.IsCopyFrom = true
	case "rows_or":
	}
	return st, nil
}

func (s *fakeSession) fail(err error) error {
	if s.inBlock {
		s.failed = true
	}
	return err
}

func (s *fakeSession) Bind(st *Statement, params []types.Datum) (Portal, error) {
	return &fakePortal{s: s, st: st, f: st.Impl.([]string), params: params}, nil
}

func (s *fakeSession) Sync() error {
	if !s.inBlock {
		s.failed = false
		s.implicit = false
	}
	return nil
}

func (s *fakeSession) TxStatus() byte {
	switch {
	case s.failed:
		return 'E'
	case s.inBlock:
		return 'T'
	}
	return 'I'
}

func (s *fakeSession) TakeNotices() []*pgerr.Error {
	n := s.notices
	s.notices = nil
	return n
}

func (s *fakeSession) ParamStatusChanges() map[string]string {
	c := s.changes
	s.changes = nil
	return c
}

func (s *fakeSession) Close() {
	s.b.mu.Lock()
	s.b.closed++
	s.b.mu.Unlock()
}

type fakePortal struct {
	s      *fakeSession
	st     *Statement
	f      []string
	params []types.Datum
	next   int // rows: next row number
}

func (p *fakePortal) Columns() []Column { return p.st.Columns }

func (p *fakePortal) Run(ctx context.Context, maxRows int, emit func(row []types.Datum) error) (string, bool, error) {
	s := p.s
	switch p.f[0] {
	case "rows":
		n, _ := strconv.Atoi(p.f[1])
		sent := 0
		for p.next < n {
			if maxRows > 0 && sent == maxRows {
				return "", false, nil
			}
			p.next++
			if err := emit([]types.Datum{int64(p.next), fmt.Sprintf("row %d", p.next)}); err != nil {
				return "", true, err
			}
			sent++
		}
		return fmt.Sprintf("SELECT %d", n), true, nil
	case "echo":
		if err := emit(p.params); err != nil {
			return "", true, err
		}
		return "SELECT 1", true, nil
	case "insert":
		return "INSERT 0 1", true, nil
	case "fail":
		code := pgerr.Code(p.f[1])
		if len(code) != 5 || code == pgerr.InternalError {
			code = pgerr.DataException
		}
		return "", true, s.fail(pgerr.New(code, "%s", strings.TrimSpace(strings.Join(p.f[2:], " "))))
	case "begin":
		if s.inBlock {
			s.notices = append(s.notices, &pgerr.Error{Code: pgerr.ActiveSQLTransaction, Severity: pgerr.SeverityWarning, Message: "there is already a transaction in progress"})
		}
		s.inBlock = true
		return "BEGIN", true, nil
	case "commit", "rollback":
		tag := strings.ToUpper(p.f[0])
		if !s.inBlock {
			s.notices = append(s.notices, &pgerr.Error{Code: pgerr.NoActiveSQLTransaction, Severity: pgerr.SeverityWarning, Message: "there is no transaction in progress"})
		}
		if s.failed {
			tag = "ROLLBACK"
		}
		s.inBlock, s.failed = false, false
		return tag, true, nil
	case "notice":
		s.notices = append(s.notices, &pgerr.Error{Severity: pgerr.SeverityNotice, Message: strings.TrimSpace(strings.Join(p.f[1:], " "))})
		return "DO", true, nil
	case "set":
		if s.changes == nil {
			s.changes = map[string]string{}
		}
		s.changes[p.f[1]] = p.f[2]
		if s.settings == nil {
			s.settings = map[string]string{}
		}
		s.settings[p.f[1]] = p.f[2]
		return "SET", true, nil
	case "sleep":
		<-ctx.Done()
		return "", true, s.fail(pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request"))
	case "panic":
		panic("fake backend panic")
	}
	return "", true, s.fail(pgerr.New(pgerr.SyntaxError, "syntax error at or near \"%s\"", p.f[0]))
}

func (p *fakePortal) CopyFormat() (string, int) {
	if len(p.f) > 1 && p.f[1] == "binary" {
		return "binary", 2
	}
	return "text", 2
}

func (p *fakePortal) CopyFrom(ctx context.Context, r io.Reader) (string, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return "", p.s.fail(err)
	}
	p.s.b.mu.Lock()
	p.s.b.copied = append(p.s.b.copied, string(data))
	p.s.b.mu.Unlock()
	if format, _ := p.CopyFormat(); format == "binary" {
		return fmt.Sprintf("COPY %d", len(data)), nil
	}
	n := 0
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for sc.Scan() {
		if sc.Text() == "bad" {
			return "", p.s.fail(pgerr.New(pgerr.BadCopyFileFormat, "bad copy data"))
		}
		n++
	}
	return fmt.Sprintf("COPY %d", n), nil
}

func (p *fakePortal) Close() {}
