package executor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/storage/page"
	"minipg/types"
)

// CopyFormat returns the COPY format ("text", "csv" or "binary") and the
// number of columns, for CopyInResponse.
func (pt *Portal) CopyFormat() (format string, ncols int) {
	if pt.copy == nil {
		return "text", 0
	}
	return pt.copy.Format, len(pt.copy.Cols)
}

// copyBatch is how many rows COPY hands to heap.MultiInsert at once.
const copyBatch = 1000

var binarySignature = []byte("PGCOPY\n\377\r\n\x00")

func badCopy(format string, args ...any) error {
	return pgerr.New(pgerr.BadCopyFileFormat, format, args...)
}

// CopyFrom consumes the COPY data stream (CopyData payloads concatenated;
// io.EOF at CopyDone) and inserts the rows. The tag is "COPY n".
func (pt *Portal) CopyFrom(ctx context.Context, r io.Reader) (tag string, err error) {
	s := pt.s
	if pt.copy == nil {
		return "", s.fail(pgerr.New(pgerr.ProtocolViolation, "portal is not a COPY FROM STDIN"))
	}
	if pt.started {
		return "", pgerr.New(pgerr.ProtocolViolation, "COPY already ran")
	}
	pt.started = true
	if s.failed && s.explicit {
		pt.done = true
		return "", errAborted()
	}
	if err := s.checkReadOnly("COPY FROM"); err != nil {
		pt.done = true
		return "", s.fail(err)
	}
	n, err := pt.copyFrom(ctx, r)
	if err != nil {
		pt.finish(err)
		pt.done = true
		return "", s.fail(err)
	}
	pt.finish(nil)
	pt.done = true
	pt.tag = fmt.Sprintf("COPY %d", n)
	return pt.tag, nil
}

func (pt *Portal) copyFrom(ctx context.Context, r io.Reader) (int64, error) {
	c := pt.copy
	x, err := pt.newExecCtx(ctx, c.Table.OID, true)
	if err != nil {
		return 0, err
	}
	rel := x.rel
	ncols := len(rel.types)
	ld := &copyLoader{x: x, c: c, ist: heap.NewBulkInsertState(), enc: newEncoder(rel)}
	ld.colTypes = make([]types.T, len(c.Cols))
	for i, col := range c.Cols {
		ld.colTypes[i] = rel.types[col]
	}
	ld.given = make([]bool, ncols)
	for _, col := range c.Cols {
		ld.given[col] = true
	}
	br := bufio.NewReaderSize(r, 64<<10)
	switch c.Format {
	case "binary":
		err = ld.readBinary(ctx, br)
	case "csv":
		err = ld.readCSV(ctx, br)
	default:
		err = ld.readText(ctx, br)
	}
	if err == nil {
		err = ld.flush()
	}
	if err != nil && errors.Is(err, context.Canceled) {
		err = pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return ld.n, err
}

type copyLoader struct {
	x        *execCtx
	c        *sql.Copy
	colTypes []types.T
	given    []bool
	ist      *heap.InsertState
	enc      *encoder
	rows     [][]types.Datum
	row      []types.Datum // reused by addRow when there are no indexes
	tups     [][]byte
	n        int64
	line     int
}

// addRow takes the values of the COPY columns (already typed) and queues a
// full row.
func (ld *copyLoader) addRow(vals []types.Datum) error {
	r := ld.x.rel
	ncols := len(r.types)
	var row []types.Datum
	if len(r.indexes) > 0 {
		row = make([]types.Datum, ncols+1) // kept for the index entries
	} else {
		if ld.row == nil {
			ld.row = make([]types.Datum, ncols+1)
		}
		row = ld.row
		clear(row)
	}
	for i, col := range ld.c.Cols {
		row[col] = vals[i]
	}
	for col := 0; col < ncols; col++ {
		if ld.given[col] || ld.c.Defaults[col] == nil {
			continue
		}
		v, err := ld.x.ev.eval(ld.c.Defaults[col], nil)
		if err != nil {
			return err
		}
		row[col] = v
	}
	if err := r.checkNotNull(row); err != nil {
		return err
	}
	tup, err := ld.enc.encode(row)
	if err != nil {
		return err
	}
	if len(r.indexes) > 0 {
		ld.rows = append(ld.rows, row) // for the index entries
	}
	ld.tups = append(ld.tups, tup)
	if len(ld.tups) >= copyBatch {
		return ld.flush()
	}
	return nil
}

func (ld *copyLoader) flush() error {
	if len(ld.tups) == 0 {
		return nil
	}
	if err := canceled(ld.x.ctx); err != nil {
		return err
	}
	r := ld.x.rel
	tids, err := r.heap.MultiInsert(ld.tups, ld.x.xid, ld.x.cid, ld.ist)
	if err != nil {
		return err
	}
	ncols := len(r.types)
	if len(r.indexes) > 0 {
		for i, tid := range tids {
			ld.rows[i][ncols] = tid
			if err := ld.x.insertIndexEntries(ld.rows[i], tid, nil); err != nil {
				return err
			}
		}
	}
	ld.n += int64(len(tids))
	ld.rows, ld.tups = ld.rows[:0], ld.tups[:0]
	return nil
}

// readLine returns the next line without its line ending; ok=false at EOF.
func readLine(br *bufio.Reader) (string, bool, error) {
	line, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return "", false, err
	}
	if line == "" && err == io.EOF {
		return "", false, nil
	}
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	}
	return line[:n], true, nil
}

