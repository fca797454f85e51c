package heap

// Heap tuple format (HeapTupleHeaderData, PostgreSQL 15 htup_details.h),
// all integers little-endian:
//
//	 0        4        8        12              18           20          22      23
//	+--------+--------+--------+---------------+------------+-----------+-------+---------...
//	| t_xmin | t_xmax | t_cid  | t_ctid        | t_infomask2| t_infomask| t_hoff| t_bits
//	| u32    | u32    | u32    | bi_hi u16,    | u16: natts | u16: flag | u8    | null bitmap,
//	|        |        | (xvac) | bi_lo u16,    | (11 bits)  | bits      |       | if HEAP_HASNULL
//	|        |        |        | posid u16     | + flags    |           |       |
//	+--------+--------+--------+---------------+------------+-----------+-------+---------...
//	 then zero padding up to t_hoff (MAXALIGN(23 + bitmap)), then the data:
//
//	t_hoff                                                                       t_len
//	+------------+-----+------------+-----+--------------------------------------+
//	| attr 1     | pad | attr 2     | pad | ...                                  |
//	+------------+-----+------------+-----+--------------------------------------+
//
// The block number of t_ctid is stored high half first (BlockIdData). In
// t_bits, bit (i%8) of byte i/8 is 1 when attribute i is NOT null; a null
// attribute takes no data space. Each non-null attribute is aligned, relative
// to the MAXALIGNed start of the tuple, to its type's alignment ('c' 1,
// 's' 2, 'i' 4, 'd' 8) and padded with zeros, except a varlena with a short
// header, which is never aligned. A varlena is stored as
//
//	1-byte header: 1 byte (len<<1 | 1), content; len = content+1 <= 127
//	4-byte header: u32 (len<<2), content; len = content+4 (aligned as its type)
//
// (VARATT_IS_1B / VARATT_IS_4B_U on a little-endian machine). A reader tells
// them apart by the first byte: a pad byte is 0, a short header never is;
// that is why a reader aligns a varlena only when it sees a zero byte
// (att_align_pointer). minipg writes neither TOAST pointers (first byte
// 0x01) nor compressed values (4-byte header with low bits 10); DeformTuple
// reports them as corruption.

import (
	"encoding/binary"
	"slices"

	"minipg/pgerr"
	"minipg/storage/page"
)

// Attr describes one attribute's storage: Len > 0 is a fixed length (passed
// by value for 1, 2, 4, 8), -1 a varlena; Align is typalign 'c', 's', 'i'
// or 'd'.
type Attr struct {
	Len   int16
	Align byte
	// Missing is the value a tuple stored before the attribute was added
	// has for it (PostgreSQL's attmissingval, as DeformTuple returns a
	// value: a varlena without its header); nil for NULL.
	Missing []byte
}

// TupleDesc is a row's attribute list, in attribute-number order.
type TupleDesc []Attr

// TupleHeaderSize is SizeofHeapTupleHeader (offsetof t_bits).
const TupleHeaderSize = 23

// MaxTupleAttributeNumber is PostgreSQL's limit on attributes in a tuple.
const MaxTupleAttributeNumber = 1664

// t_infomask bits (htup_details.h).
const (
	HeapHasNull        = 0x0001 // has null attribute(s)
	HeapHasVarwidth    = 0x0002 // has variable-width attribute(s)
	HeapHasExternal    = 0x0004 // has external stored attribute(s)
	HeapHasOidOld      = 0x0008 // has an object-id field (pre-12)
	HeapXmaxKeyshrLock = 0x0010 // xmax is a key-shared locker
	HeapComboCid       = 0x0020 // t_cid is a combo CID
	HeapXmaxExclLock   = 0x0040 // xmax is exclusive locker
	HeapXmaxLockOnly   = 0x0080 // xmax, if valid, is only a locker
	HeapXmaxShrLock    = HeapXmaxExclLock | HeapXmaxKeyshrLock
	HeapLockMask       = HeapXmaxShrLock | HeapXmaxExclLock | HeapXmaxKeyshrLock
	HeapXminCommitted  = 0x0100 // t_xmin committed (hint)
	HeapXminInvalid    = 0x0200 // t_xmin invalid/aborted (hint)
	HeapXminFrozen     = HeapXminCommitted | HeapXminInvalid
	HeapXmaxCommitted  = 0x0400 // t_xmax committed (hint)
	HeapXmaxInvalid    = 0x0800 // t_xmax invalid/aborted (hint)
	HeapXmaxIsMulti    = 0x1000 // t_xmax is a MultiXactId
	HeapUpdated        = 0x2000 // this is UPDATEd version of row
	HeapMovedOff       = 0x4000 // moved off by pre-9.0 VACUUM FULL
	HeapMovedIn        = 0x8000 // moved in by pre-9.0 VACUUM FULL
	HeapMoved          = HeapMovedOff | HeapMovedIn
	HeapXactMask       = 0xFFF0 // visibility-related bits
)

