package testutil

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
)

// Summarize renders a backend message as one comparable line:
// "RowDescription name:oid:format,...", "DataRow v|v" (NULL, or 0x... for
// non-printable bytes), "ErrorResponse SEVERITY CODE message @position",
// "ReadyForQuery I", ... and the bare message name for the others.
func Summarize(msg pgproto3.BackendMessage) string {
	switch m := msg.(type) {
	case *pgproto3.ParameterStatus:
		return fmt.Sprintf("ParameterStatus %s=%s", m.Name, m.Value)
	case *pgproto3.ReadyForQuery:
		return fmt.Sprintf("ReadyForQuery %c", m.TxStatus)
	case *pgproto3.RowDescription:
		var f []string
		for _, fd := range m.Fields {
			f = append(f, fmt.Sprintf("%s:%d:%d", fd.Name, fd.DataTypeOID, fd.Format))
		}
		return "RowDescription " + strings.Join(f, ",")
	case *pgproto3.DataRow:
		var v []string
		for _, b := range m.Values {
			if b == nil {
				v = append(v, "NULL")
			} else {
				v = append(v, Printable(b))
			}
		}
		return "DataRow " + strings.Join(v, "|")
	case *pgproto3.CommandComplete:
		return "CommandComplete " + string(m.CommandTag)
	case *pgproto3.ErrorResponse:
		s := fmt.Sprintf("ErrorResponse %s %s %s", m.Severity, m.Code, m.Message)
		if m.Position != 0 {
			s += fmt.Sprintf(" @%d", m.Position)
		}
		return s
	case *pgproto3.NoticeResponse:
		return fmt.Sprintf("NoticeResponse %s %s %s", m.Severity, m.Code, m.Message)
	case *pgproto3.ParameterDescription:
		return fmt.Sprintf("ParameterDescription %v", m.ParameterOIDs)
	case *pgproto3.CopyInResponse:
		return fmt.Sprintf("CopyInResponse %d %v", m.OverallFormat, m.ColumnFormatCodes)
	case *pgproto3.NegotiateProtocolVersion:
		return fmt.Sprintf("NegotiateProtocolVersion %d %v", m.NewestMinorProtocol, m.UnrecognizedOptions)
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", msg), "*pgproto3.")
}

// Printable is b as text when every byte is printable ASCII, else 0x and
// its hex digits.
func Printable(b []byte) string {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return "0x" + hex.EncodeToString(b)
		}
	}
	return string(b)
}
