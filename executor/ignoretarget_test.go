package executor

import (
	"strings"
	"testing"
)

// debug_fsm_ignore_target: off by default; on, every insert of the session
// goes to the free-space policy instead of the remembered target block, so
// minipg_stat_fsm counts no target tries; a bad value is 22023.
func TestDebugFSMIgnoreTarget(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()
	if out := mustRun(t, s, "SHOW debug_fsm_ignore_target"); !strings.Contains(out, "off") {
		t.Fatalf("default: %s", out)
	}
	mustRun(t, s, "CREATE TABLE a (v int) WITH (fsm_policy = classic)")
	mustRun(t, s, "CREATE TABLE b (v int) WITH (fsm_policy = classic)")
	for range 5 {
		mustRun(t, s, "INSERT INTO a VALUES (1)")
	}
	mustRun(t, s, "SET debug_fsm_ignore_target = on")
	for range 5 {
		mustRun(t, s, "INSERT INTO b VALUES (1)")
	}
	out := mustRun(t, s, "SELECT relname, target_tries FROM minipg_stat_fsm WHERE relname IN ('a', 'b') ORDER BY relname")
	if !strings.Contains(out, "a|4") || !strings.Contains(out, "b|0") {
		t.Fatalf("target tries with the setting off (a) and on (b):\n%s", out)
	}
	if out := runSimple(s, "SET debug_fsm_ignore_target = maybe", ""); !strings.Contains(out, "22023") {
		t.Fatalf("bad value: %s", out)
	}
}
