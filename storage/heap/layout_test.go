package heap

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"testing"
	"time"

	"minipg/storage/page"
)

// Layout against PostgreSQL 15.20 (Debian 15.20-0+deb12u1, x86-64, 8 kB
// blocks), measured on a real server. For each shape and fill factor F:
//
//	DROP TABLE IF EXISTS lay;
//	CREATE TABLE lay (<columns>) WITH (fillfactor=F, autovacuum_enabled=off);
//	INSERT INTO lay SELECT <values> FROM generate_series(1,1000) i;
//	SELECT count(*) FROM lay WHERE (ctid::text::point)[0]=0;      -- rows on block 0
//
// and, for F = 100, with CREATE EXTENSION pageinspect:
//
//	SELECT lp, lp_off, lp_len, t_hoff, t_infomask, t_infomask2, t_bits, encode(t_data,'hex')
//	FROM heap_page_items(get_raw_page('lay',0)) WHERE lp <= 2;
//
// <columns> and <values> are given with each shape below. t_data is the
// tuple from t_hoff on. PostgreSQL's t_infomask also carried
// HEAP_XMIN_COMMITTED|HEAP_XMAX_INVALID (0x0900, set by the insert and the
// count's scan); only the HEAP_HASNULL/HEAP_HASVARWIDTH bits come from
// heap_form_tuple and are compared.

// pgTimestamp is '2024-01-02 03:04:05' as a PostgreSQL timestamp:
// microseconds since 2000-01-01 00:00:00.
var pgTimestamp = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC).Sub(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).Microseconds()