func (ld *copyLoader) parseField(i int, s string) (types.Datum, error) {
	t := ld.colTypes[i]
	v, err := types.ParseText(t, s)
	if err != nil {
		return nil, err
	}
	return v, nil
}

func (ld *copyLoader) readText(ctx context.Context, br *bufio.Reader) error {
	c := ld.c
	first := true
	for {
		line, ok, err := readLine(br)
		if err != nil || !ok {
			return err
		}
		ld.line++
		if line == `\.` {
			return nil
		}
		if first && c.Header {
			first = false
			continue
		}
		first = false
		fields, err := splitText(line, c.Delimiter)
		if err != nil {
			return err
		}
		if err := addFields(ld, fields,
			func(f textField) bool { return f.raw == c.Null },
			func(f textField) string { return f.val }); err != nil {
			return err
		}
	}
}

// addFields converts one line's fields of a text or CSV COPY to a row and
// adds it. Fields are converted in order before a missing column is
// reported, as PostgreSQL does, so a bad value earlier on the line wins.
func addFields[F any](ld *copyLoader, fields []F, isNull func(F) bool, val func(F) string) error {
	ncols := len(ld.c.Cols)
	if len(fields) > ncols {
		return badCopy("extra data after last expected column")
	}
	vals := make([]types.Datum, ncols)
	for i, f := range fields {
		if isNull(f) {
			continue
		}
		var err error
		if vals[i], err = ld.parseField(i, val(f)); err != nil {
			return err
		}
	}
	if len(fields) < ncols {
		return badCopy("missing data for column \"%s\"", ld.x.rel.def.Columns[ld.c.Cols[len(fields)]].Name)
	}
	return ld.addRow(vals)
}

type textField struct{ raw, val string }

// splitText splits a text-format line at unescaped delimiters and
// de-escapes each field; raw keeps the field as written (for the NULL test).
func splitText(line string, delim byte) ([]textField, error) {
	if strings.IndexByte(line, '\\') < 0 {
		// No escapes: fields are substrings.
		out := make([]textField, 0, 8)
		for {
			i := strings.IndexByte(line, delim)
			if i < 0 {
				return append(out, textField{raw: line, val: line}), nil
			}
			out = append(out, textField{raw: line[:i], val: line[:i]})
			line = line[i+1:]
		}
	}
	var out []textField
	var val []byte
	start := 0
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == delim {
			out = append(out, textField{raw: line[start:i], val: string(val)})
			val = val[:0]
			start = i + 1
			continue
		}
		ch := line[i]
		if ch != '\\' {
			val = append(val, ch)
			continue
		}
		i++
		if i >= len(line) {
			// A trailing backslash: PostgreSQL keeps it literally.
			val = append(val, '\\')
			break
		}
		ch = line[i]
		switch ch {
		case 'b':
			val = append(val, '\b')
		case 'f':
			val = append(val, '\f')
		case 'n':
			val = append(val, '\n')
		case 'r':
			val = append(val, '\r')
		case 't':
			val = append(val, '\t')
		case 'v':
			val = append(val, '\v')
		case 'x':
			v, n := 0, 0
			for n < 2 && i+1 < len(line) && isHex(line[i+1]) {
				i++
				v = v*16 + hexVal(line[i])
				n++
			}
			if n == 0 {
				val = append(val, 'x')
			} else {
				val = append(val, byte(v))
			}
		default:
			if ch >= '0' && ch <= '7' {
				v := int(ch - '0')
				for n := 1; n < 3 && i+1 < len(line) && line[i+1] >= '0' && line[i+1] <= '7'; n++ {
					i++
					v = v*8 + int(line[i]-'0')
				}
				val = append(val, byte(v))
			} else {
				val = append(val, ch)
			}
		}
	}
	return out, nil
}

