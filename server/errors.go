package server

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
)

// SQLSTATEs the server raises that pgerr has no name for.
const (
	codeCannotConnectNow   pgerr.Code = "57P03"
	codeTooManyConnections pgerr.Code = "53300"
	codeInvalidPortal      pgerr.Code = "34000"
)

// ioError marks a failure of the connection itself (client gone, broken
// socket, deadline during shutdown): nothing more can be sent, the
// connection is closed without an ErrorResponse.
type ioError struct{ err error }

func (e *ioError) Error() string { return "connection: " + e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// fatal returns a FATAL error: the server sends it and closes the
// connection.
func fatal(code pgerr.Code, format string, args ...any) *pgerr.Error {
	e := pgerr.New(code, format, args...)
	e.Severity = pgerr.SeverityFatal
	return e
}

func isFatal(err error) bool {
	var pe *pgerr.Error
	return errors.As(err, &pe) && pe.Severity == pgerr.SeverityFatal
}

func isIOError(err error) bool {
	var ie *ioError
	return errors.As(err, &ie)
}

// receiveError classifies an error from Backend.Receive: a broken or closed
// connection becomes an *ioError; anything else is a malformed message and
// becomes FATAL 08P01, as PostgreSQL treats protocol violations.
func receiveError(err error) error {
	if err == nil {
		return nil
	}
	var ne net.Error
	switch {
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne):
		return &ioError{err}
	}
	var tooBig *pgproto3.ExceededMaxBodyLenErr
	if errors.As(err, &tooBig) {
		return fatal(pgerr.ProtocolViolation, "invalid message length").
			WithDetail("Message of %d bytes exceeds the maximum of %d.", tooBig.ActualBodyLen, tooBig.MaxExpectedBodyLen)
	}
	if rest, ok := strings.CutPrefix(err.Error(), "unknown message type: "); ok {
		r, _ := utf8.DecodeRuneInString(rest)
		return fatal(pgerr.ProtocolViolation, "invalid frontend message type %d", r)
	}
	return fatal(pgerr.ProtocolViolation, "invalid message format").WithDetail("%s", err.Error())
}

// toPGError converts any error into the *pgerr.Error sent to the client:
// the innermost specific SQLSTATE wins, a context cancellation is 57014,
// anything unknown is XX000.
func toPGError(err error) *pgerr.Error {
	var pe *pgerr.Error
	if !errors.As(err, &pe) {
		switch {
		case errors.Is(err, context.Canceled):
			return &pgerr.Error{Code: pgerr.QueryCanceled, Severity: pgerr.SeverityError,
				Message: "canceling statement due to user request"}
		case errors.Is(err, context.DeadlineExceeded):
			return &pgerr.Error{Code: pgerr.QueryCanceled, Severity: pgerr.SeverityError,
				Message: "canceling statement due to statement timeout"}
		}
	}
	return pgerr.Flatten(err)
}

// errorResponse builds the ErrorResponse for err.
func errorResponse(err error) *pgproto3.ErrorResponse {
	pe := toPGError(err)
	sev := pe.Severity
	if sev == "" {
		sev = pgerr.SeverityError
	}
	r := responseFields(pe, sev, pe.Code)
	return &r
}

// noticeResponse builds the NoticeResponse for a notice or warning.
func noticeResponse(n *pgerr.Error) *pgproto3.NoticeResponse {
	sev := n.Severity
	if sev == "" {
		sev = pgerr.SeverityNotice
	}
	code := n.Code
	if code == "" {
		code = pgerr.SuccessfulCompletion
	}
	r := pgproto3.NoticeResponse(responseFields(n, sev, code))
	return &r
}

// responseFields are the fields ErrorResponse and NoticeResponse share.
func responseFields(e *pgerr.Error, sev string, code pgerr.Code) pgproto3.ErrorResponse {
	return pgproto3.ErrorResponse{
		Severity:            sev,
		SeverityUnlocalized: sev,
		Code:                string(code),
		Message:             e.Message,
		Detail:              e.Detail,
		Hint:                e.Hint,
		Position:            e.Position,
		Where:               e.Where,
		SchemaName:          e.Schema,
		TableName:           e.Table,
		ColumnName:          e.Column,
		ConstraintName:      e.Constraint,
	}
}
