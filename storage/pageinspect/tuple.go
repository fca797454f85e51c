package pageinspect

import (
	"minipg/pgerr"
)

// Attr is what tuple_data_split needs of a column: pg_attribute's attlen
// (>0 fixed, -1 varlena) and attalign ('c', 's', 'i' or 'd').
type Attr struct {
	Len   int16
	Align byte
}

// The t_infomask and t_infomask2 bits heap_tuple_infomask_flags names
// (htup_details.h).
const (
	heapHasVarWidth     = 0x0002
	heapHasExternal     = 0x0004
	heapXmaxKeyShrLock  = 0x0010
	heapComboCID        = 0x0020
	heapXmaxExclLock    = 0x0040
	heapXmaxLockOnly    = 0x0080
	heapXmaxShrLock     = heapXmaxExclLock | heapXmaxKeyShrLock
	heapXminCommitted   = 0x0100
	heapXminInvalid     = 0x0200
	heapXminFrozen      = heapXminCommitted | heapXminInvalid
	heapXmaxCommitted   = 0x0400
	heapXmaxInvalid     = 0x0800
	heapXmaxIsMulti     = 0x1000
	heapUpdated         = 0x2000
	heapMovedOff        = 0x4000
	heapMovedIn         = 0x8000
	heapMoved           = heapMovedOff | heapMovedIn
	heapKeysUpdated     = 0x2000
	heapHotUpdated      = 0x4000
	heapOnlyTuple       = 0x8000
	maxAlign            = 8
	varlenaExternalByte = 0x01 // VARATT_IS_EXTERNAL: a 1-byte header of 0x01
	vartagIndirect      = 1
	vartagOnDisk        = 18
)

// InfomaskFlags is heap_tuple_infomask_flags: the names of the bits set in
// t_infomask then t_infomask2 (raw), and of the multi-bit masks wholly set
// (combined). Only the low 16 bits of each argument count, as in
// PostgreSQL, which reads them as int2.
func InfomaskFlags(infomask, infomask2 uint16) (raw, combined []string) {
	raw, combined = []string{}, []string{}
	for _, f := range []struct {
		bit  uint16
		name string
	}{
		{heapHasNull, "HEAP_HASNULL"}, {heapHasVarWidth, "HEAP_HASVARWIDTH"}, {heapHasExternal, "HEAP_HASEXTERNAL"},
		{heapHasOidOld, "HEAP_HASOID_OLD"}, {heapXmaxKeyShrLock, "HEAP_XMAX_KEYSHR_LOCK"}, {heapComboCID, "HEAP_COMBOCID"},
		{heapXmaxExclLock, "HEAP_XMAX_EXCL_LOCK"}, {heapXmaxLockOnly, "HEAP_XMAX_LOCK_ONLY"},
		{heapXminCommitted, "HEAP_XMIN_COMMITTED"}, {heapXminInvalid, "HEAP_XMIN_INVALID"},
		{heapXmaxCommitted, "HEAP_XMAX_COMMITTED"}, {heapXmaxInvalid, "HEAP_XMAX_INVALID"},
		{heapXmaxIsMulti, "HEAP_XMAX_IS_MULTI"}, {heapUpdated, "HEAP_UPDATED"},
		{heapMovedOff, "HEAP_MOVED_OFF"}, {heapMovedIn, "HEAP_MOVED_IN"},
	} {
		if infomask&f.bit != 0 {
			raw = append(raw, f.name)
		}
	}
	for _, f := range []struct {
		bit  uint16
		name string
	}{{heapKeysUpdated, "HEAP_KEYS_UPDATED"}, {heapHotUpdated, "HEAP_HOT_UPDATED"}, {heapOnlyTuple, "HEAP_ONLY_TUPLE"}} {
		if infomask2&f.bit != 0 {
			raw = append(raw, f.name)
		}
	}
	for _, f := range []struct {
		mask uint16
		name string
	}{{heapXmaxShrLock, "HEAP_XMAX_SHR_LOCK"}, {heapXminFrozen, "HEAP_XMIN_FROZEN"}, {heapMoved, "HEAP_MOVED"}} {
		if infomask&f.mask == f.mask {
			combined = append(combined, f.name)
		}
	}
	return raw, combined
}

