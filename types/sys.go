package types

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"minipg/pgerr"
)

// The system types the inspection functions (pageinspect, pg_freespacemap,
// pg_walinspect) take and return:
//
//	bytea    []byte        text form hex (\x0a1b...), bytea_output = 'hex'; input
//	                       hex or escape format (byteain)
//	oid, xid, cid int64    0 .. 2^32-1, decimal text; 4 bytes binary and on disk
//	pg_lsn   LSN           X/X in upper-case hex (pg_lsn_out); 8 bytes binary and
//	                       on disk
//
// They compare as PostgreSQL's btree operators order them (xid has no
// ordering in PostgreSQL; minipg orders it numerically).

// LSN is a pg_lsn value: a position in the write-ahead log.
type LSN uint64

// The OIDs of the system types.
const (
	Bytea OID = 17
	Oid   OID = 26
	Xid   OID = 28
	Cid   OID = 29
	PgLSN OID = 3220
)

// Ready-made system types.
var (
	TBytea = T{Bytea, -1}
	TOid   = T{Oid, -1}
	TXid   = T{Xid, -1}
	TCid   = T{Cid, -1}
	TPgLSN = T{PgLSN, -1}
)

// isSysType reports whether oid is one of this file's types.
func isSysType(oid OID) bool {
	return oid == Bytea || oid == Oid || oid == Xid || oid == Cid || oid == PgLSN
}

// FormatLSN prints an LSN as pg_lsn_out does.
func FormatLSN(l LSN) string { return fmt.Sprintf("%X/%X", uint64(l)>>32, uint32(l)) }

// appendBytea is byteaout with bytea_output = 'hex'.
func appendBytea(buf []byte, v []byte) []byte {
	buf = append(buf, '\\', 'x')
	return hex.AppendEncode(buf, v)
}

// appendByteaEscape is byteaout with bytea_output = 'escape': printable
// ASCII as it is, a backslash doubled, every other byte as \ooo.
func appendByteaEscape(buf []byte, v []byte) []byte {
	for _, c := range v {
		switch {
		case c == '\\':
			buf = append(buf, '\\', '\\')
		case c < 0x20 || c > 0x7e:
			buf = append(buf, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// parseBytea is byteain: "\x" followed by pairs of hex digits (white space
// between pairs allowed), else the escape format (\\, \ooo octal).
func parseBytea(s string) (Datum, error) {
	if strings.HasPrefix(s, `\x`) {
		out := make([]byte, 0, (len(s)-2)/2)
		for i := 2; i < len(s); {
			c := s[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				i++
				continue
			}
			hi, ok := hexVal(c)
			if !ok {
				return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid hexadecimal digit: \"%c\"", c)
			}
			if i+1 >= len(s) {
				return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid hexadecimal data: odd number of digits")
			}
			lo, ok := hexVal(s[i+1])
			if !ok {
				return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid hexadecimal digit: \"%c\"", s[i+1])
			}
			out = append(out, hi<<4|lo)
			i += 2
		}
		return out, nil
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			out = append(out, s[i])
			i++
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i += 2
		case i+3 < len(s) && isOct(s[i+1]) && s[i+1] <= '3' && isOct(s[i+2]) && isOct(s[i+3]):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 4
		default:
			return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s", "bytea")
		}
	}
	return out, nil
}

func isOct(c byte) bool { return c >= '0' && c <= '7' }

func hexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// parseUint32Type is oidin / xidin: a decimal (or, for xid, any base
// strtoul takes) number that fits in 32 bits; oid also takes negative
// numbers down to -2^31, as PostgreSQL's oidin does.
func parseUint32Type(s string, name string) (Datum, error) {
	t := trimSpace(s)
	bad := pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", name, s)
	if t == "" {
		return nil, bad
	}
	if n, err := strconv.ParseUint(t, 10, 64); err == nil {
		if n > 1<<32-1 {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, name)
		}
		return int64(n), nil
	}
	if n, err := strconv.ParseInt(t, 10, 64); err == nil && name == "oid" {
		if n < -1<<31 {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", s, name)
		}
		return int64(uint32(int32(n))), nil
	}
	return nil, bad
}

// parseLSN is pg_lsn_in: two hexadecimal numbers of at most 8 digits
// separated by a slash.
func parseLSN(s string) (Datum, error) {
	bad := pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", "pg_lsn", s)
	hi, lo, ok := strings.Cut(s, "/")
	if !ok || hi == "" || lo == "" || len(hi) > 8 || len(lo) > 8 {
		return nil, bad
	}
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if err1 != nil || err2 != nil {
		return nil, bad
	}
	return LSN(h<<32 | l), nil
}

// parseSys is the input function of the system types.
func parseSys(t T, s string) (Datum, error) {
	switch t.OID {
	case Bytea:
		return parseBytea(s)
	case Oid:
		return parseUint32Type(s, "oid")
	case Xid, Cid:
		return xidIn(s), nil // cidin reads as xidin does
	}
	return parseLSN(s)
}

// appendSysBinary is the send function of the system types.
func appendSysBinary(buf []byte, order binary.AppendByteOrder, t T, d Datum) ([]byte, error) {
	switch t.OID {
	case Bytea:
		if v, ok := d.([]byte); ok {
			return append(buf, v...), nil
		}
	case Oid, Xid, Cid:
		if v, ok := d.(int64); ok {
			return order.AppendUint32(buf, uint32(v)), nil
		}
	case PgLSN:
		if v, ok := d.(LSN); ok {
			return order.AppendUint64(buf, uint64(v)), nil
		}
	}
	return nil, pgerr.New(pgerr.InternalError, "types: value %T is not a %s", d, t.Name())
}

// decodeSys is the receive (and on-disk decode) function of the system types.
func decodeSys(t T, order binary.ByteOrder, b []byte) (Datum, error) {
	switch t.OID {
	case Bytea:
		return append([]byte{}, b...), nil
	case Oid, Xid, Cid:
		if len(b) != 4 {
			return nil, errBinaryFormat()
		}
		return int64(order.Uint32(b)), nil
	}
	if len(b) != 8 {
		return nil, errBinaryFormat()
	}
	return LSN(order.Uint64(b)), nil
}
