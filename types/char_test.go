package types

import "testing"

// TestCharCasts checks "char" and the casts pg_cast gives it against
// PostgreSQL 15 (select VALUE::from::"char", ...).
func TestCharCasts(t *testing.T) {
	ch := func(v Datum, from T) (string, error) {
		d, err := Coerce(v, from, TChar, true)
		if err != nil {
			return "", err
		}
		return FormatText(TChar, d), nil
	}
	if s, err := ch(int64(-5), TInt4); err != nil || s != `\373` {
		t.Errorf("(-5)::\"char\" = %q, %v", s, err)
	}
	if _, err := ch(int64(1234), TInt4); err == nil {
		t.Error("1234::\"char\" accepted")
	}
	if s, err := ch(`\373`, TText); err != nil || s != `\373` {
		t.Errorf("text '\\373'::\"char\" = %q, %v", s, err)
	}
	if s, err := ch("ab", TText); err != nil || s != "a" {
		t.Errorf("'ab'::\"char\" = %q, %v", s, err)
	}
	v, err := Coerce("a", TChar, TInt4, true)
	if err != nil || v != int64(97) {
		t.Errorf("'a'::\"char\"::int4 = %v, %v", v, err)
	}
	for _, to := range []OID{Bool, Int2, Int8, Date, Numeric, Bytea} {
		if CastContextOf(Char, to) != CastNone || CastContextOf(to, Char) != CastNone {
			t.Errorf("\"char\" and %s have a cast", TypName(to))
		}
	}
	if CastContextOf(Name, Int4) != CastExplicit || CastContextOf(Int4, Name) != CastAssignment {
		t.Error("name lacks the I/O casts of a string type")
	}
	if CastContextOf(RegClass, RegType) != CastNone || CastContextOf(RegClass, Int4) != CastAssignment {
		t.Error("reg* casts are not pg_cast's")
	}
	if CastContextOf(Text, RegClass) != CastImplicit || CastContextOf(Varchar, RegClass) != CastImplicit ||
		CastContextOf(Text, RegType) != CastExplicit || CastContextOf(RegClass, Text) != CastAssignment {
		t.Error("text -> regclass is not implicit as in pg_cast, or another reg type's I/O cast changed")
	}
}

// TestXidIn checks xidin's leniency (C strtoul, base 0).
func TestXidIn(t *testing.T) {
	for in, want := range map[string]int64{"x": 0, " 0x1A": 26, "010": 8, "-1": 4294967295,
		"99999999999999999999": 4294967295, "4294967296": 0, "": 0, "2020-01-02": 2020, "123": 123} {
		if got := xidIn(in); got != want {
			t.Errorf("xidin(%q) = %d, want %d", in, got, want)
		}
	}
}

// TestOIDCasts checks int8 to oid and reg* (22003 out of range) against
// int4's binary coercion.
func TestOIDCasts(t *testing.T) {
	if _, err := Coerce(int64(-1), TInt8, TOid, false); err == nil {
		t.Error("int8 -1 to oid accepted")
	}
	if v, err := Coerce(int64(-1), TInt4, TOid, false); err != nil || v != int64(4294967295) {
		t.Errorf("int4 -1 to oid = %v, %v", v, err)
	}
	if _, err := Coerce(int64(5000000000), TInt8, TRegClass, false); err == nil {
		t.Error("int8 5000000000 to regclass accepted")
	}
	if v, err := Coerce(RegName{OID: 4294967295, Name: "x"}, TRegClass, TInt4, false); err != nil || v != int64(-1) {
		t.Errorf("regclass to int4 = %v, %v", v, err)
	}
}
