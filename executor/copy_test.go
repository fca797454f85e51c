package executor

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"minipg/pgerr"
	"minipg/types"
)

// runCopy runs the COPY FROM STDIN statement q with data as the stream,
// then Sync, and returns the tag and the COPY's error.
func runCopy(tb testing.TB, s *Session, q string, data []byte) (string, error) {
	tb.Helper()
	p, err := s.Prepare(q, nil)
	if err != nil {
		tb.Fatal(err)
	}
	pt, err := s.Bind(p, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tag, err := pt.CopyFrom(context.Background(), bytes.NewReader(data))
	if serr := s.Sync(); err == nil {
		err = serr
	}
	return tag, err
}

// mustCopy is runCopy that fails the test on an error.
func mustCopy(tb testing.TB, s *Session, q string, data []byte) {
	tb.Helper()
	if _, err := runCopy(tb, s, q, data); err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
}

type binRow [][]byte // nil: NULL

func binaryStream(rows []binRow, trailer bool) []byte {
	buf := append([]byte(nil), binarySignature...)
	buf = append(buf, 0, 0, 0, 0, 0, 0, 0, 0)
	for _, r := range rows {
		buf = binary.BigEndian.AppendUint16(buf, uint16(len(r)))
		for _, f := range r {
			if f == nil {
				buf = append(buf, 0xff, 0xff, 0xff, 0xff)
				continue
			}
			buf = appendField(buf, f)
		}
	}
	if trailer {
		buf = append(buf, 0xff, 0xff)
	}
	return buf
}

func enc(t *testing.T, ty types.T, d types.Datum) []byte {
	t.Helper()
	b, err := types.EncodeBinary(ty, d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCopyBinaryMatchesInsert: rows loaded by binary COPY (a column subset,
// defaults, NULLs, every common type, values longer than the read buffer,
// an index) read back exactly as the same rows inserted with INSERT.
func TestCopyBinaryMatchesInsert(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	const cols = "id int PRIMARY KEY, b boolean, s smallint, big bigint, f real, d double precision, " +
		"n numeric(8,2), txt text, vc varchar(10), ts timestamp, dt date, dflt int DEFAULT 42, nn text NOT NULL DEFAULT 'x'"
	mustExec(t, s, "CREATE TABLE viacopy ("+cols+")")
	mustExec(t, s, "CREATE TABLE viainsert ("+cols+")")
	mustExec(t, s, "CREATE INDEX viacopy_big ON viacopy (big)")
	rng := rand.New(rand.NewPCG(3, 4))
	copyCols := []string{"id", "b", "s", "big", "f", "d", "n", "txt", "vc", "ts", "dt"}
	colTypes := []types.T{types.TInt4, types.TBool, types.TInt2, types.TInt8, types.TFloat4, types.TFloat8,
		types.NumericT(8, 2), types.TText, types.VarcharT(10), types.TTimestamp, types.TDate}
	var rows []binRow
	ins, err := s.Prepare("INSERT INTO viainsert ("+strings.Join(copyCols, ", ")+") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)", nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3000 {
		vals := []string{
			fmt.Sprint(i), fmt.Sprint(rng.IntN(2) == 0), fmt.Sprint(rng.IntN(65536) - 32768), fmt.Sprint(rng.Int64() - 1<<62),
			fmt.Sprint(rng.Float32() * 1e6), fmt.Sprint(rng.NormFloat64() * 1e100), fmt.Sprintf("%d.%02d", rng.IntN(1000000), rng.IntN(100)),
			strings.Repeat("é", rng.IntN(40)), strings.Repeat("v", rng.IntN(11)),
			fmt.Sprintf("20%02d-0%d-1%d 12:34:%02d.%d", rng.IntN(100), 1+rng.IntN(9), rng.IntN(10), rng.IntN(60), rng.IntN(1000000)),
			fmt.Sprintf("19%02d-1%d-0%d", rng.IntN(100), rng.IntN(3), 1+rng.IntN(9)),
		}
		if i%97 == 0 {
			vals[7] = strings.Repeat("long ", 1500) // a 7.5 kB row: most of a page
		}
		row := make(binRow, len(vals))
		params := make([]types.Datum, len(vals))
		for j, v := range vals {
			if j > 0 && rng.IntN(10) == 0 {
				continue // NULL
			}
			params[j] = mustParse(t, colTypes[j], v)
			row[j] = append([]byte{}, enc(t, colTypes[j], params[j])...) // non-nil even when empty
		}
		rows = append(rows, row)
		pt, err := s.Bind(ins, params)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := pt.Run(context.Background(), 0, func([]types.Datum) error { return nil }); err != nil {
			t.Fatalf("insert %v: %v", vals, err)
		}
		pt.Close()
		s.Sync()
	}
	tag, err := runCopy(t, s, "COPY viacopy ("+strings.Join(copyCols, ", ")+") FROM STDIN (FORMAT binary)", binaryStream(rows, true))
	if err != nil || tag != "COPY 3000" {
		t.Fatalf("COPY: %q %v", tag, err)
	}
	got, _ := mustExec(t, s, "SELECT 0, * FROM viacopy ORDER BY id")
	want, _ := mustExec(t, s, "SELECT 0, * FROM viainsert ORDER BY id")
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(fmt.Sprint(got[i][1:]), fmt.Sprint(want[i][1:])) {
			t.Fatalf("row %d:\n%v\nwant\n%v", i, got[i], want[i])
		}
	}
	// The index on big finds every row COPY loaded.
	for _, i := range []int{0, 1, 1500, 2999} {
		big := got[i][4]
		if big == nil {
			continue
		}
		r, _ := mustExec(t, s, "SELECT id FROM viacopy WHERE big = $1", big)
		if len(r) != 1 || fmt.Sprint(r[0][0]) != fmt.Sprint(got[i][1]) {
			t.Fatalf("index lookup of %v: %v", big, r)
		}
	}
}

// TestCopyBinaryErrors: bad binary COPY data gets PostgreSQL's SQLSTATE and
// message, and nothing of the failed COPY stays.
func TestCopyBinaryErrors(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE ce (id int PRIMARY KEY, t text NOT NULL, v varchar(3))")
	i4 := func(v int64) []byte { return enc(t, types.TInt4, v) }
	txt := func(v string) []byte { return []byte(v) }
	q := "COPY ce FROM STDIN (FORMAT binary)"
	for _, c := range []struct {
		name   string
		data   []byte
		code   pgerr.Code
		msg    string
		detail string
	}{
		{"not null", binaryStream([]binRow{{i4(1), txt("a"), nil}, {i4(2), nil, txt("b")}}, true),
			pgerr.NotNullViolation, `null value in column "t" of relation "ce" violates not-null constraint`, "Failing row contains (2, null, b)."},
		{"duplicate key", binaryStream([]binRow{{i4(1), txt("a"), nil}, {i4(1), txt("b"), nil}}, true),
			pgerr.UniqueViolation, `duplicate key value violates unique constraint "ce_pkey"`, "Key (id)=(1) already exists."},
		{"field count", binaryStream([]binRow{{i4(1), txt("a")}}, true),
			pgerr.BadCopyFileFormat, "row field count is 2, expected 3", ""},
		{"int4 length", binaryStream([]binRow{{[]byte{0, 1}, txt("a"), nil}}, true),
			pgerr.InvalidBinaryRepresentation, "incorrect binary data format", ""},
		{"bad utf8", binaryStream([]binRow{{i4(1), txt("a\xffb"), nil}}, true),
			pgerr.CharacterNotInRepertoire, `invalid byte sequence for encoding "UTF8": 0xff`, ""},
		{"varchar length", binaryStream([]binRow{{i4(1), txt("a"), txt("abcd")}}, true),
			pgerr.StringDataRightTruncation, "value too long for type character varying(3)", ""},
		{"truncated field", binaryStream([]binRow{{i4(1), txt("a"), nil}}, true)[:len(binarySignature)+8+2+4+2],
			pgerr.BadCopyFileFormat, "unexpected EOF in COPY data", ""},
		{"truncated row header", append(binaryStream([]binRow{{i4(1), txt("a"), nil}}, false), 0),
			pgerr.BadCopyFileFormat, "unexpected EOF in COPY data", ""},
		{"huge field", append(binaryStream(nil, false), 0, 3, 0x3f, 0xff, 0xff, 0xff, 1, 2),
			pgerr.ProgramLimitExceeded, "out of memory", "Cannot enlarge string buffer containing 0 bytes by 1073741823 more bytes."},
		{"field bigger than the read buffer", binaryStream([]binRow{{i4(1), txt(strings.Repeat("y", 100000)), nil}}, true),
			pgerr.ProgramLimitExceeded, "row is too big: size 100032, maximum size 8160", ""},
		{"negative field size", append(binaryStream(nil, false), 0, 3, 0xff, 0xff, 0xff, 0xfe),
			pgerr.BadCopyFileFormat, "invalid field size", ""},
		{"big field cut short", append(binaryStream(nil, false), 0, 3, 0x00, 0x10, 0x00, 0x00, 1, 2),
			pgerr.BadCopyFileFormat, "unexpected EOF in COPY data", ""},
	} {
		_, err := runCopy(t, s, q, c.data)
		pe, ok := err.(*pgerr.Error)
		if !ok || pe.Code != c.code || pe.Message != c.msg || pe.Detail != c.detail {
			t.Errorf("%s: %v (detail %q), want %s %q %q", c.name, err, func() string {
				if ok {
					return pe.Detail
				}
				return ""
			}(), c.code, c.msg, c.detail)
		}
	}
	if rows, _ := mustExec(t, s, "SELECT count(*) FROM ce"); fmt.Sprint(rows[0][0]) != "0" {
		t.Fatalf("rows of failed COPYs are visible: %v", rows)
	}
	// A stream without the trailer ends at EOF, as PostgreSQL accepts.
	if tag, err := runCopy(t, s, q, binaryStream([]binRow{{i4(1), txt("a"), nil}}, false)); err != nil || tag != "COPY 1" {
		t.Fatalf("no trailer: %q %v", tag, err)
	}
}

// TestCopyJSONContext: a bad json value's CONTEXT has the JSON parser's
// line first and COPY's after, as PostgreSQL stacks them.
func TestCopyJSONContext(t *testing.T) {
	e := openTestEngine(t, "")
	defer e.Close()
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE cj (id int, j jsonb)")
	_, err := runCopy(t, s, "COPY cj FROM STDIN", []byte("1\t{\"a\": 1}\n2\t{\"bad\"\n"))
	pe, ok := err.(*pgerr.Error)
	want := "JSON data, line 1: {\"bad\"\nCOPY cj, line 2, column j: \"{\"bad\"\""
	if !ok || pe.Code != pgerr.InvalidTextRepresentation || pe.Detail != "The input string ended unexpectedly." || pe.Where != want {
		t.Fatalf("got %v (%#v), want CONTEXT %q", err, pe, want)
	}
}

// TestCopyContinuesOnLastPage: a session's next COPY (or INSERT) goes on
// with the page its last COPY stopped at, as PostgreSQL's rd_targblock
// makes it, instead of leaving that page partly filled; under both
// policies.
func TestCopyContinuesOnLastPage(t *testing.T) {
	for _, policy := range []string{"classic", "locality"} {
		t.Run(policy, func(t *testing.T) {
			e := openTestEngine(t, "")
			defer e.Close()
			s := e.NewSession(nil)
			mustExec(t, s, "SET fsm_policy = "+policy)
			mustExec(t, s, "CREATE TABLE cl (id int, pad text)")
			lines := func(from, n int) []byte {
				var b strings.Builder
				for i := from; i < from+n; i++ {
					fmt.Fprintf(&b, "%d\t%s\n", i, strings.Repeat("p", 100))
				}
				return []byte(b.String())
			}
			if tag, err := runCopy(t, s, "COPY cl FROM STDIN", lines(0, 500)); err != nil || tag != "COPY 500" {
				t.Fatalf("first COPY: %q %v", tag, err)
			}
			if tag, err := runCopy(t, s, "COPY cl FROM STDIN", lines(500, 5)); err != nil || tag != "COPY 5" {
				t.Fatalf("second COPY: %q %v", tag, err)
			}
			mustExec(t, s, "INSERT INTO cl VALUES (505, 'x')")
			rows, _ := mustExec(t, s, "SELECT id, ctid FROM cl WHERE id IN (499, 500, 505) ORDER BY id")
			blk := func(i int) string { return strings.Split(strings.Trim(fmt.Sprint(rows[i][1]), "()"), ",")[0] }
			if len(rows) != 3 || blk(0) != blk(1) || blk(1) != blk(2) {
				t.Fatalf("rows %v: the second COPY and the INSERT did not continue on the first COPY's last page", rows)
			}
		})
	}
}

// Two sessions COPY into one table in turn, each while the other is an
// active loader, so each gets runs of fresh pages (the locality policy).
// When a COPY ends, what is left of its run goes back to the map, and the
// other session fills it before extending: no page between the table's
// first and last row is left empty. (Without the release every COPY left
// the rest of its run reserved and never used.)
func TestAlternatingCopiesLeaveNoUnusedPages(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE ext (v text) WITH (fsm_policy = locality)")
	row := strings.Repeat("x", 1000) + "\n"
	data := []byte(strings.Repeat(row, 300))
	a, b := e.NewSession(nil), e.NewSession(nil)
	const copies = 6
	for range copies {
		for _, c := range []*Session{a, b} {
			mustCopy(t, c, "COPY ext FROM STDIN", data)
		}
	}
	a.Close()
	b.Close()
	rows, _ := mustExec(t, s, "SELECT count(*), count(DISTINCT (ctid::text::point)[0]), max((ctid::text::point)[0])::int FROM ext")
	n, distinct, maxBlk := rows[0][0].(int64), rows[0][1].(int64), rows[0][2].(int64)
	if n != 2*copies*300 {
		t.Fatalf("%d rows, want %d", n, 2*copies*300)
	}
	if unused := maxBlk + 1 - distinct; unused != 0 {
		t.Fatalf("%d of the %d blocks up to the last row hold no row", unused, maxBlk+1)
	}
}

// The same with transactions of single-row INSERTs: a transaction whose
// inserts moved through a run's worth of pages loaded in bulk, and at its
// end the rest of its run goes back to the map, so the other session fills
// it.
func TestAlternatingInsertTransactionsLeaveNoUnusedPages(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(nil)
	mustExec(t, s, "CREATE TABLE ext (v text) WITH (fsm_policy = locality)")
	a, b := e.NewSession(nil), e.NewSession(nil)
	const txns, rowsPerTxn = 6, 200
	for range txns {
		for _, c := range []*Session{a, b} {
			mustExec(t, c, "BEGIN")
			for range rowsPerTxn {
				mustExec(t, c, "INSERT INTO ext VALUES (repeat('x', 1000))")
			}
			mustExec(t, c, "COMMIT")
		}
	}
	rows, _ := mustExec(t, s, "SELECT count(*), count(DISTINCT (ctid::text::point)[0]), max((ctid::text::point)[0])::int FROM ext")
	n, distinct, maxBlk := rows[0][0].(int64), rows[0][1].(int64), rows[0][2].(int64)
	if n != 2*txns*rowsPerTxn {
		t.Fatalf("%d rows, want %d", n, 2*txns*rowsPerTxn)
	}
	if unused := maxBlk + 1 - distinct; unused != 0 {
		t.Fatalf("%d of the %d blocks up to the last row hold no row", unused, maxBlk+1)
	}

	a.Close()
	b.Close()
}
