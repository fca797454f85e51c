package server

import (
	"errors"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
	"minipg/types"
)

// Format codes.
const (
	formatText   int16 = 0
	formatBinary int16 = 1
)

// expandFormats applies the protocol's rule for format codes: none means
// all text, one applies to every value, otherwise one per value. what names
// the values for the error ("parameter", "result").
func expandFormats(codes []int16, n int, what string) ([]int16, error) {
	out := make([]int16, n)
	switch {
	case len(codes) == 0:
	case len(codes) == 1:
		for i := range out {
			out[i] = codes[0]
		}
	case len(codes) == n:
		copy(out, codes)
	default:
		if what == "parameter" {
			return nil, pgerr.New(pgerr.ProtocolViolation, "bind message has %d parameter formats but %d parameters", len(codes), n)
		}
		return nil, pgerr.New(pgerr.ProtocolViolation, "bind message has %d result formats but query has %d columns", len(codes), n)
	}
	for _, f := range codes {
		if f != formatText && f != formatBinary {
			return nil, pgerr.New(pgerr.InvalidParameterValue, "unsupported format code: %d", f)
		}
	}
	return out, nil
}

// rowDescription describes cols with the given per-column formats (nil:
// all text), or returns NoData for a statement without a result.
func rowDescription(cols []Column, formats []int16) pgproto3.BackendMessage {
	if cols == nil {
		return &pgproto3.NoData{}
	}
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		f := formatText
		if formats != nil {
			f = formats[i]
		}
		fields[i] = pgproto3.FieldDescription{
			Name:                 []byte(col.Name),
			TableOID:             col.TableOID,
			TableAttributeNumber: uint16(col.AttNum),
			DataTypeOID:          uint32(col.Type.OID),
			DataTypeSize:         types.TypLen(col.Type.OID),
			TypeModifier:         col.Type.Typmod,
			Format:               f,
		}
	}
	return &pgproto3.RowDescription{Fields: fields}
}

// decodeParams converts Bind's parameter values into Datums of the
// statement's parameter types.
func decodeParams(oids []types.OID, formats []int16, vals [][]byte) ([]types.Datum, error) {
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
		if formats[i] == formatBinary {
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
			d, err = types.ParseText(t, string(v))
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
	buf  []byte
	ends []int
	msg  pgproto3.DataRow
}

// encode builds the DataRow for row; the message is valid until the next
// call. formats nil means all text.
func (e *rowEncoder) encode(cols []Column, formats []int16, row []types.Datum) (*pgproto3.DataRow, int, error) {
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
		if formats != nil && i < len(formats) && formats[i] == formatBinary {
			var err error
			e.buf, err = types.AppendBinary(e.buf, t, d)
			if err != nil {
				return nil, 0, err
			}
		} else {
			e.buf = types.AppendText(e.buf, t, d)
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

// rowSender returns the emit function for Portal.Run that sends each row as
// a DataRow and flushes as the output grows.
func (c *conn) rowSender(cols []Column, formats []int16) func(row []types.Datum) error {
	return func(row []types.Datum) error {
		msg, n, err := c.row.encode(cols, formats, row)
		if err != nil {
			return err
		}
		c.send(msg)
		c.unflushed += n
		return c.maybeFlush()
	}
}
