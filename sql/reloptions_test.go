package sql

import (
	"testing"

	"minipg/pgerr"
	"minipg/reloptions"
	// The storage parameters are declared by the packages that read them.
	"minipg/storage/fsm"
	_ "minipg/storage/heap"
)

// Storage parameters in CREATE TABLE ... WITH and ALTER TABLE ... SET,
// with PostgreSQL 15's errors (messages and details as psql prints them
// for the same statements; fsm_* are minipg's, worded the same way).
func TestStorageParameters(t *testing.T) {
	for _, tc := range []struct {
		q, msg, detail string
		code           pgerr.Code        // 22023 when empty
		opts           map[string]string // on success
	}{
		{q: "CREATE TABLE x (a int) WITH (fillfactor=5)",
			msg: `value 5 out of bounds for option "fillfactor"`, detail: `Valid values are between "10" and "100".`},
		{q: "CREATE TABLE x (a int) WITH (fillfactor='x')", msg: `invalid value for integer option "fillfactor": x`},
		{q: "CREATE TABLE x (a int) WITH (fillfactor)", msg: `invalid value for integer option "fillfactor": true`},
		{q: "CREATE TABLE x (a int) WITH (x=1)", msg: `unrecognized parameter "x"`},
		{q: "CREATE TABLE x (a int) WITH (foo.fillfactor=1)", msg: `unrecognized parameter namespace "foo"`},
		{q: "CREATE TABLE x (a int) WITH (fillfactor=50, fillfactor=60)", msg: `parameter "fillfactor" specified more than once`},
		{q: "CREATE TABLE x (a int) WITH (fsm_policy=bogus)",
			msg: `invalid value for enum option "fsm_policy": bogus`, detail: `Valid values are ` + reloptions.QuotedList(fsm.PolicyNames()) + `.`},
		{q: "CREATE TABLE x (a int) WITH (fsm_nearby_window=-1)",
			msg: `value -1 out of bounds for option "fsm_nearby_window"`, detail: `Valid values are between "0" and "2034".`},
		{q: "CREATE TABLE x (a int) WITH (fsm_reopen_percent=101)",
			msg: `value 101 out of bounds for option "fsm_reopen_percent"`, detail: `Valid values are between "0" and "100".`},
		{q: "CREATE TABLE x (a int) WITH (fsm_small_table_blocks=x)", msg: `invalid value for integer option "fsm_small_table_blocks": x`},
		{q: "ALTER TABLE t SET (fillfactor=5)",
			msg: `value 5 out of bounds for option "fillfactor"`, detail: `Valid values are between "10" and "100".`},
		{q: "ALTER TABLE t SET (nosuch=1)", msg: `unrecognized parameter "nosuch"`},
		{q: "ALTER TABLE t RESET (fillfactor=5)", code: pgerr.SyntaxError, msg: "RESET must not include values for parameters"},
		// RESET ignores names the table cannot have, as PostgreSQL does.
		{q: "ALTER TABLE t RESET (nosuch, foo.bar, fillfactor)", opts: map[string]string{"fillfactor": ""}},
		// Canonical values: integers as PostgreSQL's parse_int reads them
		// (spaces, a fraction rounded half to even), enums as declared.
		{q: "CREATE TABLE x (a int) WITH (fillfactor=' 50 ', fsm_policy='CLASSIC', fsm_nearby_window=10.5)",
			opts: map[string]string{"fillfactor": "50", "fsm_policy": "classic", "fsm_nearby_window": "10"}},
		{q: "ALTER TABLE t SET (fsm_reopen_percent = '0x10')", opts: map[string]string{"fsm_reopen_percent": "16"}},
	} {
		b, err := Prepare(testCat, tc.q, nil)
		if tc.opts != nil {
			if err != nil {
				t.Errorf("%s: %v", tc.q, err)
				continue
			}
			var got map[string]string
			switch st := b.Stmt.(type) {
			case *CreateTable:
				got = st.Def.Options
			case *AlterOptions:
				got = st.Options
			}
			if len(got) != len(tc.opts) {
				t.Errorf("%s: options %v, want %v", tc.q, got, tc.opts)
			}
			for k, v := range tc.opts {
				if w, ok := got[k]; !ok || w != v {
					t.Errorf("%s: %s = %q, want %q (all %v)", tc.q, k, got[k], v, got)
				}
			}
			continue
		}
		pe, ok := err.(*pgerr.Error)
		code := pgerr.InvalidParameterValue
		if tc.code != "" {
			code = tc.code
		}
		if !ok || pe.Code != code || pe.Message != tc.msg || pe.Detail != tc.detail {
			t.Errorf("%s:\n got %#v\nwant 22023 %q detail %q", tc.q, err, tc.msg, tc.detail)
		}
	}
}