func le2(v int16) []byte { return binary.LittleEndian.AppendUint16(nil, uint16(v)) }
func le4(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
func le8(v int64) []byte { return binary.LittleEndian.AppendUint64(nil, uint64(v)) }

// pgNumeric hand-builds the content of a non-negative numeric in
// PostgreSQL's short format (NUMERIC_SHORT): a uint16 header 0x8000 |
// dscale<<7 | weight, then base-10000 digits as int16, trailing zero digits
// dropped.
func pgNumeric(weight, dscale int, digits ...int16) []byte {
	b := le2(int16(uint16(0x8000 | dscale<<7 | weight)))
	for _, d := range digits {
		b = append(b, le2(d)...)
	}
	return b
}

var (
	attInt2  = Attr{Len: 2, Align: 's'}
	attInt4  = Attr{Len: 4, Align: 'i'}
	attInt8  = Attr{Len: 8, Align: 'd'}
	attBool  = Attr{Len: 1, Align: 'c'}
	attFlt8  = Attr{Len: 8, Align: 'd'}
	attTS    = Attr{Len: 8, Align: 'd'}
	attText  = Attr{Len: -1, Align: 'i'} // text, varchar, bpchar, numeric
	orderLin = TupleDesc{attInt4, attInt4, attInt4, attInt4, attInt4, attTS, attText, attInt4, attInt4, attText}
)

type layoutCase struct {
	name, columns, values string // the SQL used on PostgreSQL
	desc                  TupleDesc
	row                   func(i int) ([][]byte, []bool)
	perPage               [4]int // rows on block 0 at fillfactor 100, 80, 50, 10
	// pageinspect figures for lp 1 and 2 (rows i=1, 2) at fillfactor 100
	lpOff     [2]int
	lpLen     int
	hoff      int
	infomask  uint16 // t_infomask as PostgreSQL showed it
	infomask2 uint16
	bits      string // t_bits, "" for none
	data1     string // t_data of row 1, hex
}

var fillFactors = [4]int{100, 80, 50, 10}

var layoutCases = []layoutCase{
	{
		name: "all null int4", columns: "a int4", values: "NULL::int4",
		desc: TupleDesc{attInt4},
		row:  func(int) ([][]byte, []bool) { return [][]byte{nil}, []bool{true} },
		// 24-byte tuples: MaxHeapTuplesPerPage (291) is what stops the page.
		perPage: [4]int{291, 233, 145, 28},
		lpOff:   [2]int{8168, 8144}, lpLen: 24, hoff: 24, infomask: 2305, infomask2: 1, bits: "00000000",
		data1: "",
	},
	{
		name: "int4", columns: "a int4", values: "i",
		desc:    TupleDesc{attInt4},
		row:     func(i int) ([][]byte, []bool) { return [][]byte{le4(int32(i))}, nil },
		perPage: [4]int{226, 181, 113, 22},
		lpOff:   [2]int{8160, 8128}, lpLen: 28, hoff: 24, infomask: 2304, infomask2: 1,
		data1: "01000000",
	},
	{
		name: "int8,int8", columns: "a int8, b int8", values: "i, i",
		desc:    TupleDesc{attInt8, attInt8},
		row:     func(i int) ([][]byte, []bool) { return [][]byte{le8(int64(i)), le8(int64(i))}, nil },
		perPage: [4]int{185, 148, 92, 18},
		lpOff:   [2]int{8152, 8112}, lpLen: 40, hoff: 24, infomask: 2304, infomask2: 2,
		data1: "01000000000000000100000000000000",
	},
	{
		name: "int4,text(10)", columns: "a int4, b text", values: "i, 'abcdefghij'",
		desc: TupleDesc{attInt4, attText},
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le4(int32(i)), []byte("abcdefghij")}, nil
		},
		perPage: [4]int{185, 148, 92, 18},
		lpOff:   [2]int{8152, 8112}, lpLen: 39, hoff: 24, infomask: 2306, infomask2: 2,
		data1: "01000000" + "17" + "6162636465666768696a",
	},
	{
		name:    "int2,int4,int8,bool,float8,timestamp",
		columns: "a int2, b int4, c int8, d bool, e float8, f timestamp",
		values:  "1, i, i, true, 1.5, '2024-01-02 03:04:05'",
		desc:    TupleDesc{attInt2, attInt4, attInt8, attBool, attFlt8, attTS},
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le2(1), le4(int32(i)), le8(int64(i)), {1},
				le8(int64(math.Float64bits(1.5))), le8(pgTimestamp)}, nil
		},
		perPage: [4]int{120, 96, 59, 11},
		lpOff:   [2]int{8128, 8064}, lpLen: 64, hoff: 24, infomask: 2304, infomask2: 6,
		data1: "0100" + "0000" + "01000000" + "0100000000000000" + "01" + "00000000000000" +
			"000000000000f83f" + "40f31585ecb00200",
	},
	{
		name: "int4,numeric(12,2)", columns: "a int4, b numeric(12,2)", values: "i, 12345.67",
		desc: TupleDesc{attInt4, attText},
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le4(int32(i)), pgNumeric(1, 2, 1, 2345, 6700)}, nil
		},
		perPage: [4]int{185, 148, 92, 18},
		lpOff:   [2]int{8152, 8112}, lpLen: 37, hoff: 24, infomask: 2306, infomask2: 2,
		data1: "01000000" + "13" + "0181" + "0100" + "2909" + "2c1a",
	},
	{
		// BenchmarkSQL's bmsql_order_line after delivery.
		name: "order_line",
		columns: "ol_w_id int, ol_d_id int, ol_o_id int, ol_number int, ol_i_id int, ol_delivery_d timestamp, " +
			"ol_amount numeric(6,2), ol_supply_w_id int, ol_quantity int, ol_dist_info char(24)",
		values: "1, 1, i, 1, i, '2024-01-02 03:04:05', 1234.56, 1, 5, 'abcdefghijklmnopqrstuvwx'",
		desc:   orderLin,
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le4(1), le4(1), le4(int32(i)), le4(1), le4(int32(i)), le8(pgTimestamp),
				pgNumeric(0, 2, 1234, 5600), le4(1), le4(5), []byte("abcdefghijklmnopqrstuvwx")}, nil
		},
		perPage: [4]int{75, 60, 37, 7},
		lpOff:   [2]int{8088, 7984}, lpLen: 97, hoff: 24, infomask: 2306, infomask2: 10,
		data1: "0100000001000000010000000100000001000000" + "00000000" + "40f31585ecb00200" +
			"0f" + "0081d204e015" + "00" + "01000000" + "05000000" + "33" + hex.EncodeToString([]byte("abcdefghijklmnopqrstuvwx")),
	},
	{
		// A new order's line: ol_delivery_d NULL, ol_amount 0.00.
		name:    "order_line new",
		columns: "(as order_line)",
		values:  "1, 1, i, 1, i, NULL, 0.00, 1, 5, 'abcdefghijklmnopqrstuvwx'",
		desc:    orderLin,
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le4(1), le4(1), le4(int32(i)), le4(1), le4(int32(i)), nil,
					pgNumeric(0, 2), le4(1), le4(5), []byte("abcdefghijklmnopqrstuvwx")},
				[]bool{false, false, false, false, false, true, false, false, false, false}
		},
		perPage: [4]int{81, 65, 40, 7},
		lpOff:   [2]int{8096, 8000}, lpLen: 89, hoff: 32, infomask: 2307, infomask2: 10, bits: "1111101111000000",
		data1: "0100000001000000010000000100000001000000" + "07" + "0081" + "00" + "01000000" + "05000000" +
			"33" + hex.EncodeToString([]byte("abcdefghijklmnopqrstuvwx")),
	},
	{
		name: "int4,varchar(100) of 100", columns: "id int4, v varchar(100)", values: "i, repeat('v', 100)",
		desc: TupleDesc{attInt4, attText},
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le4(int32(i)), []byte(strings.Repeat("v", 100))}, nil
		},
		perPage: [4]int{58, 46, 29, 5},
		lpOff:   [2]int{8056, 7920}, lpLen: 129, hoff: 24, infomask: 2306, infomask2: 2,
		data1: "01000000" + "cb" + strings.Repeat("76", 100),
	},
	{
		// 126 bytes of content: 127 with a 1-byte header, the longest short varlena.
		name: "int2,text of 126", columns: "id int2, v text", values: "1, repeat('s', 126)",
		desc: TupleDesc{attInt2, attText},
		row: func(int) ([][]byte, []bool) {
			return [][]byte{le2(1), []byte(strings.Repeat("s", 126))}, nil
		},
		perPage: [4]int{49, 39, 24, 4},
		lpOff:   [2]int{8032, 7872}, lpLen: 153, hoff: 24, infomask: 2306, infomask2: 2,
		data1: "0100" + "ff" + strings.Repeat("73", 126),
	},
	{
		// 127 bytes of content: a 4-byte header, aligned to 4 after the int2.
		name: "int2,text of 127", columns: "id int2, v text", values: "1, repeat('l', 127)",
		desc: TupleDesc{attInt2, attText},
		row: func(int) ([][]byte, []bool) {
			return [][]byte{le2(1), []byte(strings.Repeat("l", 127))}, nil
		},
		perPage: [4]int{49, 39, 24, 4},
		lpOff:   [2]int{8032, 7872}, lpLen: 159, hoff: 24, infomask: 2306, infomask2: 2,
		data1: "0100" + "0000" + "0c020000" + strings.Repeat("6c", 127),
	},
	{
		name: "int8,varchar(600) of 500", columns: "id int8, v varchar(600)", values: "i, repeat('w', 500)",
		desc: TupleDesc{attInt8, attText},
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le8(int64(i)), []byte(strings.Repeat("w", 500))}, nil
		},
		perPage: [4]int{15, 12, 7, 1},
		lpOff:   [2]int{7656, 7120}, lpLen: 536, hoff: 24, infomask: 2306, infomask2: 2,
		data1: "0100000000000000" + "e0070000" + strings.Repeat("77", 500),
	},
	{
		name: "nulls in the middle and at the end", columns: "a int4, b text, c int8, d int4", values: "i, NULL, i, NULL",
		desc: TupleDesc{attInt4, attText, attInt8, attInt4},
		row: func(i int) ([][]byte, []bool) {
			return [][]byte{le4(int32(i)), nil, le8(int64(i)), nil}, []bool{false, true, false, true}
		},
		perPage: [4]int{185, 148, 92, 18},
		lpOff:   [2]int{8152, 8112}, lpLen: 40, hoff: 24, infomask: 2305, infomask2: 4, bits: "10100000",
		data1: "01000000" + "00000000" + "0100000000000000",
	},
	{
		// Nine attributes: a 2-byte null bitmap, t_hoff 32.
		name:    "nine int4, one null",
		columns: "c1 int4, c2 int4, c3 int4, c4 int4, c5 int4, c6 int4, c7 int4, c8 int4, c9 int4",
		values:  "1, 2, 3, 4, NULL, 6, 7, 8, 9",
		desc:    TupleDesc{attInt4, attInt4, attInt4, attInt4, attInt4, attInt4, attInt4, attInt4, attInt4},
		row: func(int) ([][]byte, []bool) {
			v := make([][]byte, 9)
			for j := range v {
				v[j] = le4(int32(j + 1))
			}
			return v, []bool{false, false, false, false, true, false, false, false, false}
		},
		perPage: [4]int{120, 96, 59, 11},
		lpOff:   [2]int{8128, 8064}, lpLen: 64, hoff: 32, infomask: 2305, infomask2: 9, bits: "1111011110000000",
		data1: "01000000" + "02000000" + "03000000" + "04000000" + "06000000" + "07000000" + "08000000" + "09000000",
	},
}

