package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"minipg/types"
)

func BenchmarkInsertRow(b *testing.B) {
	e := openTestEngine(b, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(b, s, "CREATE TABLE bi (id int PRIMARY KEY, v text, n numeric(8,2))")
	p, err := s.Prepare("INSERT INTO bi VALUES ($1, $2, $3)", nil)
	if err != nil {
		b.Fatal(err)
	}
	num := mustParse(b, types.TNumeric, "12.50")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pt, err := s.Bind(p, []types.Datum{int64(i), "some text value", num})
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := pt.Run(context.Background(), 0, func([]types.Datum) error { return nil }); err != nil {
			b.Fatal(err)
		}
		pt.Close()
		if err := s.Sync(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPKSelect(b *testing.B) {
	e := openTestEngine(b, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(b, s, "CREATE TABLE bs (id int PRIMARY KEY, v text)")
	var sb strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&sb, "%d\tvalue %d\n", i, i)
	}
	mustCopy(b, s, "COPY bs FROM STDIN", []byte(sb.String()))
	p, err := s.Prepare("SELECT id, v FROM bs WHERE id = $1", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pt, err := s.Bind(p, []types.Datum{int64(i % 10000)})
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		if _, _, err := pt.Run(context.Background(), 0, func([]types.Datum) error { n++; return nil }); err != nil || n != 1 {
			b.Fatal(err, n)
		}
		pt.Close()
		s.Sync()
	}
}

func BenchmarkCopyText(b *testing.B) {
	e := openTestEngine(b, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(b, s, "CREATE TABLE bc (id int, v text, n int)")
	var sb strings.Builder
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&sb, "%d\tvalue %d\t%d\n", i, i, i*7)
	}
	data := sb.String()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mustCopy(b, s, "COPY bc FROM STDIN", []byte(data))
	}
	b.ReportMetric(float64(b.N*10000)/b.Elapsed().Seconds(), "rows/s")
}
