package executor

// COPY ... TO STDOUT: the rows of a table's columns or of a SELECT,
// encoded in PostgreSQL's text, CSV or binary COPY format (CopyOut in
// PostgreSQL's copyto.c), one CopyData payload per row.

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/types"
)

// IsCopyTo reports whether the portal runs COPY ... TO STDOUT (the server
// then calls CopyTo instead of Run).
func (pt *Portal) IsCopyTo() bool { return pt.copyTo != nil }

// CopyTo runs COPY ... TO STDOUT: send receives each CopyData payload (the
// binary header with the first row, a row per call, the trailer last). The
// tag is "COPY n".
func (pt *Portal) CopyTo(ctx context.Context, send func(data []byte) error) (tag string, err error) {
	s := pt.s
	ct := pt.copyTo
	if ct == nil {
		return "", s.fail(pgerr.New(pgerr.ProtocolViolation, "portal is not a COPY TO STDOUT"))
	}
	defer func() {
		if r := recover(); r != nil {
			pt.finish(errAborted())
			pt.done = true
			tag, err = "", s.fail(s.internalError("executing", r))
		}
	}()
	if err := pt.beginCopy(); err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		pt.finish(err)
		pt.done = true
		return "", s.fail(err)
	}
	if err := pt.startSelect(ctx, ct.Query); err != nil {
		return fail(err)
	}
	enc := &copyEncoder{o: ct.Options, force: ct.ForceQuote, conv: s.Conv()}
	for _, c := range ct.Query.Columns {
		enc.types = append(enc.types, c.T)
	}
	var buf []byte
	if o := ct.Options; o.Format == "binary" {
		buf = append(buf, binarySignature...)
		buf = binary.BigEndian.AppendUint32(buf, 0) // flags
		buf = binary.BigEndian.AppendUint32(buf, 0) // header extension length
	} else if o.Header {
		buf = enc.header(buf, ct.Names)
		if err := send(buf); err != nil {
			return fail(err)
		}
		buf = buf[:0]
	}
	var n int64
	for {
		row, ok, err := pt.rows.Next(ctx)
		if err != nil {
			return fail(err)
		}
		if !ok {
			break
		}
		if buf, err = enc.row(buf, row[:len(enc.types)]); err != nil {
			return fail(err)
		}
		if err := send(buf); err != nil {
			return fail(err)
		}
		buf = buf[:0]
		n++
	}
	if ct.Options.Format == "binary" {
		buf = binary.BigEndian.AppendUint16(buf, 0xFFFF)
		if err := send(buf); err != nil {
			return fail(err)
		}
	}
	pt.finish(nil)
	pt.done = true
	pt.tag = fmt.Sprintf("COPY %d", n)
	return pt.tag, nil
}

// copyEncoder encodes rows in a COPY format.
type copyEncoder struct {
	o     *sql.Copy
	types []types.T
	force []bool
	conv  types.Conv // the session's TimeZone and IntervalStyle
}

func (c *copyEncoder) header(buf []byte, names []string) []byte {
	for i, name := range names {
		if i > 0 {
			buf = append(buf, c.o.Delimiter)
		}
		if c.o.Format == "csv" {
			buf = c.csvField(buf, name, false)
		} else {
			buf = c.textField(buf, name)
		}
	}
	return append(buf, '\n')
}

func (c *copyEncoder) row(buf []byte, row []types.Datum) ([]byte, error) {
	if c.o.Format == "binary" {
		buf = binary.BigEndian.AppendUint16(buf, uint16(len(row)))
		for i, v := range row {
			if v == nil {
				buf = binary.BigEndian.AppendUint32(buf, 0xFFFFFFFF)
				continue
			}
			at := len(buf)
			buf = append(buf, 0, 0, 0, 0)
			var err error
			if buf, err = types.AppendBinary(buf, c.types[i], v); err != nil {
				return nil, err
			}
			binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
		}
		return buf, nil
	}
	for i, v := range row {
		if i > 0 {
			buf = append(buf, c.o.Delimiter)
		}
		if v == nil {
			buf = append(buf, c.o.Null...)
			continue
		}
		s := string(types.AppendTextConv(nil, c.types[i], v, c.conv))
		if c.o.Format == "csv" {
			buf = c.csvField(buf, s, c.force[i])
		} else {
			buf = c.textField(buf, s)
		}
	}
	return append(buf, '\n'), nil
}

// textField escapes s as CopyAttributeOutText does.
func (c *copyEncoder) textField(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch ch {
		case '\b':
			buf = append(buf, '\\', 'b')
		case '\f':
			buf = append(buf, '\\', 'f')
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		case '\v':
			buf = append(buf, '\\', 'v')
		case '\\':
			buf = append(buf, '\\', '\\')
		default:
			if ch == c.o.Delimiter {
				buf = append(buf, '\\')
			}
			buf = append(buf, ch)
		}
	}
	return buf
}

// csvField quotes s as CopyAttributeOutCSV does: when forced, when it is
// the NULL string, when it contains the delimiter, the quote, CR or LF, or
// when it is \. alone.
func (c *copyEncoder) csvField(buf []byte, s string, force bool) []byte {
	q, esc := c.o.Quote, c.o.Escape
	quote := force || s == c.o.Null || s == `\.` ||
		strings.IndexByte(s, c.o.Delimiter) >= 0 || strings.IndexByte(s, q) >= 0 ||
		strings.ContainsAny(s, "\r\n")
	if !quote {
		return append(buf, s...)
	}
	buf = append(buf, q)
	for i := 0; i < len(s); i++ {
		if s[i] == q || s[i] == esc {
			buf = append(buf, esc)
		}
		buf = append(buf, s[i])
	}
	return append(buf, q)
}
