package executor

import (
	"testing"

	"minipg/pgerr"
)

// TestRegexUnsupported checks that ARE constructs RE2 cannot run are
// refused with 2201B instead of matching something else, and that the
// rewritten escapes work.
func TestRegexUnsupported(t *testing.T) {
	for _, p := range []string{`(a)\1`, `a(?=b)`, `a(?!b)`, `\mfoo\M`, `(`, `[a`} {
		if _, err := compileRegex(p, false); pgerr.CodeOf(err) != pgerr.InvalidRegularExpression {
			t.Errorf("%q: %v, want 2201B", p, err)
		}
	}
	re, err := compileRegex(`\ycat\y`, false)
	if err != nil {
		t.Fatal(err)
	}
	if !re.MatchString("the cat sat") || re.MatchString("concatenate") {
		t.Errorf(`\y is not a word boundary`)
	}
	// A bracket expression keeps its backslashes and brackets as written.
	re, err = compileRegex(`[]a]\d`, false)
	if err != nil {
		t.Fatal(err)
	}
	if !re.MatchString("]1") {
		t.Errorf("[]a] should match ]")
	}
}