// t_infomask2 bits.
const (
	HeapNattsMask   = 0x07FF // 11 bits for the number of attributes
	HeapKeysUpdated = 0x2000 // tuple was updated and key cols modified, or tuple deleted
	HeapHotUpdated  = 0x4000 // tuple was HOT-updated
	HeapOnlyTuple   = 0x8000 // this is a heap-only tuple
	Heap2XactMask   = 0xE000 // visibility-related bits
)

// Header field offsets.
const (
	offXmin      = 0
	offXmax      = 4
	offCid       = 8
	offCtid      = 12
	offInfomask2 = 18
	offInfomask  = 20
	offHoff      = 22
)

// Header accessors. t must hold at least TupleHeaderSize bytes (a tuple
// from FormTuple or page.Item of a normal line pointer).

// Xmin returns t_xmin, the inserting transaction.
func Xmin(t []byte) uint32 { return binary.LittleEndian.Uint32(t[offXmin:]) }

// SetXmin sets t_xmin.
func SetXmin(t []byte, x uint32) { binary.LittleEndian.PutUint32(t[offXmin:], x) }

// Xmax returns t_xmax, the deleting or locking transaction.
func Xmax(t []byte) uint32 { return binary.LittleEndian.Uint32(t[offXmax:]) }

// SetXmax sets t_xmax.
func SetXmax(t []byte, x uint32) { binary.LittleEndian.PutUint32(t[offXmax:], x) }

// Cid returns t_cid, the inserting or deleting command id.
func Cid(t []byte) uint32 { return binary.LittleEndian.Uint32(t[offCid:]) }

// SetCid sets t_cid.
func SetCid(t []byte, c uint32) { binary.LittleEndian.PutUint32(t[offCid:], c) }

// Ctid returns t_ctid: the tuple's own TID, or its newer version's.
func Ctid(t []byte) page.TID {
	return page.TID{
		Block: uint32(binary.LittleEndian.Uint16(t[offCtid:]))<<16 |
			uint32(binary.LittleEndian.Uint16(t[offCtid+2:])),
		Offset: binary.LittleEndian.Uint16(t[offCtid+4:]),
	}
}

// SetCtid sets t_ctid.
func SetCtid(t []byte, tid page.TID) {
	binary.LittleEndian.PutUint16(t[offCtid:], uint16(tid.Block>>16))
	binary.LittleEndian.PutUint16(t[offCtid+2:], uint16(tid.Block))
	binary.LittleEndian.PutUint16(t[offCtid+4:], tid.Offset)
}

// Infomask returns t_infomask.
func Infomask(t []byte) uint16 { return binary.LittleEndian.Uint16(t[offInfomask:]) }

// SetInfomask sets t_infomask.
func SetInfomask(t []byte, m uint16) { binary.LittleEndian.PutUint16(t[offInfomask:], m) }

// Infomask2 returns t_infomask2.
func Infomask2(t []byte) uint16 { return binary.LittleEndian.Uint16(t[offInfomask2:]) }

// SetInfomask2 sets t_infomask2.
func SetInfomask2(t []byte, m uint16) { binary.LittleEndian.PutUint16(t[offInfomask2:], m) }

// Hoff returns t_hoff, the offset of the data.
func Hoff(t []byte) int { return int(t[offHoff]) }

// Natts returns the number of attributes stored (HeapTupleHeaderGetNatts).
func Natts(t []byte) int { return int(Infomask2(t) & HeapNattsMask) }

// attAlign rounds off up to typalign a (att_align_nominal).
func attAlign(off int, a byte) int {
	switch a {
	case 's':
		return (off + 1) &^ 1
	case 'i':
		return (off + 3) &^ 3
	case 'd':
		return (off + 7) &^ 7
	}
	return off
}

// varShortMax is VARATT_SHORT_MAX: the longest value, header included, with
// a 1-byte header.
const varShortMax = 0x7F

