package types

import (
	"encoding/binary"
	"math"
	"unicode/utf8"
)

// AppendDiskFromBinary appends the on-disk form of the binary-format value
// b of type t, as AppendDisk(buf, t, DecodeBinary(t, b)) would, without
// making a Datum for the common fixed-width and text types. Binary COPY
// converts every field this way, so the fast cases matter; every other
// case, and every error, goes through DecodeBinary and AppendDisk.
func AppendDiskFromBinary(buf []byte, t T, b []byte) ([]byte, error) {
	switch t.OID {
	case Int2:
		if len(b) == 2 {
			return binary.LittleEndian.AppendUint16(buf, binary.BigEndian.Uint16(b)), nil
		}
	case Int4:
		if len(b) == 4 {
			return binary.LittleEndian.AppendUint32(buf, binary.BigEndian.Uint32(b)), nil
		}
	case Int8:
		if len(b) == 8 {
			return binary.LittleEndian.AppendUint64(buf, binary.BigEndian.Uint64(b)), nil
		}
	case Float8:
		if len(b) == 8 {
			return binary.LittleEndian.AppendUint64(buf, float8Bits(math.Float64frombits(binary.BigEndian.Uint64(b)))), nil
		}
	case Bool:
		if len(b) == 1 {
			if b[0] != 0 {
				return append(buf, 1), nil
			}
			return append(buf, 0), nil
		}
	case Text:
		if utf8.Valid(b) && !containsNUL(b) {
			return append(buf, b...), nil
		}
	}
	d, err := DecodeBinary(t, b)
	if err != nil {
		return buf, err
	}
	return AppendDisk(buf, t, d)
}
