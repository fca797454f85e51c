package main

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v5"
)

// result is one statement's outcome on one server: its command tags and
// rows in text (NULL as <NULL>), or its error.
type result struct {
	tag  string
	rows []string
	code string // SQLSTATE; "CONN" for a lost connection or a timeout
	msg  string
	err  bool
}

// Kinds of difference, as the report names them.
const (
	kindInternal = "INTERNAL" // PostgreSQL answered, minipg failed with XX000 or lost the connection
	kindUnsup    = "UNSUP"    // PostgreSQL answered, minipg refused
	kindAccepts  = "ACCEPTS"  // PostgreSQL refused, minipg answered
	kindErrcode  = "ERRCODE"  // both refused, with different SQLSTATEs
	kindDiff     = "DIFF"     // both answered, differently
	kindOrder    = "ORDER"    // both answered the same rows in another order
)

// classify compares PostgreSQL's result a with minipg's b: "" when they
// agree.
func classify(a, b result) string {
	switch {
	case !a.err && b.err:
		if b.code == "XX000" || b.code == "CONN" {
			return kindInternal
		}
		return kindUnsup
	case a.err && !b.err:
		return kindAccepts
	case a.err && b.err:
		if a.code != b.code {
			return kindErrcode
		}
		return ""
	}
	if a.tag == b.tag && slices.Equal(a.rows, b.rows) {
		return ""
	}
	sa, sb := append([]string(nil), a.rows...), append([]string(nil), b.rows...)
	sort.Strings(sa)
	sort.Strings(sb)
	if a.tag == b.tag && slices.Equal(sa, sb) {
		return kindOrder
	}
	return kindDiff
}

var copyFromStdin = regexp.MustCompile(`(?is)^\s*copy\b.*\bfrom\s+stdin`)

// statements splits a psql script into its SQL statements: psql's
// backslash commands are dropped, and so is a COPY ... FROM STDIN with the
// data lines after it (up to \.), which the comparison cannot feed. A
// script the scanner cannot split whole is split at lines ending in a
// semicolon first.
func statements(src string) ([]string, error) {
	var keep []string
	lines := strings.Split(src, "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(strings.TrimSpace(l), `\`) {
			continue
		}
		if copyFromStdin.MatchString(l) {
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != `\.`; i++ {
			}
			continue
		}
		keep = append(keep, l)
	}
	src = strings.Join(keep, "\n")
	if st, err := pg_query.SplitWithScanner(src, true); err == nil {
		return st, nil
	}
	// A script that tests the lexer's errors does not split as a whole:
	// split it at the lines that end with a semicolon, and each piece
	// again where the scanner can.
	var out []string
	var cur []string
	for _, l := range keep {
		cur = append(cur, l)
		if !strings.HasSuffix(strings.TrimSpace(l), ";") {
			continue
		}
		piece := strings.Join(cur, "\n")
		cur = nil
		if st, err := pg_query.SplitWithScanner(piece, true); err == nil {
			out = append(out, st...)
		} else if t := strings.TrimSuffix(strings.TrimSpace(piece), ";"); t != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

// oneLine is s on one line, cut to n bytes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
