package executor

import (
	"io"
	"log/slog"
	"testing"

	"minipg/pgerr"
	"minipg/reloptions"
)

// Parameters declared here, as another subsystem would declare its own:
// nothing in the executor or the binder names them, yet WITH (...),
// ALTER TABLE SET/RESET, -c, SET and SHOW all know them.
var (
	testScaleParam = reloptions.Declare(reloptions.Param{
		Name: "minipg_test_scale_factor", Kind: reloptions.Real, Desc: "a storage parameter and a session setting",
		Default: "0.2", Min: 0, Max: 100, Table: true, Setting: reloptions.UserSet,
	})
	testNapParam = reloptions.Declare(reloptions.Param{
		Name: "minipg_test_naptime", Kind: reloptions.Int, Desc: "a server setting in seconds, -c only",
		Default: "60", Min: 1, Max: 2147483, Unit: "s", Setting: reloptions.Sighup,
	})
	testEnabledParam = reloptions.Declare(reloptions.Param{
		Name: "minipg_test_enabled", Kind: reloptions.Bool, Desc: "a storage parameter only",
		Default: "on", Table: true,
	})
)

func TestDeclaredParameters(t *testing.T) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	if _, err := Open(Config{DataDir: t.TempDir(), Settings: map[string]string{"minipg_test_naptime": "0"}}, quiet); pgerr.CodeOf(err) != pgerr.InvalidParameterValue ||
		err.Error() != `0 s is outside the valid range for parameter "minipg_test_naptime" (1 .. 2147483)` {
		t.Fatalf("-c minipg_test_naptime=0: %v", err)
	}
	e, err := Open(Config{DataDir: t.TempDir(), SharedBuffers: 4 << 20,
		Settings: map[string]string{"minipg_test_naptime": "2min", "minipg_test_scale_factor": "0.1"}}, quiet)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	s := e.NewSession(map[string]string{"user": "postgres"})
	defer s.Close()

	show := func(name string) string {
		t.Helper()
		rows, _ := mustExec(t, s, "SHOW "+name)
		return rows[0][0].(string)
	}
	wantErr := func(q string, code pgerr.Code, msg string) {
		t.Helper()
		_, _, err := exec(t, s, q)
		if pgerr.CodeOf(err) != code || err.Error() != msg {
			t.Errorf("%s: %v (%s), want %s %q", q, err, pgerr.CodeOf(err), code, msg)
		}
		_ = s.Sync()
	}
	if got := show("minipg_test_naptime"); got != "2min" {
		t.Errorf("SHOW minipg_test_naptime = %q, want 2min", got)
	}
	wantErr("SET minipg_test_naptime = 5", pgerr.CantChangeRuntimeParam, `parameter "minipg_test_naptime" cannot be changed now`)
	wantErr("SET minipg_test_scale_factor = 200", pgerr.InvalidParameterValue,
		`200 is outside the valid range for parameter "minipg_test_scale_factor" (0 .. 100)`)
	mustExec(t, s, "SET minipg_test_scale_factor = 0.5")
	if got := show("minipg_test_scale_factor"); got != "0.5" {
		t.Errorf("SHOW after SET = %q", got)
	}

	mustExec(t, s, "CREATE TABLE p1 (a int) WITH (minipg_test_scale_factor = 0.05, minipg_test_enabled = off)")
	mustExec(t, s, "CREATE TABLE p2 (a int)")
	wantErr("CREATE TABLE p3 (a int) WITH (minipg_test_naptime = 5)", pgerr.InvalidParameterValue, `unrecognized parameter "minipg_test_naptime"`)
	wantErr("CREATE TABLE p3 (a int) WITH (minipg_test_enabled = maybe)", pgerr.InvalidParameterValue,
		`invalid value for boolean option "minipg_test_enabled": maybe`)
	wantErr("ALTER TABLE p1 SET (minipg_test_scale_factor = -1)", pgerr.InvalidParameterValue,
		`value -1 out of bounds for option "minipg_test_scale_factor"`)

	// The value in force for a table: its own option, else the server's
	// setting (not the session's), else the default.
	inForce := func(table string) (float64, bool) {
		t.Helper()
		tb, ok := e.cat.Table(table)
		if !ok {
			t.Fatalf("no table %s", table)
		}
		src := reloptions.Layers(tb.Options, e.settings)
		return testScaleParam.Real(src), testEnabledParam.Bool(src)
	}
	if f, on := inForce("p1"); f != 0.05 || on {
		t.Errorf("p1: %g %v, want the table's 0.05 and off", f, on)
	}
	if f, on := inForce("p2"); f != 0.1 || !on {
		t.Errorf("p2: %g %v, want the server's 0.1 and the default on", f, on)
	}
	mustExec(t, s, "ALTER TABLE p1 RESET (minipg_test_scale_factor, minipg_test_enabled)")
	if f, on := inForce("p1"); f != 0.1 || !on {
		t.Errorf("p1 after RESET: %g %v", f, on)
	}
	if n := testNapParam.Int(reloptions.Layers(e.settings)); n != 120 {
		t.Errorf("naptime %d s, want 120", n)
	}
}
