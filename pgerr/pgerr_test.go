package pgerr

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestFromSentinel(t *testing.T) {
	sentinel := New(IOError, "pkg: I/O error")
	other := New(IOError, "pkg: another I/O error")
	for _, c := range []struct {
		name       string
		detail     error
		wantDetail string
	}{
		{"with an OS error", fmt.Errorf("open x: %w", fs.ErrNotExist), "open x: file does not exist"},
		{"without", nil, ""},
	} {
		err := FromSentinel(sentinel, c.detail, "could not open file %q", "x")
		if err.Message != `could not open file "x"` || err.Detail != c.wantDetail {
			t.Errorf("%s: message %q detail %q, want %q and %q", c.name, err.Message, err.Detail, `could not open file "x"`, c.wantDetail)
		}
		if !errors.Is(err, sentinel) || errors.Is(err, other) {
			t.Errorf("%s: errors.Is(err, sentinel) = %v, errors.Is(err, other) = %v; want true, false",
				c.name, errors.Is(err, sentinel), errors.Is(err, other))
		}
		if c.detail != nil && errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s: the detail error is in the chain; only its text belongs in Detail", c.name)
		}
		if got := CodeOf(Wrapf(err, InternalError, "outer")); got != IOError {
			t.Errorf("%s: CodeOf through a wrapper = %s, want %s", c.name, got, IOError)
		}
	}
}
