package pgerr

//go:generate go run ./gen -in /usr/share/postgresql/15/errcodes.txt -out codes.go

// Names minipg used before codes.go was generated; they stay as aliases.
const (
	// InvalidAuthorizationSpec is InvalidAuthorizationSpecification (28000).
	InvalidAuthorizationSpec = InvalidAuthorizationSpecification
	// InvalidParameterValueSetting is InvalidParameterValue (22023), as
	// PostgreSQL reports a bad value in SET.
	InvalidParameterValueSetting = InvalidParameterValue
	// UndefinedParameterSetting is UndefinedObject (42704), as PostgreSQL
	// reports an unknown configuration parameter.
	UndefinedParameterSetting = UndefinedObject
	// InvalidParameterType keeps its old value 42P03.
	//
	// Deprecated: 42P03 is duplicate_cursor; PostgreSQL has no
	// invalid_parameter_type condition. Use DatatypeMismatch or
	// IndeterminateDatatype.
	InvalidParameterType = DuplicateCursor
)

var byCode, byName = func() (map[Code]string, map[string]Code) {
	c := make(map[Code]string, len(conditions))
	n := make(map[string]Code, len(conditions))
	for _, e := range conditions {
		if _, ok := c[e.code]; !ok {
			c[e.code] = e.name
		}
		if _, ok := n[e.name]; !ok && e.kind == 'E' {
			n[e.name] = e.code
		}
	}
	return c, n
}()

// Name returns code's condition name ("unique_violation"; warnings have
// names too, as in PostgreSQL's documentation), or "" for a code
// errcodes.txt does not name.
func Name(code Code) string { return byCode[code] }

// CodeByName returns the code of an error condition name as PL/pgSQL's
// RAISE ... USING ERRCODE = 'name' resolves it: only error codes have
// condition names there (string_data_right_truncation is 22001, not the
// warning 01004), and of two error codes sharing a name the first in
// errcodes.txt wins (EXCEPTION WHEN name catches both).
func CodeByName(name string) (Code, bool) {
	c, ok := byName[name]
	return c, ok
}

// Class returns the two-character class of code ("23" for 23505); the
// class's generic code is Class(code) + "000".
func (c Code) Class() string {
	if len(c) < 2 {
		return ""
	}
	return string(c[:2])
}
