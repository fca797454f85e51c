package pgxtest

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math/rand"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

// addrOf returns host:port of a DSN made by startServer.
func addrOf(t *testing.T, dsn string) string {
	t.Helper()
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	return net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
}

// writeAndDrain sends raw bytes on a fresh connection (ignoring write errors:
// the server may close first), closes its sending side and reads until the
// server closes the connection, which it must do within the deadline.
// Without endStream the connection stays open for writing: the server must
// close it on what it has read.
func writeAndDrain(t *testing.T, addr string, data []byte, endStream bool) []byte {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(30 * time.Second))
	wrote := make(chan struct{})
	defer func() { nc.Close(); <-wrote }() // data is not written after return
	go func() {
		defer close(wrote)
		// Then end the stream, as `head -c N /dev/urandom | nc` does: a
		// message whose claimed length runs past the data is cut short.
		_, _ = nc.Write(data)
		if endStream {
			_ = nc.(*net.TCPConn).CloseWrite()
		}
	}()
	out, err := io.ReadAll(nc)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("server kept the connection open after %d bad bytes (read %d bytes)", len(data), len(out))
	}
	return out
}

// checkServes runs a query on a new connection.
func checkServes(t *testing.T, dsn string) {
	t.Helper()
	conn := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	var n int
	if err := conn.QueryRow(testCtx(t), "select 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("server no longer serves: %v", err)
	}
}

// TestRandomBytesOnPort: garbage instead of a startup packet, and garbage
// after a valid startup, each closes only that connection; the server goes
// on serving, and a session that was open before is unaffected.
func TestRandomBytesOnPort(t *testing.T) {
	dsn := startServer(t)
	addr := addrOf(t, dsn)
	before := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, before, "create table abuse_keep (id int primary key)")
	mustExec(t, before, "insert into abuse_keep values (1)")

	rng := rand.New(rand.NewSource(1))
	for i := range 8 {
		data := make([]byte, 100000)
		rng.Read(data)
		writeAndDrain(t, addr, data, true)

		// The same after a valid start-up packet: the message loop sees it.
		start, _ := (&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
			Parameters: map[string]string{"user": "postgres", "database": "postgres"}}).Encode(nil)
		rng.Read(data)
		if i%2 == 1 {
			// Start with a plausible message type so the length is what is wrong.
			data[0] = 'Q'
		}
		// The answer is a protocol-violation FATAL or, for bytes that happen
		// to form messages, their replies; never an internal error.
		out := writeAndDrain(t, addr, append(start, data...), true)
		if strings.Contains(string(out), "XX000") {
			t.Fatalf("internal error answering random bytes: %q", out)
		}
	}
	checkServes(t, dsn)
	var n int
	if err := before.QueryRow(testCtx(t), "select count(*) from abuse_keep").Scan(&n); err != nil || n != 1 {
		t.Fatalf("existing session: %d %v", n, err)
	}
}

// TestHugeStartupLength: a start-up packet that claims a huge (or too
// small) length is refused with 08P01 without waiting for (or allocating)
// the claimed bytes.
func TestHugeStartupLength(t *testing.T) {
	dsn := startServer(t)
	addr := addrOf(t, dsn)
	for _, n := range []uint32{0x7fffffff, 0xffffffff, 10001, 1 << 30, 4, 0} {
		pkt := make([]byte, 8)
		binary.BigEndian.PutUint32(pkt, n)
		binary.BigEndian.PutUint32(pkt[4:], 3<<16)
		out := writeAndDrain(t, addr, pkt, false)
		if !strings.Contains(string(out), "invalid length of startup packet") {
			t.Errorf("length %d: got %q", n, out)
		}
	}
	// A huge length on a regular message after start-up.
	start, _ := (&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "postgres"}}).Encode(nil)
	out := writeAndDrain(t, addr, append(start, 'Q', 0x7f, 0xff, 0xff, 0xff), false)
	if !strings.Contains(string(out), "08P01") {
		t.Errorf("huge Query length: got %q", out)
	}
	checkServes(t, dsn)
}

// hijack opens a connection and takes over its socket and message stream.
func hijack(t *testing.T, dsn string) *pgconn.HijackedConn {
	t.Helper()
	pc, err := pgconn.Connect(testCtx(t), dsn)
	if err != nil {
		t.Fatal(err)
	}
	hc, err := pc.Hijack()
	if err != nil {
		t.Fatal(err)
	}
	_ = hc.Conn.SetDeadline(time.Now().Add(60 * time.Second))
	return hc
}

// sendUntil sends msgs and reads replies until one of type want arrives.
func sendUntil[T pgproto3.BackendMessage](t *testing.T, hc *pgconn.HijackedConn, msgs ...pgproto3.FrontendMessage) {
	t.Helper()
	for _, m := range msgs {
		hc.Frontend.Send(m)
	}
	if err := hc.Frontend.Flush(); err != nil {
		t.Fatal(err)
	}
	for {
		msg, err := hc.Frontend.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := msg.(*pgproto3.ErrorResponse); ok {
			t.Fatalf("%s: %s", e.Code, e.Message)
		}
		if _, ok := msg.(T); ok {
			return
		}
	}
}

