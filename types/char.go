package types

import (
	"minipg/pgerr"
)

// "char" (one byte, category Z) is not a string type for casts: it has
// pg_cast entries with text, varchar and bpchar (both ways) and integer
// (both ways, explicit), and name reaches it only through I/O (name is a
// string type). Its text form writes a byte with the high bit set as \ooo.

// isStrCat reports whether oid is of the string category (typcategory S):
// the types the automatic I/O casts go to (by assignment) and come from
// (explicitly).
func isStrCat(oid OID) bool { return oid == Text || oid == Varchar || oid == Bpchar || oid == Name }

// charCastContext is pg_cast for "char" and another type.
func charCastContext(from, to OID) CastContext {
	if from == Char {
		switch to {
		case Text:
			return CastImplicit
		case Varchar, Bpchar, Name:
			return CastAssignment
		case Int4:
			return CastExplicit
		}
		return CastNone
	}
	switch from {
	case Text, Varchar, Bpchar:
		return CastAssignment
	case Int4, Name:
		return CastExplicit
	}
	return CastNone
}

// charIn is charin: \ooo is that byte, else the first byte ("" for none).
func charIn(s string) string {
	if len(s) == 4 && s[0] == '\\' && isOct(s[1]) && isOct(s[2]) && isOct(s[3]) {
		return string([]byte{(s[1]-'0')<<6 | (s[2]-'0')<<3 | (s[3] - '0')})
	}
	if len(s) > 1 {
		return s[:1]
	}
	return s
}

// appendCharOut is charout: a byte with the high bit set as \ooo.
func appendCharOut(buf []byte, s string) []byte {
	if s == "" {
		return buf
	}
	c := s[0]
	if c&0x80 != 0 {
		return append(buf, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
	}
	return append(buf, c)
}

// coerceChar is the casts between "char" and the types pg_cast pairs it
// with; ok is false when neither side is "char".
func coerceChar(d Datum, from, to T, cv Conv) (Datum, bool, error) {
	if (from.OID != Char && to.OID != Char) || from.OID == to.OID {
		return nil, false, nil
	}
	if from.OID == Char {
		s, _ := d.(string)
		switch to.OID {
		case Int4:
			if s == "" {
				return int64(0), true, nil
			}
			return int64(int8(s[0])), true, nil
		case Text, Varchar, Bpchar, Name:
			out := string(appendCharOut(nil, s))
			if to.OID == Name {
				return out, true, nil
			}
			v, err := charApplyTypmod(out, to, true)
			return v, true, err
		}
		return nil, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.Name(), to.Name())
	}
	switch {
	case from.OID == Int4:
		v, err := asInt(from, d)
		if err != nil {
			return nil, true, err
		}
		if v < -128 || v > 127 {
			return nil, true, pgerr.New(pgerr.NumericValueOutOfRange, "\"char\" out of range")
		}
		if v == 0 {
			return "", true, nil
		}
		return string([]byte{byte(int8(v))}), true, nil
	case isString(from.OID) || from.OID == Unknown:
		s, err := asString(from, d)
		if err != nil {
			return nil, true, err
		}
		return charIn(s), true, nil
	}
	return nil, true, pgerr.New(pgerr.CannotCoerce, "cannot cast type %s to %s", from.Name(), to.Name())
}

// xidIn is xidin: C's strtoul with base 0 (0x hex, 0 octal), leading
// blanks skipped, trailing junk ignored, no digits 0, an overflow
// ULONG_MAX and a negative number wrapped, all cut to 32 bits.
func xidIn(s string) int64 {
	i, neg := skipBlanksAndSign(s)
	base := uint64(10)
	if i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && isHex(s[i+2]) {
		base, i = 16, i+2
	} else if i < len(s) && s[i] == '0' {
		base = 8
	}
	var v uint64
	over := false
	for ; i < len(s); i++ {
		d, ok := hexVal(s[i])
		if !ok || uint64(d) >= base {
			break
		}
		if v > (^uint64(0)-uint64(d))/base {
			over = true
		}
		v = v*base + uint64(d)
	}
	if over {
		v = ^uint64(0)
	} else if neg {
		v = -v
	}
	return int64(uint32(v))
}

func isHex(c byte) bool { _, ok := hexVal(c); return ok }
