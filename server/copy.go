package server

import (
	"context"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
)

// copyIn runs COPY FROM STDIN: CopyInResponse, then the CopyData payloads
// are fed to the portal as one byte stream that ends (io.EOF) at CopyDone.
// CopyFail makes the stream fail with 57014 "COPY from stdin failed: ...".
// Flush and Sync are ignored during COPY; any other message is ERROR 08P01
// followed by FATAL (protocol synchronization lost), as in PostgreSQL. If
// the executor fails before CopyDone, the error is sent at once and the
// message loop ignores the client's remaining CopyData/CopyDone/CopyFail,
// as PostgreSQL does.
func (c *conn) copyIn(ctx context.Context, p Portal) (string, error) {
	if st, ok := p.(CopyFromStarter); ok {
		if err := st.StartCopyFrom(); err != nil {
			return "", err
		}
	}
	overall, colFormats := copyFormats(p)
	c.send(&pgproto3.CopyInResponse{OverallFormat: overall, ColumnFormatCodes: colFormats})
	if err := c.flush(); err != nil {
		return "", err
	}
	r := &copyReader{c: c}
	tag, err := p.CopyFrom(ctx, r)
	if r.connErr != nil {
		return "", r.connErr // broken connection or FATAL protocol error
	}
	if r.lostSync != nil {
		// As PostgreSQL: the error, then FATAL, as the message that was
		// consumed cannot be replayed.
		c.sendError(r.lostSync)
		return "", fatal(pgerr.ProtocolViolation, "terminating connection because protocol synchronization was lost")
	}
	if r.err != nil && r.err != io.EOF {
		return "", r.err // CopyFail: that error, whatever the executor made of it
	}
	if err != nil {
		return "", err
	}
	if !r.finished {
		// The executor stopped reading early; the stream must still end.
		if _, err := io.Copy(io.Discard, r); err != nil {
			if r.connErr != nil {
				return "", r.connErr
			}
			return "", err
		}
	}
	return tag, nil
}

// copyReader presents the CopyData messages of a COPY FROM STDIN as an
// io.Reader. A CopyData payload is only valid until the next Receive, and
// the next Receive happens only once the payload is consumed.
type copyReader struct {
	c        *conn
	buf      []byte
	finished bool  // CopyDone, CopyFail, a bad message or a broken connection was seen
	err      error // what Read returns once buf is drained and finished
	connErr  error // an *ioError or FATAL error: the connection must close
	lostSync error // a message other than CopyData/CopyDone/CopyFail/Flush/Sync arrived
}

func (r *copyReader) Read(p []byte) (int, error) {
	for len(r.buf) == 0 {
		if r.finished {
			return 0, r.err
		}
		msg, err := r.c.be.Receive()
		if err != nil {
			r.connErr = receiveError(err)
			r.finish(r.connErr)
			continue
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			r.buf = m.Data
		case *pgproto3.CopyDone:
			r.finish(io.EOF)
		case *pgproto3.CopyFail:
			r.finish(pgerr.New(pgerr.QueryCanceled, "COPY from stdin failed: %s", m.Message))
		case *pgproto3.Flush, *pgproto3.Sync:
		default:
			r.lostSync = pgerr.New(pgerr.ProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", messageType(msg))
			r.finish(r.lostSync)
		}
	}
	n := copy(p, r.buf)
	r.buf = r.buf[n:]
	return n, nil
}

func (r *copyReader) finish(err error) {
	r.finished = true
	r.err = err
}

// copyOut runs COPY ... TO STDOUT: CopyOutResponse, a CopyData per row
// (flushed in batches as the output buffer fills), then CopyDone. An error
// during the rows is sent as an ErrorResponse without CopyDone, as
// PostgreSQL does.
func (c *conn) copyOut(ctx context.Context, p Portal) (string, error) {
	cp, ok := p.(CopyToPortal)
	if !ok {
		return "", pgerr.New(pgerr.FeatureNotSupported, "COPY TO STDOUT is not supported by this backend")
	}
	overall, colFormats := copyFormats(p)
	c.send(&pgproto3.CopyOutResponse{OverallFormat: overall, ColumnFormatCodes: colFormats})
	tag, err := cp.CopyTo(ctx, func(data []byte) error {
		c.send(&pgproto3.CopyData{Data: data})
		c.unflushed += len(data) + 5
		return c.maybeFlush()
	})
	if err != nil {
		return "", err
	}
	c.send(&pgproto3.CopyDone{})
	return tag, nil
}

// copyFormats are CopyInResponse's and CopyOutResponse's formats: overall 1
// for binary, 0 for text and CSV, and every column the same.
func copyFormats(p Portal) (overall byte, cols []uint16) {
	format, ncols := p.CopyFormat()
	if format == "binary" {
		overall = 1
	}
	cols = make([]uint16, ncols)
	for i := range cols {
		cols[i] = uint16(overall)
	}
	return overall, cols
}