func count(t *testing.T, conn *pgx.Conn, table string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(testCtx(t), "select count(*) from "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDisconnectMidCopy: a client that vanishes in the middle of COPY FROM
// STDIN (in autocommit and inside BEGIN) leaves none of its rows visible,
// and the table stays usable.
func TestDisconnectMidCopy(t *testing.T) {
	dsn := startServer(t)
	conn := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, conn, "create table abuse_copy (id int primary key, v text)")
	for _, inTx := range []bool{false, true} {
		hc := hijack(t, dsn)
		if inTx {
			sendUntil[*pgproto3.ReadyForQuery](t, hc, &pgproto3.Query{String: "begin; insert into abuse_copy values (-1, 'tx')"})
		}
		sendUntil[*pgproto3.CopyInResponse](t, hc, &pgproto3.Query{String: "copy abuse_copy from stdin"})
		var sb strings.Builder
		for i := range 5000 {
			sb.WriteString(strconv.Itoa(i) + "\trow\n")
		}
		hc.Frontend.Send(&pgproto3.CopyData{Data: []byte(sb.String())})
		hc.Frontend.Send(&pgproto3.CopyData{Data: []byte("5000\tpartial li")})
		if err := hc.Frontend.Flush(); err != nil {
			t.Fatal(err)
		}
		hc.Conn.Close() // no CopyDone, no Terminate

		if n := count(t, conn, "abuse_copy"); n != 0 {
			t.Fatalf("inTx=%v: %d rows of an unfinished COPY are visible", inTx, n)
		}
		// The keys the COPY inserted become free: a new row with the same
		// key waits for the vanished transaction at most until it aborts.
		// (One key per statement: the server may still be reading the
		// COPY's buffered data, and a statement holding one key while
		// waiting for another could deadlock with it, as in PostgreSQL.)
		for _, key := range []int{1, 4999, -1} {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			_, err := conn.Exec(ctx, "insert into abuse_copy values ($1, 'after')", key)
			cancel()
			if err != nil {
				t.Fatalf("inTx=%v: insert %d after the vanished COPY: %v", inTx, key, err)
			}
		}
		if n := count(t, conn, "abuse_copy"); n != 3 {
			t.Fatalf("inTx=%v: %d rows, want 3", inTx, n)
		}
		mustExec(t, conn, "delete from abuse_copy")
	}
	mustExec(t, conn, "vacuum abuse_copy")
	if n := count(t, conn, "abuse_copy"); n != 0 {
		t.Fatalf("%d rows after vacuum", n)
	}
}

// TestDisconnectMidTransaction: a client that vanishes holding row locks in
// an open transaction releases them (a waiting writer proceeds), and none
// of its changes become visible.
func TestDisconnectMidTransaction(t *testing.T) {
	dsn := startServer(t)
	conn := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	mustExec(t, conn, "create table abuse_tx (id int primary key, n int not null)")
	mustExec(t, conn, "insert into abuse_tx values (1, 0), (2, 0), (3, 0)")

	hc := hijack(t, dsn)
	sendUntil[*pgproto3.ReadyForQuery](t, hc, &pgproto3.Query{String: "begin; " +
		"update abuse_tx set n = n + 100 where id = 1; " +
		"delete from abuse_tx where id = 2; " +
		"select * from abuse_tx where id = 3 for update; " +
		"insert into abuse_tx values (4, 100)"})

	// Writers that must wait for the open transaction.
	other := connect(t, dsn, pgx.QueryExecModeSimpleProtocol)
	third := connect(t, dsn, pgx.QueryExecModeCacheStatement)
	type result struct {
		tag string
		err error
	}
	waits := []struct {
		conn *pgx.Conn
		sql  string
		ch   chan result
	}{
		{other, "update abuse_tx set n = n + 1 where id = 1", make(chan result, 1)},
		{third, "update abuse_tx set n = n + 1 where id = 2", make(chan result, 1)},
	}
	for _, w := range waits {
		go func() {
			tag, err := w.conn.Exec(testCtx(t), w.sql)
			w.ch <- result{tag.String(), err}
		}()
	}
	// Both writers are blocked while the transaction is open.
	for _, w := range waits {
		select {
		case r := <-w.ch:
			t.Fatalf("%s did not wait for the open transaction: %v %v", w.sql, r.tag, r.err)
		case <-time.After(200 * time.Millisecond):
		}
	}
	if n := count(t, conn, "abuse_tx where n = 100 or id = 4"); n != 0 {
		t.Fatalf("uncommitted changes visible: %d", n)
	}
	hc.Conn.Close() // vanish without COMMIT or Terminate

	for _, w := range waits {
		select {
		case r := <-w.ch:
			if r.err != nil || r.tag != "UPDATE 1" {
				t.Fatalf("%s: %v %v", w.sql, r.tag, r.err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s still waits after the lock holder disconnected", w.sql)
		}
	}
	// Row 3 was locked FOR UPDATE: free now.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := conn.Exec(ctx, "update abuse_tx set n = n + 1 where id = 3"); err != nil {
		t.Fatal(err)
	}
	rows, err := conn.Query(testCtx(t), "select id, n from abuse_tx order by id")
	if err != nil {
		t.Fatal(err)
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]int, error) {
		var v [2]int
		err := r.Scan(&v[0], &v[1])
		return v, err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{1, 1}, {2, 1}, {3, 1}}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("rows %v, want %v", got, want)
	}
	// The vanished transaction's key 4 is free.
	mustExec(t, conn, "insert into abuse_tx values (4, 0)")
}