// maxHeapTupleSize is MaxHeapTupleSize: BLCKSZ - MAXALIGN(page header + one line pointer).
const maxHeapTupleSize = page.BlockSize - (page.HeaderSize+page.ItemIDSize+page.MaxAlign-1)/page.MaxAlign*page.MaxAlign

// targetFreeSpace is RelationGetBufferForTuple's space requirement for a
// tuple of MAXALIGNed length n at fillfactor ff.
func targetFreeSpace(n, ff int) int {
	save := page.BlockSize * (100 - ff) / 100
	nearlyEmpty := maxHeapTupleSize - page.MaxHeapTuplesPerPage/8*page.ItemIDSize
	if n+save > nearlyEmpty {
		return max(n, nearlyEmpty)
	}
	return n + save
}

// rowsOnFirstBlock replays PostgreSQL 15's INSERT path
// (RelationGetBufferForTuple) for a fresh table: the first row extends the
// relation and goes on the new page whatever the fill factor; each next row
// stays on the target block while
//
//	targetFreeSpace <= PageGetHeapFreeSpace(page), where
//	len             = MAXALIGN(tuple length)
//	saveFreeSpace   = BLCKSZ * (100 - fillfactor) / 100
//	nearlyEmpty     = MaxHeapTupleSize - MaxHeapTuplesPerPage/8 * sizeof(ItemIdData)
//	targetFreeSpace = len + saveFreeSpace, or max(len, nearlyEmpty) if that is larger than nearlyEmpty
//
// and the first row that fails goes to a new block.
func rowsOnFirstBlock(t *testing.T, c layoutCase, ff int) (page.Page, int) {
	t.Helper()
	p := make(page.Page, page.BlockSize)
	page.Init(p, 0)
	for i := 1; ; i++ {
		vals, nulls := c.row(i)
		tup, err := FormTuple(c.desc, vals, nulls)
		if err != nil {
			t.Fatal(err)
		}
		if i > 1 && targetFreeSpace(page.MaxAlignLen(len(tup)), ff) > page.HeapFreeSpace(p) {
			return p, i - 1
		}
		if page.AddItem(p, tup, 0, false, true) == 0 {
			t.Fatalf("row %d: AddItem failed", i)
		}
	}
}

