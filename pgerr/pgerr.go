// Package pgerr is minipg's one error type: every layer returns *Error (or
// wraps one), and only the server turns it into an ErrorResponse.
//
// A code is a PostgreSQL SQLSTATE (see codes.go, generated from PostgreSQL's
// errcodes.txt). When errors are wrapped, the innermost specific code wins:
// CodeOf walks the chain and returns the first code that is not
// InternalError.
package pgerr

import (
	"errors"
	"fmt"
)

// Code is a five-character SQLSTATE.
type Code string

// Severity values as PostgreSQL sends them.
const (
	SeverityError   = "ERROR"
	SeverityFatal   = "FATAL"
	SeverityWarning = "WARNING"
	SeverityNotice  = "NOTICE"
)

// Error carries what an ErrorResponse or NoticeResponse needs.
type Error struct {
	Code     Code
	Severity string // "" means ERROR
	Message  string
	Detail   string
	Hint     string
	Position int32  // 1-based character position in the query text, 0 if none
	Where    string // CONTEXT: what was being done (COPY's line and column)
	Cause    error  // the wrapped error, if any

	// The object the error is about, as PostgreSQL's errtable,
	// errtablecol and errtableconstraint report it (ErrorResponse fields
	// s, t, c and n), so that clients need not parse the message.
	Schema, Table, Column, Constraint string
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the wrapped cause.
func (e *Error) Unwrap() error { return e.Cause }

// New returns an error with the given code and a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Newf is New with detail and hint left empty; kept for symmetry with Wrapf.
func Newf(code Code, format string, args ...any) *Error { return New(code, format, args...) }

// Wrapf wraps err with a message and a code. If err already carries a
// specific code, that code wins (see CodeOf).
func Wrapf(err error, code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...) + ": " + err.Error(), Cause: err}
}

// FromSentinel returns a new error with sentinel's code and a formatted
// message whose Cause is sentinel, so that errors.Is(err, sentinel) holds and
// CodeOf finds the code. detail, if non-nil, is the error underneath (an OS
// error, say) and its text becomes Detail. Storage packages build their
// errors with it from the sentinels in their errors.go.
func FromSentinel(sentinel *Error, detail error, format string, args ...any) *Error {
	e := &Error{Code: sentinel.Code, Message: fmt.Sprintf(format, args...), Cause: sentinel}
	if detail != nil {
		e.Detail = detail.Error()
	}
	return e
}

// Unimplemented returns a 0A000 error naming the feature.
func Unimplemented(feature string) *Error {
	return &Error{Code: FeatureNotSupported, Message: feature + " is not supported",
		Hint: "minipg implements a subset of PostgreSQL's SQL."}
}

// WithDetail sets Detail and returns e.
func (e *Error) WithDetail(format string, args ...any) *Error {
	e.Detail = fmt.Sprintf(format, args...)
	return e
}

// WithHint sets Hint and returns e.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// WithTable names the table (and its schema) the error is about.
func (e *Error) WithTable(schema, table string) *Error {
	e.Schema, e.Table = schema, table
	return e
}

// WithColumn names the column the error is about (with WithTable).
func (e *Error) WithColumn(column string) *Error {
	e.Column = column
	return e
}

// WithConstraint names the constraint the error is about (with WithTable).
func (e *Error) WithConstraint(name string) *Error {
	e.Constraint = name
	return e
}

// WithPosition sets Position and returns e.
func (e *Error) WithPosition(pos int32) *Error {
	e.Position = pos
	return e
}

// CodeOf returns the innermost specific SQLSTATE in err's chain, or
// InternalError ("XX000") if none.
func CodeOf(err error) Code {
	code := InternalError
	for err != nil {
		var pe *Error
		if !errors.As(err, &pe) {
			break
		}
		if pe.Code != "" && pe.Code != InternalError {
			code = pe.Code
		}
		err = pe.Cause
	}
	return code
}

// Flatten returns the outermost *Error in err's chain with its code replaced
// by CodeOf(err), or a new InternalError wrapping err.
func Flatten(err error) *Error {
	var pe *Error
	if errors.As(err, &pe) {
		out := *pe
		out.Code = CodeOf(err)
		if out.Severity == "" {
			out.Severity = SeverityError
		}
		return &out
	}
	return &Error{Code: InternalError, Severity: SeverityError, Message: err.Error(), Cause: err}
}

// IsCorruption reports whether err is, or wraps, a data-corruption error.
func IsCorruption(err error) bool {
	c := CodeOf(err)
	return c == DataCorrupted || c == IndexCorrupted
}
