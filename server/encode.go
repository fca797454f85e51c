package server

import (
	"errors"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
	"minipg/types"
)

// Format codes.
const (
	formatText   int16 = 0
	formatBinary int16 = 1
)

// checkFormats checks format codes against the protocol's rule: none means
// all text, one applies to every value, otherwise one per value. what names
// the values for the error ("parameter", "result"). The codes are kept as
// sent and read with formatOf, so that a Bind allocates no expanded copy.
func checkFormats(codes []int16, n int, what string) error {
	if len(codes) > 1 && len(codes) != n {
		if what == "parameter" {
			return pgerr.New(pgerr.ProtocolViolation, "bind message has %d parameter formats but %d parameters", len(codes), n)
		}
		return pgerr.New(pgerr.ProtocolViolation, "bind message has %d result formats but query has %d columns", len(codes), n)
	}
	for _, f := range codes {
		if f != formatText && f != formatBinary {
			return pgerr.New(pgerr.InvalidParameterValue, "unsupported format code: %d", f)
		}
	}
	return nil
}

// formatOf returns the format of value i under codes that passed
// checkFormats (nil: all text).
func formatOf(codes []int16, i int) int16 {
	switch {
	case len(codes) == 1:
		return codes[0]
	case i < len(codes):
		return codes[i]
	}
	return formatText
}

// rowDescription describes cols with the given format codes (as in Bind;
// nil: all text), or returns NoData for a statement without a result.
func rowDescription(cols []Column, formats []int16) pgproto3.BackendMessage {
	if cols == nil {
		return &pgproto3.NoData{}
	}
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.AttNum),
			DataTypeOID:          uint32(col.Type.OID),
			DataTypeSize:         types.TypLen(col.Type.OID),
			TypeModifier:         col.Type.Typmod,
			Format:               formatOf(formats, i),
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

// decodeParams converts Bind's parameter values into Datums of the
// statement's parameter types.
func decodeParams(oids []types.OID, formats []int16, vals [][]byte, cv types.Conv) ([]types.Datum, error) {
	out := make([]types.Datum, len(vals))
	for i, v := range vals {
		if v == nil {
			continue
		}
		t := types.T{OID: oids[i], Typmod: -1}
		if t.OID == types.Invalid || t.OID == types.Unknown {
			t = types.TText
		}
		var d types.Datum
		var err error
		if formatOf(formats, i) == formatBinary {
			d, err = types.DecodeBinary(t, v)
			if err != nil {
				var pe *pgerr.Error
				if errors.As(err, &pe) && pe.Code != "" && pe.Code != pgerr.InternalError {
					return nil, err
				}
				e := pgerr.New(pgerr.InvalidBinaryRepresentation, "incorrect binary data format in bind parameter %d", i+1)
				e.Cause = err
				return nil, e
			}
		} else {
			d, err = types.ParseTextConv(t, string(v), cv)
			if err != nil {
				return nil, err
			}
		}
		out[i] = d
	}
	return out, nil
}

// rowEncoder turns rows of Datums into DataRow messages without allocating
// per value: values are appended to one buffer reused across rows.
type rowEncoder struct {
	conv types.Conv // the session's TimeZone and IntervalStyle
	buf  []byte
	ends []int
	msg  pgproto3.DataRow
}

// encode builds the DataRow for row; the message is valid until the next
// call. formats are the result format codes as in Bind (nil: all text).
func (e *rowEncoder) encode(cols []Column, formats []int16, row []types.Datum) (*pgproto3.DataRow, int, error) {
	if e.buf == nil {
		// An empty value is a zero-length slice of buf, and a nil one
		// would go out as NULL: a row of only empty values ('', a void
		// function's result) must find buf allocated.
		e.buf = make([]byte, 0, 256)
	}
	e.buf = e.buf[:0]
	e.ends = e.ends[:0]
	for i, d := range row {
		if d == nil {
			e.ends = append(e.ends, -1)
			continue
		}
		t := types.TText
		if i < len(cols) {
			t = cols[i].Type
		}
		if formatOf(formats, i) == formatBinary {
			var err error
			e.buf, err = types.AppendBinary(e.buf, t, d)
			if err != nil {
				return nil, 0, err
			}
		} else {
			e.buf = types.AppendTextConv(e.buf, t, d, e.conv)
		}
		e.ends = append(e.ends, len(e.buf))
	}
	if cap(e.msg.Values) < len(row) {
		e.msg.Values = make([][]byte, len(row))
	}
	e.msg.Values = e.msg.Values[:len(row)]
	start := 0
	for i, end := range e.ends {
		if end < 0 {
			e.msg.Values[i] = nil
			continue
		}
		e.msg.Values[i] = e.buf[start:end:end]
		start = end
	}
	return &e.msg, len(e.buf) + 4*len(row) + 7, nil
}

// rowSink is the emit function of Portal.Run: it sends each row as a
// DataRow and flushes as the output grows. A connection keeps one, bound
// once, so that running a statement allocates no closure.
type rowSink struct {
	c       *conn
	cols    []Column
	formats []int16 // result format codes as in Bind (nil: all text)
	rows    int     // rows sent since start
	emit    func(row []types.Datum) error
}

func (s *rowSink) init(c *conn) {
	s.c = c
	s.emit = s.send
}

// start prepares the sink for one Run and returns its emit function.
func (s *rowSink) start(cols []Column, formats []int16) func(row []types.Datum) error {
	s.cols, s.formats, s.rows = cols, formats, 0
	return s.emit
}

func (s *rowSink) send(row []types.Datum) error {
	c := s.c
	c.row.conv = sessionConv(c.sess)
	msg, n, err := c.row.encode(s.cols, s.formats, row)
	if err != nil {
		return err
	}
	s.rows++
	c.send(msg)
	c.unflushed += n
	return c.maybeFlush()
}

// ZoneSession is implemented by sessions that have a TimeZone setting:
// timestamp with time zone values are read and written in it.
type ZoneSession interface {
	Location() *time.Location
}

// sessionZone is s's TimeZone, UTC when it has none.
func sessionZone(s Session) *time.Location {
	if z, ok := s.(ZoneSession); ok {
		if l := z.Location(); l != nil {
			return l
		}
	}
	return time.UTC
}

// ConvSession is implemented by sessions that also have an IntervalStyle:
// Conv gives it with the TimeZone.
type ConvSession interface {
	Conv() types.Conv
}

// sessionConv is s's TimeZone and IntervalStyle (UTC and postgres when it
// has none).
func sessionConv(s Session) types.Conv {
	if c, ok := s.(ConvSession); ok {
		cv := c.Conv()
		if cv.Loc == nil {
			cv.Loc = time.UTC
		}
		return cv
	}
	return types.Conv{Loc: sessionZone(s)}
}