func errCorrupted(format string, args ...any) error {
	return pgerr.New(pgerr.DataCorrupted, format, args...)
}

// TextToBits is tuple_data_split's reading of a t_bits string: the bitmap
// of a tuple with natts attributes, checked for length and characters.
func TextToBits(s string, natts int) ([]byte, error) {
	want := (natts + 7) / 8 * 8
	if len(s) != want {
		return nil, errCorrupted("unexpected length of t_bits string: %d, expected %d", len(s), want)
	}
	bits := make([]byte, (len(s)+7)/8)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '0':
		case '1':
			bits[i/8] |= 1 << (i % 8)
		default:
			ch := s[i:]
			for k := 1; k <= len(ch); k++ {
				if k == len(ch) || ch[k]&0xC0 != 0x80 {
					ch = ch[:k]
					break
				}
			}
			return nil, errCorrupted("invalid character \"%s\" in t_bits string", ch)
		}
	}
	return bits, nil
}

// TupleDataSplit is tuple_data_split_internal: the attribute values of a
// tuple's data area, each as its raw bytes (nil for NULL), given the
// relation's attributes. Attributes past the tuple's natts are NULL (ADD
// COLUMN without a default). bits is nil when the tuple has no null bitmap.
// Varlena values are returned as stored (with their header), or with
// detoast as the value itself; minipg neither compresses nor TOASTs, so a
// compressed or external value (typed in by hand) cannot be detoasted.
func TupleDataSplit(data []byte, infomask, infomask2 uint16, bits []byte, attrs []Attr, detoast bool) ([][]byte, error) {
	natts := int(infomask2 & heapNattsMask)
	if len(attrs) < natts {
		return nil, errCorrupted("number of attributes in tuple header is greater than number of attributes in tuple descriptor")
	}
	out := make([][]byte, len(attrs))
	off := 0
	for i, a := range attrs {
		isNull := i >= natts || (infomask&heapHasNull != 0 && (i/8 >= len(bits) || bits[i/8]&(1<<(i%8)) == 0))
		if isNull {
			continue
		}
		var n int
		if a.Len == -1 {
			// att_align_pointer: a short (1-byte header) varlena is not
			// aligned; a zero byte is padding.
			if off >= len(data) || data[off] == 0 {
				off = alignTo(off, a.Align)
			}
			if off >= len(data) {
				return nil, errCorrupted("unexpected end of tuple data")
			}
			b := data[off]
			switch {
			case b == varlenaExternalByte:
				var tag byte
				if off+1 < len(data) {
					tag = data[off+1]
				}
				if tag != vartagOnDisk && tag != vartagIndirect {
					return nil, errCorrupted("first byte of varlena attribute is incorrect for attribute %d", i)
				}
				if tag == vartagOnDisk {
					n = 2 + 16
				} else {
					n = 2 + 8
				}
			case b&0x01 == 1: // 1-byte header
				n = int(b >> 1)
			default: // 4-byte header
				if off+4 > len(data) {
					return nil, errCorrupted("unexpected end of tuple data")
				}
				n = int(uint32(data[off])|uint32(data[off+1])<<8|uint32(data[off+2])<<16|uint32(data[off+3])<<24) >> 2
			}
		} else {
			off = alignTo(off, a.Align)
			n = int(a.Len)
		}
		if len(data) < off+n {
			return nil, errCorrupted("unexpected end of tuple data")
		}
		v := data[off : off+n]
		if a.Len == -1 && detoast {
			switch {
			case v[0] == varlenaExternalByte, v[0]&0x03 == 0x02:
				return nil, pgerr.New(pgerr.FeatureNotSupported, "cannot detoast attribute %d: minipg stores no compressed or external values", i)
			case v[0]&0x01 == 1:
				v = v[1:]
			default:
				v = v[4:]
			}
		}
		out[i] = append([]byte{}, v...)
		off += n
	}
	if len(data) != off {
		return nil, errCorrupted("end of tuple reached without looking at all its data")
	}
	return out, nil
}

func alignTo(off int, a byte) int {
	n := 4
	switch a {
	case 'c':
		n = 1
	case 's':
		n = 2
	case 'd':
		n = maxAlign
	}
	return (off + n - 1) &^ (n - 1)
}