// StoredVarlenaLen is the bytes a varlena with n bytes of content takes in
// a tuple FormTuple forms, header included (alignment padding aside): a
// 1-byte header when it fits, else 4.
func StoredVarlenaLen(n int) int {
	if n+1 <= varShortMax {
		return n + 1
	}
	return n + 4
}

// varMaxLen is the longest varlena, header included (1 GB - 1).
const varMaxLen = 0x3FFFFFFF

func checkDesc(desc TupleDesc) error {
	if len(desc) > MaxTupleAttributeNumber {
		return pgerr.New(pgerr.TooManyColumns, "number of columns (%d) exceeds limit (%d)",
			len(desc), MaxTupleAttributeNumber)
	}
	for i, a := range desc {
		if a.Len == 0 || a.Len < -1 || (a.Align != 'c' && a.Align != 's' && a.Align != 'i' && a.Align != 'd') {
			return pgerr.New(pgerr.InternalError, "heap: attribute %d: bad length %d or alignment %q", i+1, a.Len, a.Align)
		}
	}
	return nil
}

// FormTuple is heap_form_tuple: it returns header, null bitmap and data laid
// out exactly as PostgreSQL 15 lays them out, with t_xmin, t_xmax, t_cid 0,
// t_ctid invalid ((4294967295,0)), t_infomask HEAP_HASNULL and
// HEAP_HASVARWIDTH as they apply, t_infomask2 = number of attributes, and
// t_hoff = MAXALIGN(23 + null bitmap). The caller (Insert) fills in the
// transaction fields.
//
// values[i] of a fixed-length attribute is exactly Len bytes, little-endian
// for the pass-by-value lengths; values[i] of a varlena is its content
// without a header. A varlena gets a 1-byte header when content+1 <= 127
// (VARATT_CAN_MAKE_SHORT: every minipg varlena type is packable) and is not
// aligned, else a 4-byte header aligned to the attribute's Align. isnull
// may be nil (no nulls); values[i] of a null attribute is ignored.
func FormTuple(desc TupleDesc, values [][]byte, isnull []bool) ([]byte, error) {
	return AppendTuple(nil, desc, values, isnull)
}

// AppendTuple is FormTuple forming the tuple at the end of dst: it returns
// dst extended by the tuple, which is the result's tail after len(dst).
// Bulk loads form a batch of tuples in one reused buffer this way.
func AppendTuple(dst []byte, desc TupleDesc, values [][]byte, isnull []bool) ([]byte, error) {
	if err := checkDesc(desc); err != nil {
		return nil, err
	}
	if len(values) != len(desc) || (isnull != nil && len(isnull) != len(desc)) {
		return nil, pgerr.New(pgerr.InternalError, "heap: FormTuple: %d attributes, %d values, %d null flags",
			len(desc), len(values), len(isnull))
	}
	null := func(i int) bool { return isnull != nil && isnull[i] }

	// heap_compute_data_size.
	hasNull := false
	dataLen := 0
	for i, a := range desc {
		if null(i) {
			hasNull = true
			continue
		}
		v := values[i]
		switch {
		case a.Len > 0:
			if len(v) != int(a.Len) {
				return nil, pgerr.New(pgerr.InternalError, "heap: attribute %d: %d bytes for a %d-byte type",
					i+1, len(v), a.Len)
			}
			dataLen = attAlign(dataLen, a.Align) + int(a.Len)
		case len(v)+1 <= varShortMax:
			dataLen += len(v) + 1
		case len(v)+4 > varMaxLen:
			return nil, pgerr.New(pgerr.ProgramLimitExceeded, "invalid memory alloc request size %d", len(v)+4)
		default:
			dataLen = attAlign(dataLen, a.Align) + len(v) + 4
		}
	}
	hoff := TupleHeaderSize
	if hasNull {
		hoff += (len(desc) + 7) / 8
	}
	hoff = page.MaxAlignLen(hoff)

	start := len(dst)
	dst = slices.Grow(dst, hoff+dataLen)[:start+hoff+dataLen]
	t := dst[start:]
	clear(t)
	SetCtid(t, page.TID{Block: page.InvalidBlock, Offset: page.InvalidOffset})
	SetInfomask2(t, uint16(len(desc)))
	t[offHoff] = byte(hoff)

	// heap_fill_tuple.
	var infomask uint16
	if hasNull {
		infomask |= HeapHasNull
	}
	data := t[hoff:]
	off := 0
	for i, a := range desc {
		if null(i) {
			continue
		}
		if hasNull {
			t[TupleHeaderSize+i/8] |= 1 << (i % 8)
		}
		v := values[i]
		switch {
		case a.Len > 0:
			off = attAlign(off, a.Align)
			off += copy(data[off:], v)
		case len(v)+1 <= varShortMax:
			infomask |= HeapHasVarwidth
			data[off] = byte((len(v)+1)<<1 | 1)
			off += 1 + copy(data[off+1:], v)
		default:
			infomask |= HeapHasVarwidth
			off = attAlign(off, a.Align)
			binary.LittleEndian.PutUint32(data[off:], uint32(len(v)+4)<<2)
			off += 4 + copy(data[off+4:], v)
		}
	}
	SetInfomask(t, infomask)
	return dst, nil
}

