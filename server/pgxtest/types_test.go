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

	"github.com/jackc/pgx/v5/pgconn"

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
}

var typeNames = map[uint32]string{16: "bool", 20: "int8", 21: "int2", 23: "int4", 25: "text", 27: "tid", 700: "float4",
	701: "float8", 1042: "bpchar", 1043: "varchar", 1082: "date", 1114: "timestamp", 1700: "numeric"}

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
