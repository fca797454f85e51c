package sql

import (
	"reflect"
	"testing"
)

// TestBareTxn checks that the transaction statements Prepare binds without
// the parser bind as the parser binds them (a trailing comment sends the
// same statement through the parser).
func TestBareTxn(t *testing.T) {
	for _, q := range []string{"begin", "BEGIN", " Begin ;", "start transaction", "commit", "COMMIT;", "end", "rollback", "abort"} {
		if _, ok := bareTxn(q); !ok {
			t.Errorf("%q: not bound without the parser", q)
		}
		fast, err := Prepare(testCat, q, nil)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		parsed, err := Prepare(testCat, q+" -- parsed", nil)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if !reflect.DeepEqual(fast.Stmt, parsed.Stmt) || len(fast.Columns) != 0 || len(parsed.Columns) != 0 ||
			len(fast.ParamTypes) != len(parsed.ParamTypes) || len(fast.Notices) != len(parsed.Notices) {
			t.Errorf("%q: bound as %+v without the parser, %+v with it", q, fast, parsed)
		}
	}
	for _, q := range []string{"begin read only", "begin isolation level serializable", "commit and chain", "beginx", "savepoint a", "start  transaction"} {
		if _, ok := bareTxn(q); ok {
			t.Errorf("%q: bound without the parser", q)
		}
	}
}
