package executor

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"minipg/pgerr"
	"minipg/types"
)

// exec runs one statement with parameters through Prepare/Bind/Run and
// returns its rows and tag.
func exec(t testing.TB, s *Session, q string, params ...types.Datum) ([][]types.Datum, string, error) {
	t.Helper()
	p, err := s.Prepare(q, nil)
	if err != nil {
		return nil, "", err
	}
	pt, err := s.Bind(p, params)
	if err != nil {
		return nil, "", err
	}
	defer pt.Close()
	var rows [][]types.Datum
	tag, _, err := pt.Run(context.Background(), 0, func(row []types.Datum) error {
		rows = append(rows, append([]types.Datum(nil), row...))
		return nil
	})
	return rows, tag, err
}

func mustExec(t testing.TB, s *Session, q string, params ...types.Datum) ([][]types.Datum, string) {
	t.Helper()
	rows, tag, err := exec(t, s, q, params...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if err := s.Sync(); err != nil {
		t.Fatalf("%s: sync: %v", q, err)
	}
	return rows, tag
}

func TestExtendedProtocol(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(map[string]string{"user": "postgres", "application_name": "test"})
	defer s.Close()
	ps := s.ParamStatusChanges()
	if ps["server_version"] == "" || ps["application_name"] != "test" || ps["DateStyle"] != "ISO, MDY" {
		t.Errorf("initial parameter status %v", ps)
	}
	mustExec(t, s, "CREATE TABLE kv (k int PRIMARY KEY, v varchar(20), n bigint)")
	p, err := s.Prepare("INSERT INTO kv VALUES ($1, $2, $3)", nil)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(p.ParamTypes) != fmt.Sprint([]types.OID{types.Int4, types.Varchar, types.Int8}) || p.Columns != nil {
		t.Fatalf("param types %v columns %v", p.ParamTypes, p.Columns)
	}
	for i := 1; i <= 10; i++ {
		pt, err := s.Bind(p, []types.Datum{int64(i), fmt.Sprintf("v%d", i), int64(i * 100)})
		if err != nil {
			t.Fatal(err)
		}
		tag, done, err := pt.Run(context.Background(), 0, func([]types.Datum) error { return nil })
		if err != nil || !done || tag != "INSERT 0 1" {
			t.Fatalf("insert %d: %q %v %v", i, tag, done, err)
		}
		pt.Close()
		if err := s.Sync(); err != nil {
			t.Fatal(err)
		}
	}
	// Row limit and suspension.
	p, err = s.Prepare("SELECT k, v FROM kv WHERE k > $1 ORDER BY k", nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ParamTypes[0] != types.Int4 || len(p.Columns) != 2 || p.Columns[1].Type.OID != types.Varchar || p.Columns[0].AttNum != 1 {
		t.Fatalf("describe: %v %+v", p.ParamTypes, p.Columns)
	}
	pt, err := s.Bind(p, []types.Datum{int64(3)})
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	emit := func(row []types.Datum) error { got = append(got, row[0].(int64)); return nil }
	tag, done, err := pt.Run(context.Background(), 3, emit)
	if err != nil || done || tag != "" || len(got) != 3 {
		t.Fatalf("first batch: %q %v %v %v", tag, done, err, got)
	}
	tag, done, err = pt.Run(context.Background(), 0, emit)
	if err != nil || !done || tag != "SELECT 7" || len(got) != 7 || got[6] != 10 {
		t.Fatalf("rest: %q %v %v %v", tag, done, err, got)
	}
	pt.Close()
	s.Sync()
	// Parameter errors.
	rows, _ := mustExec(t, s, "SELECT n + $1 FROM kv WHERE k = $2", int64(1), int64(5))
	if len(rows) != 1 || rows[0][0].(int64) != 501 {
		t.Fatalf("param arithmetic %v", rows)
	}
	rows, _ = mustExec(t, s, "SELECT count(*) FROM kv LIMIT $1", int64(1))
	if rows[0][0].(int64) != 10 {
		t.Fatalf("count %v", rows)
	}
	// Stale prepared statement after DDL is rebound.
	p, err = s.Prepare("SELECT count(*) FROM kv", nil)
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, s, "CREATE INDEX kv_v ON kv (v)")
	pt, err = s.Bind(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	pt.Run(context.Background(), 0, func([]types.Datum) error { return nil })
	pt.Close()
	s.Sync()
	rows, _ = mustExec(t, s, "SELECT k FROM kv WHERE v = $1", "v7")
	if len(rows) != 1 || rows[0][0].(int64) != 7 {
		t.Fatalf("index lookup %v", rows)
	}
}

func TestTxStatusAndNotices(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	defer s.Close()
	step := func(q string, wantStatus byte, wantCode pgerr.Code) {
		t.Helper()
		_, _, err := exec(t, s, q)
		if pgerr.CodeOf(err) != wantCode && !(err == nil && wantCode == "") {
			t.Fatalf("%s: err %v, want %s", q, err, wantCode)
		}
		if s.TxStatus() != wantStatus {
			t.Fatalf("%s: status %c, want %c", q, s.TxStatus(), wantStatus)
		}
	}
	step("BEGIN", 'T', "")
	step("BEGIN", 'T', "")
	if n := s.TakeNotices(); len(n) != 1 || n[0].Code != pgerr.ActiveSQLTransaction || n[0].Severity != pgerr.SeverityWarning {
		t.Fatalf("notices %v", n)
	}
	step("SELECT 1/0", 'E', pgerr.DivisionByZero)
	step("SELECT 1", 'E', pgerr.InFailedSQLTransaction)
	_, tag, err := exec(t, s, "COMMIT")
	if err != nil || tag != "ROLLBACK" || s.TxStatus() != 'I' {
		t.Fatalf("commit of failed tx: %q %v %c", tag, err, s.TxStatus())
	}
	step("COMMIT", 'I', "")
	if n := s.TakeNotices(); len(n) != 1 || n[0].Code != pgerr.NoActiveSQLTransaction {
		t.Fatalf("notices %v", n)
	}
	if _, err := s.Prepare("SELECT 1", nil); err != nil {
		t.Fatal(err)
	}
}

// TestConcurrentIncrements: 32 sessions increment the same rows; READ
// COMMITTED waits and rechecks so that no increment is lost.
func TestConcurrentIncrements(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE c (id int PRIMARY KEY, n int NOT NULL)")
	mustExec(t, s, "INSERT INTO c VALUES (1, 0), (2, 0), (3, 0)")
	const workers, iters = 32, 20
	if testing.Short() {
		// still concurrent, fewer rounds
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ss := e.NewSession(nil)
			defer ss.Close()
			for i := 0; i < iters; i++ {
				id := int64(1 + (w+i)%3)
				_, tag, err := exec(t, ss, "UPDATE c SET n = n + 1 WHERE id = $1", id)
				if err == nil {
					err = ss.Sync()
				}
				if err != nil || tag != "UPDATE 1" {
					errs <- fmt.Errorf("worker %d: %q %v", w, tag, err)
					ss.Sync()
					return
				}
			}
			// A transaction block with two statements.
			for _, q := range []string{"BEGIN", "UPDATE c SET n = n + 1 WHERE id = 1", "UPDATE c SET n = n + 1 WHERE id = 2", "COMMIT"} {
				if _, _, err := exec(t, ss, q); err != nil {
					errs <- fmt.Errorf("worker %d: %s: %v", w, q, err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	rows, _ := mustExec(t, s, "SELECT sum(n), count(*) FROM c")
	want := int64(workers*iters + 2*workers)
	if rows[0][0].(int64) != want || rows[0][1].(int64) != 3 {
		t.Fatalf("sum %v count %v, want %d 3", rows[0][0], rows[0][1], want)
	}
}

// TestConcurrentUniqueInsert: sessions racing to insert the same keys get
// exactly one success per key and 23505 for the rest.
func TestConcurrentUniqueInsert(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE u (id int PRIMARY KEY, w int)")
	const workers, keys = 8, 30
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, dup := 0, 0
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			ss := e.NewSession(nil)
			defer ss.Close()
			for k := 0; k < keys; k++ {
				_, _, err := exec(t, ss, "INSERT INTO u VALUES ($1, $2)", int64(k), int64(w))
				ss.Sync()
				mu.Lock()
				switch {
				case err == nil:
					ok++
				case pgerr.CodeOf(err) == pgerr.UniqueViolation:
					dup++
				default:
					t.Errorf("insert: %v", err)
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	if ok != keys || dup != keys*(workers-1) {
		t.Fatalf("ok %d dup %d", ok, dup)
	}
	rows, _ := mustExec(t, s, "SELECT count(*) FROM u")
	if rows[0][0].(int64) != keys {
		t.Fatalf("rows %v", rows)
	}
}

func TestCancel(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE big (a int)")
	mustExec(t, s, "INSERT INTO big VALUES (1),(2),(3),(4),(5),(6),(7),(8)")
	for i := 0; i < 7; i++ {
		mustExec(t, s, "INSERT INTO big SELECT a FROM big")
	}
	p, err := s.Prepare("SELECT a FROM big", nil)
	if err != nil {
		t.Fatal(err)
	}
	pt, _ := s.Bind(p, nil)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, _, err = pt.Run(ctx, 0, func([]types.Datum) error {
		n++
		if n == 10 {
			cancel()
		}
		return nil
	})
	pt.Close()
	if pgerr.CodeOf(err) != pgerr.QueryCanceled {
		t.Fatalf("got %v after %d rows", err, n)
	}
	s.Sync()
	// A blocked update is cancelled too.
	s2 := e.NewSession(nil)
	mustExec(t, s, "BEGIN")
	if _, _, err := exec(t, s, "UPDATE big SET a = 0 WHERE a = 1"); err != nil {
		t.Fatal(err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		p, _ := s2.Prepare("UPDATE big SET a = 5 WHERE a = 1", nil)
		pt, _ := s2.Bind(p, nil)
		_, _, err := pt.Run(ctx2, 0, func([]types.Datum) error { return nil })
		pt.Close()
		done <- err
	}()
	for len(e.txns.Running()) < 2 { // wait until s2's update has an xid (it is about to block)
		select {
		case err := <-done: // it cannot finish before s rolls back: fail rather than spin forever
			t.Fatalf("blocked update returned at once: %v", err)
		default:
		}
		runtime.Gosched()
	}
	time.Sleep(20 * time.Millisecond)
	cancel2()
	if err := <-done; pgerr.CodeOf(err) != pgerr.QueryCanceled {
		t.Fatalf("blocked update: %v", err)
	}
	s2.Sync()
	mustExec(t, s, "ROLLBACK")
}

func TestCopyBinary(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE cb (id int PRIMARY KEY, name text, n numeric(6,2))")
	var buf []byte
	buf = append(buf, binarySignature...)
	buf = append(buf, 0, 0, 0, 0, 0, 0, 0, 0)
	for i := 1; i <= 3; i++ {
		buf = append(buf, 0, 3)
		id, _ := types.EncodeBinary(types.TInt4, int64(i))
		buf = appendField(buf, id)
		name, _ := types.EncodeBinary(types.TText, strings.Repeat("x", i))
		buf = appendField(buf, name)
		if i == 2 {
			buf = append(buf, 0xff, 0xff, 0xff, 0xff)
		} else {
			num, _ := types.EncodeBinary(types.TNumeric, mustParse(t, types.TNumeric, "1.25"))
			buf = appendField(buf, num)
		}
	}
	buf = append(buf, 0xff, 0xff)
	p, err := s.Prepare("COPY cb FROM STDIN WITH (FORMAT binary)", nil)
	if err != nil || !p.IsCopyFrom {
		t.Fatal(err)
	}
	pt, _ := s.Bind(p, nil)
	if f, n := pt.CopyFormat(); f != "binary" || n != 3 {
		t.Fatalf("format %s %d", f, n)
	}
	tag, err := pt.CopyFrom(context.Background(), strings.NewReader(string(buf)))
	if err != nil || tag != "COPY 3" {
		t.Fatalf("%q %v", tag, err)
	}
	s.Sync()
	rows, _ := mustExec(t, s, "SELECT id, name, n FROM cb ORDER BY id")
	if len(rows) != 3 || rows[1][2] != nil || rows[2][1] != "xxx" {
		t.Fatalf("rows %v", rows)
	}
}

func appendField(buf, b []byte) []byte {
	n := len(b)
	buf = append(buf, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	return append(buf, b...)
}

func mustParse(t testing.TB, ty types.T, s string) types.Datum {
	v, err := types.ParseText(ty, s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestReadCommittedRecheck: a writer blocked on a row re-evaluates its WHERE
// clause on the row's newest version (EvalPlanQual).
func TestReadCommittedRecheck(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s1, s2 := e.NewSession(nil), e.NewSession(nil)
	mustExec(t, s1, "CREATE TABLE rc (id int PRIMARY KEY, n int)")
	mustExec(t, s1, "INSERT INTO rc VALUES (1, 0), (2, 0), (3, 0)")
	blocked := func(s *Session, q string) chan string {
		ch := make(chan string, 1)
		go func() {
			_, tag, err := exec(t, s, q)
			if err != nil {
				tag = "ERROR " + string(pgerr.CodeOf(err))
			}
			s.Sync()
			ch <- tag
		}()
		return ch
	}
	waitBlocked := func(q string, ch chan string) {
		// Both transactions have xids once s2's statement is waiting. It
		// cannot finish before s1 commits: fail rather than spin forever.
		for len(e.txns.Running()) < 2 {
			select {
			case got := <-ch:
				t.Fatalf("%s returned without waiting: %s", q, got)
			default:
			}
			runtime.Gosched()
		}
	}
	steps := []struct {
		first, second, want string
		final               int64 // n of row id after both
		id                  int64
	}{
		// The update no longer qualifies: n is not 0 any more.
		{"UPDATE rc SET n = 1 WHERE id = 1", "UPDATE rc SET n = n + 10 WHERE id = 1 AND n = 0", "UPDATE 0", 1, 1},
		// Still qualifies: applied on top of the committed version.
		{"UPDATE rc SET n = 5 WHERE id = 2", "UPDATE rc SET n = n + 10 WHERE id = 2 AND n >= 0", "UPDATE 1", 15, 2},
		// Deleted meanwhile: nothing to update.
		{"DELETE FROM rc WHERE id = 3", "UPDATE rc SET n = 7 WHERE id = 3", "UPDATE 0", -1, 3},
	}
	for _, st := range steps {
		mustExec(t, s1, "BEGIN")
		if _, _, err := exec(t, s1, st.first); err != nil {
			t.Fatal(err)
		}
		ch := blocked(s2, st.second)
		waitBlocked(st.second, ch)
		mustExec(t, s1, "COMMIT")
		if got := <-ch; got != st.want {
			t.Errorf("%s after %s: %s, want %s", st.second, st.first, got, st.want)
		}
		rows, _ := mustExec(t, s1, "SELECT n FROM rc WHERE id = $1", st.id)
		if st.final < 0 {
			if len(rows) != 0 {
				t.Errorf("row %d still there: %v", st.id, rows)
			}
		} else if len(rows) != 1 || rows[0][0].(int64) != st.final {
			t.Errorf("row %d: %v, want %d", st.id, rows, st.final)
		}
	}
}

// TestDeadlock: two transactions updating two rows in opposite orders; one
// of them gets 40P01 and the other completes.
func TestDeadlock(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s1, s2 := e.NewSession(nil), e.NewSession(nil)
	mustExec(t, s1, "CREATE TABLE dl (id int PRIMARY KEY, n int)")
	mustExec(t, s1, "INSERT INTO dl VALUES (1, 0), (2, 0)")
	mustExec(t, s1, "BEGIN")
	mustExec(t, s2, "BEGIN")
	if _, _, err := exec(t, s1, "UPDATE dl SET n = 1 WHERE id = 1"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := exec(t, s2, "UPDATE dl SET n = 2 WHERE id = 2"); err != nil {
		t.Fatal(err)
	}
	// Each side ends its transaction as soon as its statement returns, so
	// the survivor can go on.
	run := func(s *Session, q string, ch chan error) {
		_, _, err := exec(t, s, q)
		if err != nil {
			exec(t, s, "ROLLBACK")
		} else {
			exec(t, s, "COMMIT")
		}
		ch <- err
	}
	ch1, ch2 := make(chan error, 1), make(chan error, 1)
	go run(s1, "UPDATE dl SET n = 1 WHERE id = 2", ch1)
	go run(s2, "UPDATE dl SET n = 2 WHERE id = 1", ch2)
	err1, err2 := <-ch1, <-ch2
	if !((err1 == nil && pgerr.CodeOf(err2) == pgerr.DeadlockDetected) || (err2 == nil && pgerr.CodeOf(err1) == pgerr.DeadlockDetected)) {
		t.Fatalf("errors %v / %v", err1, err2)
	}
	rows, _ := mustExec(t, s1, "SELECT sum(n) FROM dl")
	if got := rows[0][0].(int64); got != 2 && got != 4 {
		t.Fatalf("sum %d", got)
	}
}
