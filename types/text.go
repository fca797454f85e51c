package types

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cockroachdb/apd/v3"

	"minipg/pgerr"
	"minipg/storage/page"
)

// FormatText is the type's output function (PostgreSQL 15 text form, with
// DateStyle ISO and extra_float_digits 1). d must not be nil.
func FormatText(t T, d Datum) string { return string(AppendText(nil, t, d)) }

// FormatTextIn is FormatText with loc as the session's TimeZone (which only
// timestamp with time zone's output reads).
func FormatTextIn(t T, d Datum, loc *time.Location) string {
	return string(AppendTextIn(nil, t, d, loc))
}

// AppendText appends FormatText(t, d) to buf. A Datum whose Go type does not
// match t is formatted by its own Go type. timestamptz is shown in UTC; see
// AppendTextIn.
func AppendText(buf []byte, t T, d Datum) []byte { return AppendTextIn(buf, t, d, time.UTC) }

// AppendTextIn is AppendText with loc as the session's TimeZone.
func AppendTextIn(buf []byte, t T, d Datum, loc *time.Location) []byte {
	return AppendTextConv(buf, t, d, Conv{Loc: loc})
}

// AppendTextConv is AppendText with the session's TimeZone and
// IntervalStyle.
func AppendTextConv(buf []byte, t T, d Datum, cv Conv) []byte {
	if out, ok := appendExtText(buf, t, d, cv); ok {
		return out
	}
	loc := cv.Loc
	switch v := d.(type) {
	case IntervalValue:
		return appendIntervalStyle(buf, v, cv.IntervalStyle)
	case nil:
		return buf
	case bool:
		if v {
			return append(buf, 't')
		}
		return append(buf, 'f')
	case int64:
		return strconv.AppendInt(buf, v, 10)
	case float64:
		bits := 64
		if t.OID == Float4 {
			bits = 32
		}
		if cv.FloatCut > 0 {
			return appendFloatDigits(buf, v, bits, cv.FloatCut)
		}
		return appendFloat(buf, v, bits)
	case string:
		return append(buf, v...)
	case *apd.Decimal:
		return appendNumeric(buf, v)
	case time.Time:
		if t.OID == Date {
			return appendDate(buf, v)
		}
		if t.OID == TimestampTZ {
			if loc == nil {
				loc = time.UTC
			}
			return appendTimestampTZ(buf, v, loc)
		}
		return appendTimestamp(buf, v)
	case page.TID:
		buf = append(buf, '(')
		buf = strconv.AppendUint(buf, uint64(v.Block), 10)
		buf = append(buf, ',')
		buf = strconv.AppendUint(buf, uint64(v.Offset), 10)
		return append(buf, ')')
	case int:
		return strconv.AppendInt(buf, int64(v), 10)
	case int32:
		return strconv.AppendInt(buf, int64(v), 10)
	case float32:
		return appendFloat(buf, float64(v), 32)
	case []byte:
		if t.OID == Bytea {
			if cv.ByteaEscape {
				return appendByteaEscape(buf, v)
			}
			return appendBytea(buf, v)
		}
		return append(buf, v...)
	case LSN:
		return append(buf, FormatLSN(v)...)
	}
	return buf
}

// ParseText is the type's input function, applying t's typmod as PostgreSQL's
// input functions do (numeric(5,2) rounds, varchar(n) errors 22001 unless the
// excess is blanks, char(n) pads, timestamp(p) rounds).
func ParseText(t T, s string) (Datum, error) { return ParseTextIn(t, s, time.UTC) }

// ParseTextIn is ParseText with loc as the session's TimeZone (which only
// timestamp with time zone's input reads).
func ParseTextIn(t T, s string, loc *time.Location) (Datum, error) {
	return ParseTextConv(t, s, Conv{Loc: loc})
}

// ParseTextConv is ParseText with the session's TimeZone and IntervalStyle.
func ParseTextConv(t T, s string, cv Conv) (Datum, error) {
	if extType(t.OID) {
		return parseExtText(t, s, cv)
	}
	loc := cv.Loc
	switch t.OID {
	case TimestampTZ:
		if loc == nil {
			loc = time.UTC
		}
		v, err := parseTimestampTZ(s, loc, cv)
		if err != nil {
			return nil, err
		}
		return timestampApplyTypmod(v, t.Typmod), nil
	case Interval:
		return ParseIntervalStyle(s, t.Typmod, cv.IntervalStyle)
	case Bool:
		return parseBool(s)
	case Int2:
		return parseInt(s, 16, "smallint")
	case Int4:
		return parseInt(s, 32, "integer")
	case Int8:
		return parseInt(s, 64, "bigint")
	case Float4:
		return parseFloat(s, 32)
	case Float8:
		return parseFloat(s, 64)
	case Numeric:
		d, err := parseNumeric(s)
		if err != nil {
			return nil, err
		}
		return numApplyTypmod(d, t.Typmod)
	case Text, Unknown:
		if err := checkEncoding(s); err != nil {
			return nil, err
		}
		return s, nil
	case Varchar, Bpchar:
		if err := checkEncoding(s); err != nil {
			return nil, err
		}
		return charApplyTypmod(s, t, false)
	case Timestamp:
		v, err := parseTimestamp(s, cv)
		if err != nil {
			return nil, err
		}
		return timestampApplyTypmod(v, t.Typmod), nil
	case Date:
		return parseDate(s, cv)
	case TID:
		return parseTID(s)
	case Void:
		return nil, nil
	case Bytea, Oid, Xid, Cid, PgLSN:
		return parseSys(t, s)
	}
	return nil, errUnsupported(t)
}

