package main

import (
	"slices"
	"testing"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

func TestStatements(t *testing.T) {
	src := "\\set x 1\nselect 1;\ncopy t from stdin;\n1\n2\n\\.\ncreate table t (a int); -- note\n" +
		"select $$a;b$$;\n\\d t\n"
	got, err := statements(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"select 1", "create table t (a int)", "-- note\nselect $$a;b$$"}
	if !slices.Equal(got, want) {
		t.Fatalf("statements = %q, want %q", got, want)
	}
}

// TestStatementsLexerErrors: a script with a statement the scanner
// rejects is split at its lines' semicolons, the bad statement kept whole
// for the servers to reject.
func TestStatementsLexerErrors(t *testing.T) {
	src := "select 1;\nselect E'wrong: \\u061';\nselect 2; select 3;\n"
	if _, err := pg_query.SplitWithScanner(src, true); err == nil {
		t.Fatal("the scanner splits the script whole; the test needs one it cannot")
	}
	got, err := statements(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"select 1", "select E'wrong: \\u061'", "select 2", "select 3"}
	if !slices.Equal(got, want) {
		t.Fatalf("statements = %q, want %q", got, want)
	}
}

func TestClassify(t *testing.T) {
	ok := func(rows ...string) result { return result{tag: "SELECT;", rows: rows} }
	fail := func(code string) result { return result{err: true, code: code} }
	cases := []struct {
		a, b result
		want string
	}{
		{ok("1"), ok("1"), ""},
		{ok("1", "2"), ok("2", "1"), kindOrder},
		{ok("1"), ok("2"), kindDiff},
		{ok("1"), fail("0A000"), kindUnsup},
		{ok("1"), fail("XX000"), kindInternal},
		{ok("1"), fail("CONN"), kindInternal},
		{fail("22012"), ok("1"), kindAccepts},
		{fail("22012"), fail("22012"), ""},
		{fail("22012"), fail("42601"), kindErrcode},
		{result{tag: "INSERT 0 1;"}, result{tag: "INSERT 0 2;"}, kindDiff},
	}
	for i, c := range cases {
		if got := classify(c.a, c.b); got != c.want {
			t.Errorf("case %d: classify = %q, want %q", i, got, c.want)
		}
	}
}
