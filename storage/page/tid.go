package page

import (
	"strconv"

	"minipg/pgerr"
)

// TID text form, as PostgreSQL's tidout prints and tidin reads it:
// "(block,offset)".

// String returns "(block,offset)".
func (t TID) String() string {
	b := make([]byte, 0, 24)
	b = append(b, '(')
	b = strconv.AppendUint(b, uint64(t.Block), 10)
	b = append(b, ',')
	b = strconv.AppendUint(b, uint64(t.Offset), 10)
	return string(append(b, ')'))
}

// IsValid is ItemPointerIsValid for a decoded TID: offset != 0.
func (t TID) IsValid() bool { return t.Offset != InvalidOffset }

// ParseTID is tidin. It accepts what PostgreSQL 15 accepts: text up to the
// first '(' is skipped, the block is read as C strtoul reads it (leading
// white space, a sign; "-1" is block 4294967295; an empty number is 0) and
// must end at ',', the offset (strtol, 0..65535) must end at ')', and text
// after ')' is ignored. Errors are 22P02 "invalid input syntax for type tid".
func ParseTID(s string) (TID, error) {
	bad := func() (TID, error) {
		return TID{}, pgerr.New(pgerr.InvalidTextRepresentation, "invalid input syntax for type tid: %q", s)
	}
	var coord [2]int
	n := 0
	for i := 0; i < len(s) && n < 2 && s[i] != ')'; i++ {
		if s[i] == ',' || (s[i] == '(' && n == 0) {
			coord[n] = i + 1
			n++
		}
	}
	if n < 2 {
		return bad()
	}
	blk, neg, end, ok := cStrtoul(s, coord[0])
	if !ok || end >= len(s) || s[end] != ',' {
		return bad()
	}
	// strtoul negates in unsigned long; PostgreSQL accepts a value that fits
	// uint32 or, sign-extended, int32.
	var block uint32
	switch {
	case !neg && blk <= 0xFFFFFFFF:
		block = uint32(blk)
	case neg && blk <= 1<<31:
		block = uint32(-int64(blk))
	default:
		return bad()
	}
	o, neg, end, ok := cStrtoul(s, coord[1])
	if !ok || end >= len(s) || s[end] != ')' || (neg && o != 0) || o > 0xFFFF {
		return bad()
	}
	return TID{Block: block, Offset: uint16(o)}, nil
}

// cStrtoul parses like C strtoul/strtol in base 10 starting at s[i]: it
// returns the magnitude, whether a '-' sign was seen, the end position (i
// itself when there are no digits) and ok=false on overflow of 64 bits.
func cStrtoul(s string, i int) (v uint64, neg bool, end int, ok bool) {
	start := i
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	digits := i
	ok = true
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := uint64(s[i] - '0')
		if v > (^uint64(0)-d)/10 {
			ok = false
		}
		v = v*10 + d
		i++
	}
	if i == digits {
		return 0, false, start, true
	}
	return v, neg, i, ok
}