func TestLayoutRowsPerPage(t *testing.T) {
	for _, c := range layoutCases {
		for k, ff := range fillFactors {
			if _, got := rowsOnFirstBlock(t, c, ff); got != c.perPage[k] {
				t.Errorf("%s, fillfactor %d: %d rows on block 0, PostgreSQL 15 has %d", c.name, ff, got, c.perPage[k])
			}
		}
	}
}

func TestLayoutTupleBytes(t *testing.T) {
	for _, c := range layoutCases {
		p, _ := rowsOnFirstBlock(t, c, 100)
		for k := 0; k < 2; k++ {
			lpOff, flags, lpLen := page.ItemID(p, uint16(k+1))
			if lpOff != c.lpOff[k] || lpLen != c.lpLen || flags != page.LPNormal {
				t.Errorf("%s: lp %d = (%d, %d, %d), PostgreSQL has lp_off %d lp_len %d",
					c.name, k+1, lpOff, flags, lpLen, c.lpOff[k], c.lpLen)
			}
		}
		tup := page.Item(p, 1)
		if Hoff(tup) != c.hoff || Infomask2(tup) != c.infomask2 ||
			Infomask(tup) != c.infomask&(HeapHasNull|HeapHasVarwidth|HeapHasExternal) {
			t.Errorf("%s: t_hoff %d t_infomask %#x t_infomask2 %d; PostgreSQL %d %#x %d",
				c.name, Hoff(tup), Infomask(tup), Infomask2(tup), c.hoff, c.infomask, c.infomask2)
		}
		if got := bitString(tup); got != c.bits {
			t.Errorf("%s: t_bits %q, PostgreSQL %q", c.name, got, c.bits)
		}
		if got := hex.EncodeToString(tup[Hoff(tup):]); got != c.data1 {
			t.Errorf("%s: t_data\n got %s\nwant %s", c.name, got, c.data1)
		}
		if Ctid(tup) != (page.TID{Block: page.InvalidBlock}) || Xmin(tup) != 0 || Xmax(tup) != 0 || Cid(tup) != 0 {
			t.Errorf("%s: header not zero/invalid", c.name)
		}
		// And back.
		vals, nulls := c.row(1)
		gotVals := make([][]byte, len(c.desc))
		gotNulls := make([]bool, len(c.desc))
		if err := DeformTuple(c.desc, tup, gotVals, gotNulls); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for j := range c.desc {
			isNull := nulls != nil && nulls[j]
			if gotNulls[j] != isNull || (!isNull && string(gotVals[j]) != string(vals[j])) {
				t.Errorf("%s: attribute %d: got %x (null %v), want %x (null %v)", c.name, j+1, gotVals[j], gotNulls[j], vals[j], isNull)
			}
		}
	}
}

