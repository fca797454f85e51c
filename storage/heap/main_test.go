package heap

import (
	"fmt"
	"os"
	"testing"

	"minipg/storage/fsm"
)

// The heap's tests run against every registered placement policy, one
// full pass per policy (as bbolt's freelist tests run against each
// implementation), or only against the one MINIPG_FSM_POLICY names. A
// test about one policy's own placement (ctids equal to PostgreSQL's,
// which classic reproduces) sets Options.Policy itself; every other
// relation a test opens gets testPolicy's.
var testPolicyName string

// firstPass is set during the first pass: tests that compare the policies
// themselves run only then.
var firstPass bool

func TestMain(m *testing.M) {
	names := fsm.PolicyNames()
	if env := os.Getenv("MINIPG_FSM_POLICY"); env != "" {
		names = []string{env}
	}
	code := 0
	for i, name := range names {
		firstPass = i == 0
		if _, err := fsm.PolicyByName(name); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		testPolicyName = name
		if len(names) > 1 {
			fmt.Printf("=== heap tests with fsm_policy=%s\n", name)
		}
		if c := m.Run(); c != 0 {
			fmt.Printf("--- FAIL: heap tests with fsm_policy=%s\n", name)
			code = c
		}
	}
	os.Exit(code)
}

// testPolicy is a new value of the policy the tests run against.
func testPolicy() fsm.Policy {
	p, err := fsm.PolicyByName(testPolicyName)
	if err != nil {
		panic(err)
	}
	return p
}

// skipWithoutMap skips a test about reusing the space VACUUM records in
// the free space map when the policy under test keeps no map.
func skipWithoutMap(t *testing.T) {
	t.Helper()
	if testPolicyName == "append" {
		t.Skip("the append policy keeps no free space map")
	}
}
