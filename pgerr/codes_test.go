package pgerr

import "testing"

func TestCodesTable(t *testing.T) {
	for _, c := range []struct {
		code Code
		want Code
		name string
	}{
		{UniqueViolation, "23505", "unique_violation"},
		{SerializationFailure, "40001", "serialization_failure"},
		{DeadlockDetected, "40P01", "deadlock_detected"},
		{StringDataRightTruncation, "22001", "string_data_right_truncation"},
		{WarningStringDataRightTruncation, "01004", "string_data_right_truncation"},
		{ProgramLimitExceeded, "54000", "program_limit_exceeded"},
		{TooManyColumns, "54011", "too_many_columns"},
		{DataCorrupted, "XX001", "data_corrupted"},
		{InvalidAuthorizationSpec, "28000", "invalid_authorization_specification"},
		{DuplicatePreparedStatement, "42P05", "duplicate_prepared_statement"},
		{ArraySubscriptError, "2202E", "array_subscript_error"},
	} {
		if c.code != c.want || Name(c.code) != c.name {
			t.Errorf("%s: got %s %q, want %s %q", c.name, c.code, Name(c.code), c.want, c.name)
		}
	}
	if ArrayElementError != ArraySubscriptError || UndefinedPStatement != InvalidSQLStatementName {
		t.Error("macro-only aliases")
	}
	// PL/pgSQL knows error conditions only; of two error codes sharing a
	// name the first wins (checked on PostgreSQL 15: RAISE EXCEPTION USING
	// ERRCODE = 'name' for every name in errcodes.txt).
	if c, ok := CodeByName("string_data_right_truncation"); !ok || c != "22001" {
		t.Errorf("CodeByName: %s", c)
	}
	if c, ok := CodeByName("null_value_not_allowed"); !ok || c != "22004" {
		t.Errorf("CodeByName: %s", c)
	}
	if _, ok := CodeByName("warning"); ok {
		t.Error("warning is not a PL/pgSQL condition")
	}
	if c, ok := CodeByName("unique_violation"); !ok || c != UniqueViolation {
		t.Errorf("CodeByName: %s", c)
	}
	if _, ok := CodeByName("no_such_condition"); ok || Name("ZZ999") != "" {
		t.Error("unknown names")
	}
	if UniqueViolation.Class() != "23" {
		t.Error("class")
	}
	for _, e := range conditions {
		if len(e.code) != 5 {
			t.Errorf("bad code %q", e.code)
		}
	}
	if len(conditions) < 240 {
		t.Errorf("only %d conditions", len(conditions))
	}
}