// bitString renders t_bits as pageinspect does: one character per bit, in
// attribute order, for the whole bitmap bytes; "" without HEAP_HASNULL.
func bitString(tup []byte) string {
	if Infomask(tup)&HeapHasNull == 0 {
		return ""
	}
	var b strings.Builder
	for i := 0; i < (Natts(tup)+7)/8*8; i++ {
		if tup[TupleHeaderSize+i/8]&(1<<(i%8)) != 0 {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// TestLayoutNearlyEmptyPage checks the nearlyEmptyFreeSpace rule, which
// PostgreSQL 15 has (measured there):
//
//	CREATE TABLE tne (id int, v text) WITH (fillfactor=10, autovacuum_enabled=off);
//	INSERT INTO tne SELECT i, repeat('a', 600) FROM generate_series(1,2) i;  -- (0,1), (1,1)
//	DELETE FROM tne WHERE id = 1; VACUUM tne;     -- block 0: pd_lower 28, pd_upper 8192
//	INSERT INTO tne VALUES (3, repeat('b', 1000)); -- new session: lands at (0,1)
//
// The 1032-byte tuple plus the 7372-byte fill-factor reserve exceeds the
// page, but a page with no tuples counts as empty enough: targetFreeSpace is
// max(len, 8016) <= PageGetHeapFreeSpace = 8160.
func TestLayoutNearlyEmptyPage(t *testing.T) {
	p := make(page.Page, page.BlockSize)
	page.Init(p, 0)
	old, _ := FormTuple(TupleDesc{attInt4, attText}, [][]byte{le4(1), []byte(strings.Repeat("a", 600))}, nil)
	page.AddItem(p, old, 0, false, true)
	page.SetItemID(p, 1, 0, page.LPDead, 0) // VACUUM's pruning pass
	page.RepairFragmentation(p)
	page.SetItemID(p, 1, 0, page.LPUnused, 0) // its second heap pass
	page.TruncateLinePointerArray(p)
	if page.Lower(p) != 28 || page.Upper(p) != 8192 || page.HeapFreeSpace(p) != 8160 {
		t.Fatalf("after vacuum: lower %d upper %d free %d", page.Lower(p), page.Upper(p), page.HeapFreeSpace(p))
	}
	tup, _ := FormTuple(TupleDesc{attInt4, attText}, [][]byte{le4(3), []byte(strings.Repeat("b", 1000))}, nil)
	n := page.MaxAlignLen(len(tup))
	if n != 1032 || targetFreeSpace(n, 10) != 8016 || targetFreeSpace(n, 10) > page.HeapFreeSpace(p) {
		t.Fatalf("len %d target %d", n, targetFreeSpace(n, 10))
	}
	if off := page.AddItem(p, tup, 0, false, true); off != 1 {
		t.Fatalf("landed at offset %d, PostgreSQL uses (0,1)", off)
	}
}