func isHex(b byte) bool {
	return (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f') || (b >= 'A' && b <= 'F')
}

func hexVal(b byte) int {
	switch {
	case b >= '0' && b <= '9':
		return int(b - '0')
	case b >= 'a' && b <= 'f':
		return int(b-'a') + 10
	}
	return int(b-'A') + 10
}

func (ld *copyLoader) readCSV(ctx context.Context, br *bufio.Reader) error {
	c := ld.c
	first := true
	for {
		line, ok, err := readLine(br)
		if err != nil || !ok {
			return err
		}
		ld.line++
		if line == `\.` {
			return nil
		}
		fields, err := ld.splitCSV(line, br)
		if err != nil {
			return err
		}
		if first && c.Header {
			first = false
			continue
		}
		first = false
		if err := addFields(ld, fields,
			func(f csvField) bool { return !f.quoted && f.val == c.Null },
			func(f csvField) string { return f.val }); err != nil {
			return err
		}
	}
}

type csvField struct {
	val    string
	quoted bool
}

// splitCSV splits one CSV record; a quoted field may continue on the next
// lines.
func (ld *copyLoader) splitCSV(line string, br *bufio.Reader) ([]csvField, error) {
	c := ld.c
	var out []csvField
	var val bytes.Buffer
	quoted, inQuote := false, false
	for i := 0; ; i++ {
		if i >= len(line) {
			if inQuote {
				next, ok, err := readLine(br)
				if err != nil {
					return nil, err
				}
				if !ok {
					return nil, badCopy("unterminated CSV quoted field")
				}
				ld.line++
				val.WriteByte('\n')
				line, i = next, -1
				continue
			}
			out = append(out, csvField{val: val.String(), quoted: quoted})
			return out, nil
		}
		ch := line[i]
		if inQuote {
			switch {
			case ch == c.Escape && i+1 < len(line) && (line[i+1] == c.Quote || (c.Escape != c.Quote && line[i+1] == c.Escape)):
				val.WriteByte(line[i+1])
				i++
			case ch == c.Quote:
				inQuote = false
			default:
				val.WriteByte(ch)
			}
			continue
		}
		switch ch {
		case c.Delimiter:
			out = append(out, csvField{val: val.String(), quoted: quoted})
			val.Reset()
			quoted = false
		case c.Quote:
			inQuote, quoted = true, true
		default:
			val.WriteByte(ch)
		}
	}
}

func (ld *copyLoader) readBinary(ctx context.Context, br *bufio.Reader) error {
	sig := make([]byte, len(binarySignature))
	if _, err := io.ReadFull(br, sig); err != nil || !bytes.Equal(sig, binarySignature) {
		return badCopy("COPY file signature not recognized")
	}
	var hdr [8]byte
	if _, err := io.ReadFull(br, hdr[:]); err != nil {
		return badCopy("invalid COPY file header (missing flags)")
	}
	flags := binary.BigEndian.Uint32(hdr[:4])
	if flags&(1<<16) != 0 {
		return badCopy("invalid COPY file header (WITH OIDS)")
	}
	if flags&0xFFFF0000&^(1<<16) != 0 {
		return badCopy("unrecognized critical flags in COPY file header")
	}
	extLen := binary.BigEndian.Uint32(hdr[4:])
	if _, err := io.CopyN(io.Discard, br, int64(extLen)); err != nil {
		return badCopy("invalid COPY file header (wrong length)")
	}
	ncols := len(ld.c.Cols)
	var b4 [4]byte
	vals := make([]types.Datum, ncols) // addRow copies them
	var fb []byte                      // field bytes; DecodeBinary keeps none
	for {
		var b2 [2]byte
		if _, err := io.ReadFull(br, b2[:]); err != nil {
			if err == io.EOF {
				return nil // no trailer: accepted, as PostgreSQL does at EOF
			}
			return badCopy("unexpected EOF in COPY data")
		}
		nf := int16(binary.BigEndian.Uint16(b2[:]))
		if nf == -1 {
			return nil
		}
		if int(nf) != ncols {
			return badCopy("row field count is %d, expected %d", nf, ncols)
		}
		for i := 0; i < ncols; i++ {
			vals[i] = nil
			if _, err := io.ReadFull(br, b4[:]); err != nil {
				return badCopy("unexpected EOF in COPY data")
			}
			l := int32(binary.BigEndian.Uint32(b4[:]))
			if l == -1 {
				continue
			}
			if l < 0 {
				return badCopy("invalid field size")
			}
			if cap(fb) < int(l) {
				fb = make([]byte, l)
			}
			buf := fb[:l]
			if _, err := io.ReadFull(br, buf); err != nil {
				return badCopy("unexpected EOF in COPY data")
			}
			v, err := types.DecodeBinary(ld.colTypes[i], buf)
			if err != nil {
				return err
			}
			vals[i] = v
		}
		if err := ld.addRow(vals); err != nil {
			return err
		}
	}
}

var _ = page.TID{}
