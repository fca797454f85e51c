package server

import (
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// Benchmarks of the wire layer alone (fake backend): one round trip per
// iteration over loopback TCP, with the connection reading in blocking mode
// (as a lone client's connection does) and through the poller. The client
// runs in the same process: its goroutine and the server's share one
// scheduler, whose spinning threads often catch the other side's message
// without sleeping, which favours the poller here; a client in a process of
// its own (cmd/minipg-bench rt) sees the opposite.

func benchRoundTrip(b *testing.B, msgs ...pgproto3.FrontendMessage) {
	for _, mode := range []struct {
		name       string
		quietReads int
	}{{"blocking", 1}, {"poller", -1}} {
		b.Run(mode.name, func(b *testing.B) {
			ts := startTestServer(b, func(cfg *Config) { cfg.quietReads = mode.quietReads })
			c, _ := ts.connect()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				for _, m := range msgs {
					c.fe.Send(m)
				}
				if err := c.fe.Flush(); err != nil {
					b.Fatal(err)
				}
				for {
					msg, err := c.fe.Receive()
					if err != nil {
						b.Fatal(err)
					}
					if _, ok := msg.(*pgproto3.ReadyForQuery); ok {
						break
					}
				}
			}
		})
	}
}

func BenchmarkSimpleQuery(b *testing.B) {
	benchRoundTrip(b, &pgproto3.Query{String: "rows 1"})
}

func BenchmarkExtendedBindExecute(b *testing.B) {
	benchRoundTrip(b, &pgproto3.Parse{Query: "echo $1"}, &pgproto3.Bind{Parameters: [][]byte{{0, 0, 0, 1}}, ParameterFormatCodes: []int16{1}, ResultFormatCodes: []int16{1}},
		&pgproto3.Execute{}, &pgproto3.Sync{})
}

func BenchmarkRows1000(b *testing.B) {
	benchRoundTrip(b, &pgproto3.Query{String: "rows 1000"})
}