// parseBool is boolin (parse_bool_with_len).
func parseBool(in string) (Datum, error) {
	s := strings.ToLower(trimSpace(in))
	if s != "" {
		switch s[0] {
		case 't':
			if strings.HasPrefix("true", s) {
				return true, nil
			}
		case 'f':
			if strings.HasPrefix("false", s) {
				return false, nil
			}
		case 'y':
			if strings.HasPrefix("yes", s) {
				return true, nil
			}
		case 'n':
			if strings.HasPrefix("no", s) {
				return false, nil
			}
		case 'o':
			if len(s) >= 2 && strings.HasPrefix("on", s) {
				return true, nil
			}
			if len(s) >= 2 && strings.HasPrefix("off", s) {
				return false, nil
			}
		case '1':
			if s == "1" {
				return true, nil
			}
		case '0':
			if s == "0" {
				return false, nil
			}
		}
	}
	return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type boolean: \"%s\"", in)
}

// skipBlanksAndSign returns the index after s's leading blanks and an
// optional sign, and whether the sign was '-' (the start of strtol and
// pg_strtoint).
func skipBlanksAndSign(s string) (i int, neg bool) {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	return i, neg
}

// parseInt is pg_strtoint16/32/64.
func parseInt(in string, bits int, typ string) (Datum, error) {
	i, neg := skipBlanksAndSign(in)
	if i >= len(in) || in[i] < '0' || in[i] > '9' {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", typ, in)
	}
	limit := uint64(1) << (bits - 1) // magnitude limit for negatives
	var acc uint64
	for ; i < len(in) && in[i] >= '0' && in[i] <= '9'; i++ {
		acc = acc*10 + uint64(in[i]-'0')
		if acc > limit {
			return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", in, typ)
		}
	}
	for i < len(in) && isSpace(in[i]) {
		i++
	}
	if i != len(in) {
		return nil, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type %s: \"%s\"", typ, in)
	}
	if !neg && acc == limit {
		return nil, pgerr.New(pgerr.NumericValueOutOfRange, "value \"%s\" is out of range for type %s", in, typ)
	}
	if neg {
		return -int64(acc), nil
	}
	return int64(acc), nil
}

// checkEncoding rejects what PostgreSQL's UTF8 verification rejects:
// invalid sequences and NUL bytes.
func checkEncoding(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c == 0 {
				return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": 0x00")
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			want := 1
			switch {
			case c >= 0xC0 && c < 0xE0:
				want = 2
			case c >= 0xE0 && c < 0xF0:
				want = 3
			case c >= 0xF0 && c < 0xF8:
				want = 4
			}
			if i+want > len(s) {
				return pgerr.New(pgerr.CharacterNotInRepertoire, "incomplete multibyte character")
			}
			var b strings.Builder
			for k := 0; k < want; k++ {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString("0x" + strconv.FormatUint(uint64(s[i+k])|0x100, 16)[1:])
			}
			return pgerr.New(pgerr.CharacterNotInRepertoire, "invalid byte sequence for encoding \"UTF8\": %s", b.String())
		}
		i += n
	}
	return nil
}

// charClip returns the byte length of the first n characters of s.
func charClip(s string, n int) int {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, sz := utf8.DecodeRuneInString(s[i:])
		i += sz
	}
	return i
}

// charApplyTypmod applies varchar(n)/char(n) to s: a longer value is an
// error 22001 unless the excess is blanks or the cast is explicit (then it
// is truncated); char(n) is blank-padded to n characters.
func charApplyTypmod(s string, t T, explicit bool) (string, error) {
	n, ok := t.CharLen()
	if !ok {
		return s, nil
	}
	nc := len(s)
	if nc > n || t.OID == Bpchar {
		nc = utf8.RuneCountInString(s)
	}
	if nc > n {
		clip := charClip(s, n)
		if !explicit {
			for j := clip; j < len(s); j++ {
				if s[j] != ' ' {
					if t.OID == Bpchar {
						return "", pgerr.New(pgerr.StringDataRightTruncation, "value too long for type character(%d)", n)
					}
					return "", pgerr.New(pgerr.StringDataRightTruncation, "value too long for type character varying(%d)", n)
				}
			}
		}
		return s[:clip], nil
	}
	if t.OID == Bpchar && nc < n {
		return s + strings.Repeat(" ", n-nc), nil
	}
	return s, nil
}

// bpcharTrim strips trailing blanks (bpchar to text, bpchar comparison).
func bpcharTrim(s string) string { return strings.TrimRight(s, " ") }

// strtoul mimics C strtoul(…, 10) on a 64-bit machine: it returns the value,
// the rest of the string and whether it overflowed.
func strtoul(s string) (v uint64, rest string, overflow bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			overflow = true
		}
		v = v*10 + d
	}
	if i == start {
		return 0, s, false
	}
	if neg {
		v = -v
	}
	return v, s[i:], overflow
}

// parseTID is tidin.
func parseTID(in string) (Datum, error) {
	bad := func() error {
		return pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type tid: \"%s\"", in)
	}
	var coord [2]string
	n := 0
	for p := 0; p < len(in) && n < 2 && in[p] != ')'; p++ {
		if in[p] == ',' || (in[p] == '(' && n == 0) {
			coord[n] = in[p+1:]
			n++
		}
	}
	if n < 2 {
		return nil, bad()
	}
	blk, rest, of := strtoul(coord[0])
	if of || rest == "" || rest[0] != ',' {
		return nil, bad()
	}
	if blk != uint64(uint32(blk)) && blk != uint64(int64(int32(uint32(blk)))) {
		return nil, bad()
	}
	off, rest, of := strtoul(coord[1])
	if of || rest == "" || rest[0] != ')' || int64(off) < 0 || off > math.MaxUint16 {
		return nil, bad()
	}
	return page.TID{Block: uint32(blk), Offset: uint16(off)}, nil
}
