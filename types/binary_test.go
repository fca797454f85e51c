package types

import (
	"encoding/binary"
	"encoding/hex"
	"testing"
)

var sendFunc = map[OID]string{
	Bool: "boolsend", Int2: "int2send", Int4: "int4send", Int8: "int8send", Float4: "float4send",
	Float8: "float8send", Numeric: "numeric_send", Text: "textsend", Varchar: "varcharsend",
	Bpchar: "bpcharsend", Timestamp: "timestamp_send", Date: "date_send", TID: "tidsend",
}

// TestPGBinary checks EncodeBinary against PostgreSQL's send functions
// (testdata/binary.txt) and that DecodeBinary reads the bytes back.
func TestPGBinary(t *testing.T) {
	const path = "testdata/binary.txt"
	if *rewrite {
		rewriteFile(t, path, func(c tcase) string {
			typ := typeFromSQL(t, c.fields[0])
			return "SELECT encode(" + sendFunc[typ.OID] + "(" + sqlLit(c.fields[1]) + "::" + c.fields[0] + "), 'hex')"
		}, nil)
	}
	checkCodec(t, path, "Binary", EncodeBinary, DecodeBinary)
}

// TestPGDisk checks EncodeDisk against the bytes PostgreSQL 15 writes in a
// heap tuple (testdata/disk.txt) and that DecodeDisk reads them back.
func TestPGDisk(t *testing.T) {
	const path = "testdata/disk.txt"
	if *rewrite {
		rewriteFile(t, path, func(c tcase) string {
			return "DROP TABLE IF EXISTS minipg_types_disk; CREATE TABLE minipg_types_disk(x " + c.fields[0] + "); " +
				"INSERT INTO minipg_types_disk VALUES (" + sqlLit(c.fields[1]) + "); " +
				"SELECT encode(t_data, 'hex') FROM heap_page_items(get_raw_page('minipg_types_disk', 0))"
		}, func(c tcase, out string) string {
			if typeFromSQL(t, c.fields[0]).Len() > 0 {
				return out
			}
			b, _ := hex.DecodeString(out)
			if b[0]&1 == 1 { // 1-byte header: (len << 1) | 1
				return hex.EncodeToString(b[1:int(b[0]>>1)])
			}
			n := binary.LittleEndian.Uint32(b) >> 2 // 4-byte header: len << 2
			return hex.EncodeToString(b[4:n])
		})
	}
	checkCodec(t, path, "Disk", EncodeDisk, DecodeDisk)
}

// checkCodec checks each case of path (type, text value, expected hex)
// through encode and decode, named Encode<name>/Decode<name> in failures:
// the encoding of the parsed value is the expected bytes (exactly Len()
// bytes for a fixed-length type), and decoding those bytes gives the value
// back.
func checkCodec(t *testing.T, path, name string, encode func(T, Datum) ([]byte, error), decode func(T, []byte) (Datum, error)) {
	t.Helper()
	_, cases := readCases(t, path)
	for _, c := range cases {
		typ := typeFromSQL(t, c.fields[0])
		d, err := ParseText(typ, c.fields[1])
		if err != nil {
			t.Errorf("%v: %v", c, err)
			continue
		}
		b, err := encode(typ, d)
		checkResult(t, c, hex.EncodeToString(b), err)
		if l := typ.Len(); l > 0 && err == nil && len(b) != int(l) {
			t.Errorf("%v: Encode%s gives %d bytes, want Len() %d", c, name, len(b), l)
		}
		want, _ := hex.DecodeString(c.out)
		back, err := decode(typ, want)
		if err != nil {
			t.Errorf("%v: Decode%s: %v", c, name, err)
			continue
		}
		if Compare(typ, d, back) != 0 || FormatText(typ, back) != FormatText(typ, d) {
			t.Errorf("%v: Decode%s gives %q, want %q", c, name, FormatText(typ, back), FormatText(typ, d))
		}
	}
}

// TestDiskNumericFromPageinspect pins a few bytes seen with pageinspect by
// hand (t_data of a one-column numeric table, varlena header included):
//
//	insert into t values (0),(1.5),(1e-100),('NaN')
//	select t_data from heap_page_items(get_raw_page('t',0))
//	-> \x070080  \x0f808001008813  \x0f6400e7ff0100  \x0700c0
func TestDiskNumericFromPageinspect(t *testing.T) {
	for in, want := range map[string]string{"0": "0080", "1.5": "808001008813", "1e-100": "6400e7ff0100", "NaN": "00c0"} {
		d, err := ParseText(TNumeric, in)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := EncodeDisk(TNumeric, d)
		if got := hex.EncodeToString(b); got != want {
			t.Errorf("%s: got %s want %s", in, got, want)
		}
	}
}
