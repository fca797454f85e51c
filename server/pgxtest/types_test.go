package pgxtest

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"minipg/internal/testutil"
)

// typeCases: for each type, a value in text. The wire test sends it as a
// text parameter of "select $1::type" (the parameter type is inferred),
// reads the result in binary and in text, then sends the binary bytes back
// as a binary parameter and reads the text: typinput, typsend, typreceive
// and typoutput, all compared with PostgreSQL 15's bytes.
var typeCases = []struct{ typ, text string }{
	{"smallint", "-7"},
	{"integer", "2147483647"},
	{"bigint", "-9223372036854775808"},
	{"real", "1.5"},
	{"double precision", "0.1"},
	{"boolean", "t"},
	{"text", "héllo"},
	{"varchar(5)", "abc"},
	{"char(3)", "ab"},
	{"numeric", "12345.6789"},
	{"numeric", "-0.001"},
	{"numeric", "0"},
	{"numeric(10,2)", "3.14159"},
	{"date", "2024-02-29"},
	{"timestamp", "2024-02-29 13:14:15.123456"},
	{"timestamp", "1999-12-31 23:59:59"},
	{"tid", "(1,2)"},
	{"point", "(1.5,-2)"},
	{"integer[]", "{1,NULL,3}"},
	{"text[]", `{a,"b c",NULL,""}`},
	{"numeric[]", "{1.5,-2}"},
	{"bigint[]", "[0:1]={7,8}"},
	{"date[]", "{2024-02-29}"},
	{"int[]", "{{1,2},{3,4}}"},
	{"text[]", "{}"},
	{"time", "04:05:06.789"},
	{"time(2)", "23:59:59.999"},
	{"timetz", "04:05:06.789-08"},
	{"timetz", "23:59:59+05:30"},
	{"json", `{"b": 1, "a": [1, 2.50], "b": "\u00e9"}`},
	{"jsonb", `{"b": 1, "a": [1, 2.50], "b": "\u00e9"}`},
	{"jsonb", `"scalar"`},
	{"json[]", `{"[1, 2]",NULL,"{\"a\": null}"}`},
	{"jsonb[]", `{"[1, 2]",NULL,"{\"a\": null}"}`},
}

// typeReplies are PostgreSQL 15's replies, one line per case (regenerate
// with MINIPG_TYPES_REWRITE=1 against PostgreSQL).
var typeReplies = []string{
	"int2 0xfff9 -7 -7",
	"int4 0x7fffffff 2147483647 2147483647",
	"int8 0x8000000000000000 -9223372036854775808 -9223372036854775808",
	"float4 0x3fc00000 1.5 1.5",
	"float8 0x3fb999999999999a 0.1 0.1",
	"bool 0x01 t t",
	"text 0x68c3a96c6c6f héllo héllo",
	"varchar 0x616263 abc abc",
	"bpchar 0x616220 ab  ab ",
	"numeric 0x0003000100000004000109291a85 12345.6789 12345.6789",
	"numeric 0x0001ffff40000003000a -0.001 -0.001",
	"numeric 0x0000000000000000 0 0",
	"numeric 0x000200000000000200030578 3.14 3.14",
	"date 0x00002279 2024-02-29 2024-02-29",
	"timestamp 0x0002b583ce03da00 2024-02-29 13:14:15.123456 2024-02-29 13:14:15.123456",
	"timestamp 0xfffffffffff0bdc0 1999-12-31 23:59:59 1999-12-31 23:59:59",
	"tid 0x000000010002 (1,2) (1,2)",
	"point 0x3ff8000000000000c000000000000000 (1.5,-2) (1.5,-2)",
	"_int4 0x00000001000000010000001700000003000000010000000400000001ffffffff0000000400000003 {1,NULL,3} {1,NULL,3}",
	`_text 0x0000000100000001000000190000000400000001000000016100000003622063ffffffff00000000 {a,"b c",NULL,""} {a,"b c",NULL,""}`,
	"_numeric 0x0000000100000000000006a400000002000000010000000c0002000000000001000113880000000a00010000400000000002 {1.5,-2} {1.5,-2}",
	"_int8 0x0000000100000000000000140000000200000000000000080000000000000007000000080000000000000008 [0:1]={7,8} [0:1]={7,8}",
	"_date 0x00000001000000000000043a00000001000000010000000400002279 {2024-02-29} {2024-02-29}",
	"_int4 0x000000020000000000000017000000020000000100000002000000010000000400000001000000040000000200000004000000030000000400000004 {{1,2},{3,4}} {{1,2},{3,4}}",
	"_text 0x000000000000000000000019 {} {}",
	"time 0x000000036c97ca88 04:05:06.789 04:05:06.789",
	"time 0x000000141dd76000 24:00:00 24:00:00",
	"timetz 0x000000036c97ca8800007080 04:05:06.789-08 04:05:06.789-08",
	"timetz 0x000000141dc81dc0ffffb2a8 23:59:59+05:30 23:59:59+05:30",
	`json 0x7b2262223a20312c202261223a205b312c20322e35305d2c202262223a20225c7530306539227d {"b": 1, "a": [1, 2.50], "b": "\u00e9"} {"b": 1, "a": [1, 2.50], "b": "\u00e9"}`,
	`jsonb 0x017b2261223a205b312c20322e35305d2c202262223a2022c3a9227d {"a": [1, 2.50], "b": "é"} {"a": [1, 2.50], "b": "é"}`,
	`jsonb 0x01227363616c617222 "scalar" "scalar"`,
	`_json 0x0000000100000001000000720000000300000001000000065b312c20325dffffffff0000000b7b2261223a206e756c6c7d {"[1, 2]",NULL,"{\"a\": null}"} {"[1, 2]",NULL,"{\"a\": null}"}`,
	`_jsonb 0x000000010000000100000eda000000030000000100000007015b312c20325dffffffff0000000c017b2261223a206e756c6c7d {"[1, 2]",NULL,"{\"a\": null}"} {"[1, 2]",NULL,"{\"a\": null}"}`,
}