// DeformTuple is heap_deform_tuple: it sets values[i] to a slice of tup
// holding attribute i (a varlena's content with its header stripped) and
// isnull[i], for i < len(desc). Attributes past the tuple's t_natts (added
// to the descriptor later) have their Missing value, NULL without one, as
// heap_deform_tuple's getmissingattr gives; attributes past len(desc) are
// ignored.
// values and isnull must have len(desc) entries.
//
// tup is checked as it is walked: a t_hoff, null bitmap, alignment or
// varlena length that points outside tup, a TOAST pointer or a compressed
// value gives a DataCorrupted error, never a panic. Bytes after the last
// attribute are not looked at (PostgreSQL does not either).
func DeformTuple(desc TupleDesc, tup []byte, values [][]byte, isnull []bool) error {
	if err := checkDesc(desc); err != nil {
		return err
	}
	if len(values) < len(desc) || len(isnull) < len(desc) {
		return pgerr.New(pgerr.InternalError, "heap: DeformTuple: %d attributes, room for %d values, %d null flags",
			len(desc), len(values), len(isnull))
	}
	corrupt := func(format string, args ...any) error {
		return pgerr.New(pgerr.DataCorrupted, "heap: malformed tuple: "+format, args...)
	}
	if len(tup) < TupleHeaderSize {
		return corrupt("%d bytes, shorter than the tuple header", len(tup))
	}
	natts := Natts(tup)
	hasNull := Infomask(tup)&HeapHasNull != 0
	hoff := Hoff(tup)
	minHoff := TupleHeaderSize
	if hasNull {
		minHoff += (natts + 7) / 8
	}
	if hoff < minHoff || hoff%page.MaxAlign != 0 || hoff > len(tup) {
		return corrupt("t_hoff %d (natts %d, null bitmap %v, length %d)", hoff, natts, hasNull, len(tup))
	}
	data := tup[hoff:]
	off := 0
	for i, a := range desc {
		values[i], isnull[i] = nil, true
		if i >= natts {
			if a.Missing != nil {
				values[i], isnull[i] = a.Missing, false
			}
			continue
		}
		if hasNull && tup[TupleHeaderSize+i/8]&(1<<(i%8)) == 0 {
			continue
		}
		if a.Len > 0 {
			off = attAlign(off, a.Align)
			end := off + int(a.Len)
			if end > len(data) {
				return corrupt("attribute %d at %d+%d past the end (%d)", i+1, off, a.Len, len(data))
			}
			values[i], isnull[i] = data[off:end:end], false
			off = end
			continue
		}
		// att_align_pointer: a non-zero byte here is a short header.
		if off < len(data) && data[off] == 0 {
			off = attAlign(off, a.Align)
		}
		if off >= len(data) {
			return corrupt("attribute %d at %d past the end (%d)", i+1, off, len(data))
		}
		var hdr, n int
		switch b := data[off]; {
		case b == 0x01:
			return corrupt("attribute %d is a TOAST pointer", i+1)
		case b&0x01 == 1:
			hdr, n = 1, int(b>>1)
		case b&0x03 != 0:
			return corrupt("attribute %d is compressed", i+1)
		default:
			if off+4 > len(data) {
				return corrupt("attribute %d: varlena header past the end", i+1)
			}
			hdr, n = 4, int(binary.LittleEndian.Uint32(data[off:])>>2)
		}
		if n < hdr || n > len(data)-off {
			return corrupt("attribute %d: varlena length %d at %d, %d bytes left", i+1, n, off, len(data)-off)
		}
		end := off + n
		values[i], isnull[i] = data[off+hdr:end:end], false
		off = end
	}
	return nil
}
