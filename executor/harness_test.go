package executor

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"minipg/internal/testutil"
	"minipg/pgerr"
	"minipg/types"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata expectations")

func openTestEngine(t testing.TB, dir string) *Engine {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	e, err := Open(Config{DataDir: dir, SharedBuffers: 4 << 20, Settings: testutil.IndexStorageSettings(nil)}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	// Also closed when the test fails before its own Close: no checkpointer
	// outlives its test. Close is idempotent.
	t.Cleanup(func() { e.Close() })
	return e
}

// runSimple runs a query string the way the simple query protocol does
// (statements in order, stop at the first error, then Sync) and renders
// everything the client would see.
func runSimple(s *Session, query string, copyData string) string {
	var out strings.Builder
	stmts, err := SplitQuery(query)
	if err != nil {
		renderErr(&out, err)
		s.Sync()
		return out.String()
	}
	if len(stmts) == 0 {
		out.WriteString("EMPTY\n")
	}
	for _, q := range stmts {
		err := runOne(s, q, copyData, &out)
		for _, n := range s.TakeNotices() {
			fmt.Fprintf(&out, "%s %s: %s\n", n.Severity, n.Code, n.Message)
		}
		if err != nil {
			renderErr(&out, err)
			break
		}
	}
	if err := s.Sync(); err != nil {
		renderErr(&out, err)
	}
	return out.String()
}

func renderErr(out *strings.Builder, err error) {
	code := pgerr.CodeOf(err)
	fmt.Fprintf(out, "ERROR %s: %s\n", code, err.Error())
	if pe, ok := err.(*pgerr.Error); ok && pe.Detail != "" {
		fmt.Fprintf(out, "DETAIL: %s\n", pe.Detail)
	}
}

func runOne(s *Session, q, copyData string, out *strings.Builder) error {
	p, err := s.Prepare(q, nil)
	if err != nil {
		return err
	}
	if p == nil {
		out.WriteString("EMPTY\n")
		return nil
	}
	pt, err := s.Bind(p, nil)
	if err != nil {
		return err
	}
	defer pt.Close()
	if p.IsCopyFrom {
		tag, err := pt.CopyFrom(context.Background(), strings.NewReader(copyData))
		if err != nil {
			return err
		}
		out.WriteString(tag + "\n")
		return nil
	}
	if p.Columns != nil {
		var names []string
		for _, c := range p.Columns {
			names = append(names, c.Name)
		}
		out.WriteString(strings.Join(names, "|") + "\n")
	}
	tag, _, err := pt.Run(context.Background(), 0, func(row []types.Datum) error {
		out.WriteString(formatRow(p.Columns, row) + "\n")
		return nil
	})
	if err != nil {
		return err
	}
	out.WriteString(tag + "\n")
	return nil
}

func formatRow(cols []Column, row []types.Datum) string {
	parts := make([]string, len(row))
	for i, v := range row {
		if v == nil {
			parts[i] = "NULL"
		} else {
			parts[i] = types.FormatText(cols[i].Type, v)
		}
	}
	if line := strings.Join(parts, "|"); line != "" {
		return line
	}
	return "(empty)"
}

// TestScripts runs testdata/*.txt: blocks of
//
//	sql [copy]
//	<statements>
//	[<copy data> after a line "<copy>"]
//	----
//	<expected output>
//
// separated by blank lines. Each file gets a fresh engine and one session;
// "restart" closes and reopens the engine on the same directory.
func TestScripts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txt"), func(t *testing.T) { runScript(t, f) })
	}
}

func runScript(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	e := openTestEngine(t, dir)
	defer func() { e.Close() }()
	s := e.NewSession(map[string]string{"user": "postgres"})
	var rewritten bytes.Buffer
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); {
		if strings.TrimSpace(lines[i]) == "" || strings.HasPrefix(lines[i], "#") {
			rewritten.WriteString(lines[i] + "\n")
			i++
			continue
		}
		cmd := lines[i]
		start := i
		i++
		var body []string
		for i < len(lines) && lines[i] != "----" {
			body = append(body, lines[i])
			i++
		}
		i++ // ----
		var want []string
		for i < len(lines) && lines[i] != "" {
			want = append(want, lines[i])
			i++
		}
		query := strings.Join(body, "\n")
		copyData := ""
		if k := strings.Index(query, "\n<copy>\n"); k >= 0 {
			copyData = query[k+len("\n<copy>\n"):] + "\n"
			query = query[:k]
		}
		var got string
		switch strings.Fields(cmd)[0] {
		case "sql":
			got = runSimple(s, query, copyData)
		case "restart":
			s.Close()
			if err := e.Close(); err != nil {
				t.Fatalf("close: %v", err)
			}
			e = openTestEngine(t, dir)
			s = e.NewSession(map[string]string{"user": "postgres"})
			got = "ok\n"
		default:
			t.Fatalf("%s:%d: unknown command %q", path, start+1, cmd)
		}
		got = strings.TrimSuffix(got, "\n")
		rewritten.WriteString(cmd + "\n")
		for _, b := range body {
			rewritten.WriteString(b + "\n")
		}
		rewritten.WriteString("----\n" + got + "\n")
		if exp := strings.Join(want, "\n"); exp != got && !*rewrite {
			t.Errorf("%s:%d:\n%s\n--- got:\n%s\n--- want:\n%s", path, start+1, query, got, exp)
		}
	}
	if *rewrite {
		out := strings.TrimRight(rewritten.String(), "\n") + "\n"
		if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
