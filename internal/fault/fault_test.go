package fault

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestParse(t *testing.T) {
	m, err := parse("wal-fsync=EIO, data-extend=ENOSPC")
	if err != nil || len(m) != 2 || m[WALFsync] != syscall.EIO || m[DataExtend] != syscall.ENOSPC {
		t.Fatalf("%v %v", m, err)
	}
	for _, bad := range []string{"wal-fsync", "wal-fsync=EPERM", "disk=ENOSPC", ""} {
		if _, err := parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCheck(t *testing.T) {
	defer Clear()
	if err := Check(WALWrite, "write", "x"); err != nil {
		t.Fatal(err)
	}
	Set(WALWrite, syscall.ENOSPC)
	err := Check(WALWrite, "write", "seg")
	if !errors.Is(err, syscall.ENOSPC) || err.Error() != "write seg: no space left on device" {
		t.Fatalf("%v", err)
	}
	if err := Check(WALFsync, "fsync", "seg"); err != nil {
		t.Fatal(err)
	}
	// Armed by a file.
	arm := filepath.Join(t.TempDir(), "arm")
	mu.Lock()
	armFile = arm
	mu.Unlock()
	if err := Check(WALWrite, "write", "seg"); err != nil {
		t.Fatalf("disarmed: %v", err)
	}
	if err := os.WriteFile(arm, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Check(WALWrite, "write", "seg"); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("armed: %v", err)
	}
	Clear()
	if err := Check(WALWrite, "write", "seg"); err != nil {
		t.Fatal(err)
	}
}
