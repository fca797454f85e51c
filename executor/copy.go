package executor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"minipg/pgerr"
	"minipg/sql"
	"minipg/storage/heap"
	"minipg/txn"
	"minipg/types"
)

// CopyFormat returns the COPY format ("text", "csv" or "binary") and the
// number of columns, for CopyInResponse.
func (pt *Portal) CopyFormat() (format string, ncols int) {
	if pt.copyTo != nil {
		return pt.copyTo.Options.Format, len(pt.copyTo.Names)
	}
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

// StartCopyFrom makes the checks PostgreSQL makes before it asks the
// client for COPY data: an aborted transaction, a read-only one.
// The server calls it before CopyInResponse, so that a refused COPY does
// not take the client's next lines for its data.
func (pt *Portal) StartCopyFrom() error {
	s := pt.s
	if pt.copy == nil {
		return s.fail(pgerr.New(pgerr.ProtocolViolation, "portal is not a COPY FROM STDIN"))
	}
	if err := pt.beginCopy(); err != nil {
		return err
	}
	if err := s.checkReadOnly("COPY FROM"); err != nil {
		pt.done = true
		return s.fail(err)
	}
	return nil
}

// CopyFrom consumes the COPY data stream (CopyData payloads concatenated;
// io.EOF at CopyDone) and inserts the rows. The tag is "COPY n".
func (pt *Portal) CopyFrom(ctx context.Context, r io.Reader) (tag string, err error) {
	s := pt.s
	if pt.done {
		return "", s.fail(pgerr.New(pgerr.ProtocolViolation, "COPY already ran"))
	}
	ctx = txn.WithLockOwner(ctx, s)
	if !pt.started {
		if err := pt.StartCopyFrom(); err != nil {
			return "", err
		}
	}
	if pt.copy.Freeze && !s.newRels[pt.copy.Table.OID] {
		// PostgreSQL's rule, checked once the data is asked for; minipg
		// then loads the rows as usual (not frozen).
		pt.done = true
		return "", s.fail(pgerr.New(pgerr.ObjectNotInPrerequisiteState,
			"cannot perform COPY FREEZE because the table was not created or truncated in the current subtransaction"))
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
	// The session's insert state, bulk for the COPY: its target blocks
	// carry over to the session's next statement.
	ist := pt.s.ist
	ist.SetBulk(true)
	defer ist.SetBulk(false)
	ld := &copyLoader{x: x, c: c, ist: ist, enc: newEncoder(rel)}
	ld.colTypes = make([]types.T, len(c.Cols))
	for i, col := range c.Cols {
		ld.colTypes[i] = rel.types[col]
	}
	br := bufio.NewReaderSize(r, 64<<10)
	switch c.Format {
	case "binary":
		err = ld.readBinary(br)
	case "csv":
		err = ld.readCSV(br)
	default:
		err = ld.readText(br)
	}
	if err == nil {
		err = ld.flush()
	}
	// The bulk load ends with the COPY: pages its policy reserved for it
	// and left unused go back to the map (the session keeps its target).
	ist.ReleaseRun(rel.heap)
	if err != nil && errors.Is(err, context.Canceled) {
		err = pgerr.New(pgerr.QueryCanceled, "canceling statement due to user request")
	}
	return ld.n, err
}

type copyLoader struct {
	x        *execCtx
	c        *sql.Copy
	colTypes []types.T // of the COPY columns, in COPY order
	ist      *heap.InsertState
	enc      *encoder
	arena    []byte          // the batch's tuples, one after another
	tups     [][]byte        // the batch's tuples, slices of arena
	rows     [][]types.Datum // the batch's rows, when there are index entries to make
	row      []types.Datum   // reused by addRow when there are none
	fb       []byte          // a field too big for the read buffer
	n        int64
	line     int
}

// addRow takes the values of the COPY columns (already typed) and queues a
// full row.
func (ld *copyLoader) addRow(vals []types.Datum) error {
	ld.enc.reset()
	var row []types.Datum
	if len(ld.x.rel.indexes) > 0 {
		row = make([]types.Datum, len(ld.x.rel.types)+1) // kept for the index entries
	} else {
		if ld.row == nil {
			ld.row = make([]types.Datum, len(ld.x.rel.types)+1)
		}
		row = ld.row
		clear(row)
	}
	for i, col := range ld.c.Cols {
		if err := ld.enc.setDatum(col, vals[i]); err != nil {
			return err
		}
		row[col] = vals[i]
	}
	return ld.finishRow(row)
}

// finishRow completes the row set in ld.enc (defaults for the columns COPY
// does not give, the NOT NULL check) and queues its tuple. row holds the
// same values as Datums, or is nil when only the encoder has them (binary
// COPY); it is decoded from the encoder when Datums are needed.
func (ld *copyLoader) finishRow(row []types.Datum) error {
	en, r := ld.enc, ld.x.rel
	for col := range r.types {
		if en.set[col] || ld.c.Defaults[col] == nil {
			continue
		}
		v, err := ld.x.ev.eval(ld.c.Defaults[col], nil)
		if err != nil {
			return err
		}
		if err := en.setDatum(col, v); err != nil {
			return err
		}
		if row != nil {
			row[col] = v
		}
	}
	for i, c := range r.def.Columns {
		if c.NotNull && (!en.set[i] || en.nulls[i]) {
			if row == nil {
				var err error
				if row, err = en.datums(); err != nil {
					return err
				}
			}
			return r.checkNotNull(row)
		}
	}
	if len(r.checks) > 0 {
		if row == nil {
			var err error
			if row, err = en.datums(); err != nil {
				return err
			}
		}
		if err := ld.x.checkConstraints(r, row); err != nil {
			return err
		}
	}
	start := len(ld.arena)
	arena, err := en.appendTuple(ld.arena)
	if err != nil {
		return err
	}
	ld.arena = arena
	ld.tups = append(ld.tups, arena[start:len(arena):len(arena)])
	if len(r.indexes) > 0 || len(r.def.ForeignKeys) > 0 {
		if row == nil {
			if row, err = en.datums(); err != nil {
				return err
			}
		}
		ld.rows = append(ld.rows, row) // for the index entries
	}
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
	ld.x.countInsert(len(tids))
	ncols := len(r.types)
	if len(r.indexes) > 0 || len(r.def.ForeignKeys) > 0 {
		for i, tid := range tids {
			ld.rows[i][ncols] = tid
			if err := ld.x.insertIndexEntries(ld.rows[i], tid, nil); err != nil {
				return err
			}
			if len(r.def.ForeignKeys) > 0 {
				if err := ld.x.checkReferencing(r, ld.rows[i], nil); err != nil {
					return err
				}
			}
		}
	}
	ld.n += int64(len(tids))
	clear(ld.rows)
	ld.rows, ld.tups, ld.arena = ld.rows[:0], ld.tups[:0], ld.arena[:0]
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

// parseField converts field i of the current line. A bad value's error says
// where it was, as PostgreSQL's CONTEXT does: COPY t, line n, column c: "v".
func (ld *copyLoader) parseField(i int, s string) (types.Datum, error) {
	t := ld.colTypes[i]
	v, err := types.ParseTextConv(t, s, ld.x.s.Conv())
	if err != nil {
		pe := pgerr.Flatten(err)
		where := fmt.Sprintf("COPY %s, line %d, column %s: \"%s\"", ld.x.rel.def.Name, ld.line,
			ld.x.rel.def.Columns[ld.c.Cols[i]].Name, clipCopyValue(s))
		if pe.Where != "" {
			// The input function's own context (JSON data, line 1: ...)
			// comes first, as PostgreSQL stacks error contexts.
			where = pe.Where + "\n" + where
		}
		pe.Where = where
		return nil, pe
	}
	return v, nil
}

// clipCopyValue is limit_printout_length: a value longer than 100 bytes is
// cut (on a character boundary) and marked with "...".
func clipCopyValue(s string) string {
	const maxDisplay = 100
	if len(s) <= maxDisplay {
		return s
	}
	n := maxDisplay
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}

// readText reads the text format: lines split at unescaped delimiters,
// backslash escapes, NULL as written (\N by default).
func (ld *copyLoader) readText(br *bufio.Reader) error {
	c := ld.c
	return ld.readDelimited(br, func(line string) ([]copyField, error) {
		return splitText(line, c.Delimiter, c.Null), nil
	})
}

// readCSV reads the CSV format: quoted fields (which may span lines), an
// unquoted field equal to NULL's string is NULL.
func (ld *copyLoader) readCSV(br *bufio.Reader) error {
	return ld.readDelimited(br, func(line string) ([]copyField, error) {
		return ld.splitCSV(line, br)
	})
}

// copyField is one field of a text or CSV line, de-escaped; null is
// decided by the format's rule.
type copyField struct {
	val  string
	null bool
}

// readDelimited is the reader core of the text and CSV formats: each line
// up to the end of the data (EOF or a line "\.") is split into fields by
// split (which may read more lines for a CSV quoted field), the HEADER line
// is skipped, and the fields become a row (addFields).
func (ld *copyLoader) readDelimited(br *bufio.Reader, split func(line string) ([]copyField, error)) error {
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
		fields, err := split(line)
		if err != nil {
			return err
		}
		if first && ld.c.Header {
			first = false
			continue
		}
		first = false
		if err := ld.addFields(fields); err != nil {
			// As PostgreSQL's CONTEXT: the line the row came from.
			if pe := pgerr.Flatten(err); pe.Where == "" {
				pe.Where = fmt.Sprintf("COPY %s, line %d: \"%s\"", ld.x.rel.def.Name, ld.line, clipCopyValue(line))
				return pe
			}
			return err
		}
	}
}

// addFields converts one line's fields of a text or CSV COPY to a row and
// adds it. Fields are converted in order before a missing column is
// reported, as PostgreSQL does, so a bad value earlier on the line wins.
func (ld *copyLoader) addFields(fields []copyField) error {
	ncols := len(ld.c.Cols)
	if len(fields) > ncols {
		return badCopy("extra data after last expected column")
	}
	vals := make([]types.Datum, ncols)
	for i, f := range fields {
		if f.null {
			continue
		}
		var err error
		if vals[i], err = ld.parseField(i, f.val); err != nil {
			return err
		}
	}
	if len(fields) < ncols {
		return badCopy("missing data for column \"%s\"", ld.x.rel.def.Columns[ld.c.Cols[len(fields)]].Name)
	}
	return ld.addRow(vals)
}

// splitText splits a text-format line at unescaped delimiters and
// de-escapes each field; a field is NULL when it is written as null (before
// de-escaping).
func splitText(line string, delim byte, null string) []copyField {
	if strings.IndexByte(line, '\\') < 0 {
		// No escapes: fields are substrings.
		out := make([]copyField, 0, 8)
		for {
			i := strings.IndexByte(line, delim)
			if i < 0 {
				return append(out, copyField{val: line, null: line == null})
			}
			out = append(out, copyField{val: line[:i], null: line[:i] == null})
			line = line[i+1:]
		}
	}
	var out []copyField
	var val []byte
	start := 0
	for i := 0; i <= len(line); i++ {
		if i == len(line) || line[i] == delim {
			out = append(out, copyField{val: string(val), null: line[start:i] == null})
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
	return out
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

// splitCSV splits one CSV record; a quoted field may continue on the next
// lines. An unquoted field equal to the NULL string is NULL.
func (ld *copyLoader) splitCSV(line string, br *bufio.Reader) ([]copyField, error) {
	c := ld.c
	var out []copyField
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
			out = append(out, copyField{val: val.String(), null: !quoted && val.String() == c.Null})
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
			out = append(out, copyField{val: val.String(), null: !quoted && val.String() == c.Null})
			val.Reset()
			quoted = false
		case c.Quote:
			inQuote, quoted = true, true
		default:
			val.WriteByte(ch)
		}
	}
}

func (ld *copyLoader) readBinary(br *bufio.Reader) error {
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
	en := ld.enc
	for {
		b, err := ld.next(br, 2)
		if err != nil {
			if err == io.EOF {
				return nil // no trailer: accepted, as PostgreSQL does at EOF
			}
			return badCopy("unexpected EOF in COPY data")
		}
		nf := int16(binary.BigEndian.Uint16(b))
		if nf == -1 {
			return nil
		}
		if int(nf) != ncols {
			return badCopy("row field count is %d, expected %d", nf, ncols)
		}
		// Each field goes straight from the wire format to the on-disk
		// form in the encoder; no Datum is made unless an index or an
		// error needs one.
		en.reset()
		for i, col := range ld.c.Cols {
			if b, err = ld.next(br, 4); err != nil {
				return badCopy("unexpected EOF in COPY data")
			}
			l := int32(binary.BigEndian.Uint32(b))
			if l == -1 {
				en.setNull(col)
				continue
			}
			if l < 0 {
				return badCopy("invalid field size")
			}
			if b, err = ld.next(br, int(l)); err != nil {
				if pgerr.CodeOf(err) == pgerr.ProgramLimitExceeded {
					return err
				}
				return badCopy("unexpected EOF in COPY data")
			}
			t := ld.colTypes[i]
			if err := en.setDisk(col, func(dst []byte) ([]byte, error) { return types.AppendDiskFromBinary(dst, t, b) }); err != nil {
				return err
			}
		}
		if err := ld.finishRow(nil); err != nil {
			return err
		}
	}
}

// next returns the next n bytes of the COPY stream, valid until the next
// call; io.EOF when the stream ends before any of them, another error when
// it ends inside them.
func (ld *copyLoader) next(br *bufio.Reader, n int) ([]byte, error) {
	if n <= br.Size() {
		b, err := br.Peek(n)
		if err != nil {
			if len(b) > 0 && err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		br.Discard(n)
		return b, nil
	}
	// A big field is read as it arrives, so that a length the data never
	// backs cannot make us allocate it up front.
	if n >= maxCopyField { // with room for the terminator, as enlargeStringInfo checks
		return nil, pgerr.New(pgerr.ProgramLimitExceeded, "out of memory").
			WithDetail("Cannot enlarge string buffer containing 0 bytes by %d more bytes.", n)
	}
	b := ld.fb[:0]
	for len(b) < n {
		chunk := min(n-len(b), 1<<20)
		b = slices.Grow(b, chunk)
		m, err := io.ReadFull(br, b[len(b):len(b)+chunk])
		b = b[:len(b)+m]
		if err != nil {
			return nil, io.ErrUnexpectedEOF
		}
	}
	ld.fb = b
	return b, nil
}

// maxCopyField is PostgreSQL's MaxAllocSize, the largest field a COPY
// can hold.
const maxCopyField = 1<<30 - 1

// beginCopy starts a COPY portal's only run: 08P01 if it ran already, the
// failed transaction's 25P02 inside a failed block.
func (pt *Portal) beginCopy() error {
	if pt.started {
		return pgerr.New(pgerr.ProtocolViolation, "COPY already ran")
	}
	pt.started = true
	if s := pt.s; s.failed && s.explicit {
		pt.done = true
		return errAborted()
	}
	return nil
}