var typeNames = map[uint32]string{16: "bool", 20: "int8", 21: "int2", 23: "int4", 25: "text", 27: "tid", 700: "float4",
	701: "float8", 1042: "bpchar", 1043: "varchar", 1082: "date", 1114: "timestamp", 1700: "numeric",
	600: "point", 1007: "_int4", 1009: "_text", 1231: "_numeric", 1016: "_int8", 1182: "_date",
	1083: "time", 1266: "timetz", 114: "json", 3802: "jsonb", 199: "_json", 3807: "_jsonb"}

func typeRoundTrips(t *testing.T, dsn string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pc, err := pgconn.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close(ctx)
	var out []string
	for _, tc := range typeCases {
		sql := "select $1::" + tc.typ
		sd, err := pc.Prepare(ctx, "", sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if len(sd.ParamOIDs) != 1 || len(sd.Fields) != 1 {
			t.Fatalf("%s: %d params, %d fields", sql, len(sd.ParamOIDs), len(sd.Fields))
		}
		bin := pc.ExecPrepared(ctx, "", [][]byte{[]byte(tc.text)}, []int16{0}, []int16{1}).Read()
		if bin.Err != nil {
			t.Fatalf("%s binary: %v", sql, bin.Err)
		}
		text := pc.ExecPrepared(ctx, "", [][]byte{[]byte(tc.text)}, []int16{0}, []int16{0}).Read()
		if text.Err != nil {
			t.Fatalf("%s text: %v", sql, text.Err)
		}
		back := pc.ExecPrepared(ctx, "", [][]byte{bin.Rows[0][0]}, []int16{1}, []int16{0}).Read()
		if back.Err != nil {
			t.Fatalf("%s binary parameter: %v", sql, back.Err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %s", typeNames[sd.Fields[0].DataTypeOID], printable0x(bin.Rows[0][0]),
			text.Rows[0][0], back.Rows[0][0]))
	}
	return out
}

func printable0x(b []byte) string { return fmt.Sprintf("0x%x", b) }

func compareTypeReplies(t testing.TB, got []string) {
	t.Helper()
	if len(typeReplies) != len(typeCases) {
		t.Fatalf("%d type cases but %d expected replies: regenerate typeReplies", len(typeCases), len(typeReplies))
	}
	for i, tc := range typeCases {
		if i >= len(got) {
			t.Errorf("%s %q: no reply (%d replies for %d cases)", tc.typ, tc.text, len(got), len(typeCases))
			continue
		}
		if got[i] != typeReplies[i] {
			t.Errorf("%s %q:\ngot  %q\nwant %q", tc.typ, tc.text, got[i], typeReplies[i])
		}
	}
	if len(got) > len(typeCases) {
		t.Errorf("%d replies for %d cases; extra: %q", len(got), len(typeCases), got[len(typeCases):])
	}
}

func TestTypesWire(t *testing.T) {
	compareTypeReplies(t, typeRoundTrips(t, startServer(t)))
}

func TestTypesWirePostgres(t *testing.T) {
	dsn := testutil.ReferencePostgres(t, "MINIPG_PG_DSN")
	got := typeRoundTrips(t, dsn)
	if os.Getenv("MINIPG_TYPES_REWRITE") != "" {
		t.Logf("typeReplies:\n%s", strings.Join(got, "\n"))
		return
	}
	compareTypeReplies(t, got)
}

// recordingTB collects the failures reported to it instead of failing.
type recordingTB struct {
	testing.TB
	errs []string
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// TestCompareTypeReplies: a short, wrong or long reply list is reported
// case by case, never by a panic.
func TestCompareTypeReplies(t *testing.T) {
	n := len(typeReplies)
	wrong := slices.Clone(typeReplies)
	wrong[1] = "not the reply"
	for _, c := range []struct {
		name string
		got  []string
		want []string // substrings of the failures, in order
	}{
		{"all", slices.Clone(typeReplies), nil},
		{"none", nil, slices.Repeat([]string{"no reply (0 replies"}, n)},
		{"short", typeReplies[:n-2], []string{"no reply (" + strconv.Itoa(n-2) + " replies", "no reply"}},
		{"wrong", wrong, []string{`"not the reply"`}},
		{"long", append(slices.Clone(typeReplies), "extra"), []string{`extra: ["extra"]`}},
	} {
		rec := &recordingTB{TB: t}
		compareTypeReplies(rec, c.got)
		if len(rec.errs) != len(c.want) {
			t.Errorf("%s: %d failures %q, want %d", c.name, len(rec.errs), rec.errs, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(rec.errs[i], w) {
				t.Errorf("%s: failure %d is %q, want it to contain %q", c.name, i, rec.errs[i], w)
			}
		}
	}
}

// TestArraysThroughPgx scans arrays and points with pgx's own codecs, in
// the binary (cached statements) and text (simple protocol) formats, and
// sends Go slices as array parameters.
func TestArraysThroughPgx(t *testing.T) {
	dsn := startServer(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		c := connect(t, dsn, mode)
		ctx := context.Background()
		var ints []int32
		var texts []*string
		var nums []float64
		if err := c.QueryRow(ctx, `select array[1,2,3], '{a,NULL,"b c"}'::text[], array[1.5::float8, -2]`).Scan(&ints, &texts, &nums); err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		if !slices.Equal(ints, []int32{1, 2, 3}) || len(texts) != 3 || *texts[0] != "a" || texts[1] != nil || *texts[2] != "b c" || !slices.Equal(nums, []float64{1.5, -2}) {
			t.Errorf("%v: got %v %v %v", mode, ints, texts, nums)
		}
		var p pgtype.Point
		if err := c.QueryRow(ctx, `select '(1.5,-2)'::point`).Scan(&p); err != nil || p.P.X != 1.5 || p.P.Y != -2 {
			t.Errorf("%v: point %v %v", mode, p, err)
		}
		var n int64
		var joined string
		if err := c.QueryRow(ctx, `select cardinality($1::bigint[]), array_to_string($2::text[], '|')`, []int64{4, 5, 6}, []string{"x", "y z"}).Scan(&n, &joined); err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		if n != 3 || joined != "x|y z" {
			t.Errorf("%v: got %d %q", mode, n, joined)
		}
		c.Close(ctx)
	}
}

// TestJSONThroughPgx scans json and jsonb values with pgx's codecs and
// sends Go values as json and jsonb parameters, in the binary (cached
// statements) and text (simple protocol) formats.
func TestJSONThroughPgx(t *testing.T) {
	dsn := startServer(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeSimpleProtocol} {
		c := connect(t, dsn, mode)
		ctx := context.Background()
		var m map[string]any
		var raw []byte
		var s string
		if err := c.QueryRow(ctx, `select '{"b": [1, 2.5], "a": "x", "a": null}'::jsonb, '{"k" : 1}'::json, '[1, "two"]'::jsonb`).Scan(&m, &raw, &s); err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		if len(m) != 2 || m["a"] != nil || fmt.Sprint(m["b"]) != "[1 2.5]" || string(raw) != `{"k" : 1}` || s != `[1, "two"]` {
			t.Errorf("%v: got %v %q %q", mode, m, raw, s)
		}
		var back, kind string
		var in any = map[string]any{"z": []int{1, 2}, "y": map[string]bool{"t": true}}
		if mode == pgx.QueryExecModeSimpleProtocol {
			// Without the parameter types pgx has no JSON encoder.
			in = `{"z": [1, 2], "y": {"t": true}}`
		}
		if err := c.QueryRow(ctx, `select $1::jsonb::text, jsonb_typeof($2::json::jsonb -> 'z')`, in, in).Scan(&back, &kind); err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		if back != `{"y": {"t": true}, "z": [1, 2]}` || kind != "array" {
			t.Errorf("%v: got %q %q", mode, back, kind)
		}
		c.Close(ctx)
	}
}

// TestEmptyValuesNotNull: a row whose every value is empty (an empty string, a void
// function's result), the first row a connection sends, keeps its values
// empty and not NULL, in the simple and the extended protocol.
func TestEmptyValuesNotNull(t *testing.T) {
	dsn := startServer(t)
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeSimpleProtocol, pgx.QueryExecModeExec} {
		conn := connect(t, dsn, mode)
		var a, b *string
		if err := conn.QueryRow(testCtx(t), "select ''::text, pg_sleep(0)::text").Scan(&a, &b); err == nil {
			t.Fatalf("mode %v: void cast to text was accepted", mode)
		}
		conn = connect(t, dsn, mode)
		rows, err := conn.Query(testCtx(t), "select ''::text, ''::varchar")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals := rows.RawValues()
			if len(vals) != 2 || vals[0] == nil || vals[1] == nil {
				t.Errorf("mode %v: empty values arrived as %q (nil is NULL)", mode, vals)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		conn = connect(t, dsn, mode)
		rows, err = conn.Query(testCtx(t), "select pg_sleep(0)")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			if vals := rows.RawValues(); len(vals) != 1 || vals[0] == nil {
				t.Errorf("mode %v: pg_sleep(0) arrived as NULL", mode)
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
}
