package types

import "testing"

// TestPosixZoneOffset checks POSIX zone specifications as PostgreSQL's
// tzparse reads them (offsets west of Greenwich).
func TestPosixZoneOffset(t *testing.T) {
	for _, c := range []struct {
		in  string
		off int
		ok  bool
	}{
		{"+05", -5 * 3600, true},
		{"-03:30", 3*3600 + 1800, true},
		{"UTC+3", -3 * 3600, true},
		{"<foo>-02", 2 * 3600, true},
		{"FOO+2:30:15", -(2*3600 + 30*60 + 15), true},
		{"+200", 0, false},
		{"bogus", 0, false},
		{"EST5EDT4,M3.2.0,M11.1.0", 0, false},
		{"+05:60", 0, false},
	} {
		off, ok := PosixZoneOffset(c.in)
		if ok != c.ok || off != c.off {
			t.Errorf("PosixZoneOffset(%q) = %d, %v; want %d, %v", c.in, off, ok, c.off, c.ok)
		}
	}
}
