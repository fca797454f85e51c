package server

import (
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

func TestParseMillis(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"0": 0, "250": 250 * time.Millisecond, "250ms": 250 * time.Millisecond, "5s": 5 * time.Second,
		"2min": 2 * time.Minute, "1h": time.Hour, "1d": 24 * time.Hour, "x": 0, "5 s": 5 * time.Second, "5y": 0,
	} {
		if got := ParseMillis(in); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

// TestTimeoutsWire: statement_timeout cuts a statement with its own
// message; idle_in_transaction_session_timeout is armed after
// ReadyForQuery only, so a slow extended-protocol batch inside a
// transaction block is not cut, but waiting after its Sync is.
func TestTimeoutsWire(t *testing.T) {
	ts := startTestServer(t, nil)
	c, _ := ts.connect()
	c.send(&pgproto3.Query{String: "set statement_timeout 100ms"})
	expect(t, c.untilReady(), "CommandComplete SET", "ParameterStatus statement_timeout=100ms", "ReadyForQuery I")
	c.send(&pgproto3.Query{String: "sleep"})
	expect(t, c.untilReady(), "ErrorResponse ERROR 57014 canceling statement due to statement timeout", "ReadyForQuery I")
	c.send(&pgproto3.Parse{Query: "sleep"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "BindComplete",
		"ErrorResponse ERROR 57014 canceling statement due to statement timeout", "ReadyForQuery I")

	c.send(&pgproto3.Query{String: "set idle_in_transaction_session_timeout 200; begin"})
	expect(t, c.untilReady(), "CommandComplete SET", "CommandComplete BEGIN",
		"ParameterStatus idle_in_transaction_session_timeout=200", "ReadyForQuery T")
	c.send(&pgproto3.Query{String: "rows 1"})
	expect(t, c.untilReady(), "RowDescription i:23:0,s:25:0", "DataRow 1|row 1", "CommandComplete SELECT 1", "ReadyForQuery T")
	c.send(&pgproto3.Parse{Query: "rows 1"}, &pgproto3.Bind{})
	time.Sleep(400 * time.Millisecond) // between messages of a batch: no timeout
	c.send(&pgproto3.Execute{}, &pgproto3.Sync{})
	expect(t, c.untilReady(), "ParseComplete", "BindComplete", "DataRow 1|row 1", "CommandComplete SELECT 1", "ReadyForQuery T")
	start := time.Now()
	expect(t, c.untilClosed(), "ErrorResponse FATAL 25P03 terminating connection due to idle-in-transaction timeout")
	if took := time.Since(start); took < 150*time.Millisecond {
		t.Fatalf("ended after %v", took)
	}
}
