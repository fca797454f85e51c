package wal

import (
	"strings"
	"testing"

	"minipg/storage/buffer"
)

// The descriptions of the records this package writes, read back from the
// log, as smgr_desc and xlog_desc print them; and their lengths, as
// PostgreSQL's for the same records (xl_smgr_create 16 bytes, 24 + 2 + 16 =
// 42 in all; xl_smgr_truncate 20, 46 in all).
func TestRecordDescriptions(t *testing.T) {
	l := openTest(t, t.TempDir(), testOptions(nil))
	defer l.Close()
	type want struct {
		kind, desc string
		total      int
	}
	var starts []uint64
	var wants []want
	log := func(f func() (uint64, error), w want) {
		t.Helper()
		start := l.InsertLSN()
		if _, err := f(); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, start)
		wants = append(wants, w)
	}
	log(func() (uint64, error) { return l.LogCreate(16384, buffer.MainFork) }, want{"CREATE", "base/5/16384", 42})
	log(func() (uint64, error) { return l.LogCreate(16384, buffer.FSMFork) }, want{"CREATE", "base/5/16384_fsm", 42})
	log(func() (uint64, error) { return l.LogTruncate(16384, buffer.MainFork, 3) }, want{"TRUNCATE", "base/5/16384 to 3 blocks flags 1", 46})
	log(func() (uint64, error) { return l.LogTruncate(16384, buffer.FSMFork, 0) }, want{"TRUNCATE", "base/5/16384 to 0 blocks flags 4", 46})
	log(func() (uint64, error) { return l.LogDrop(16385) }, want{"DROP", "base/5/16385", 38})
	log(func() (uint64, error) {
		c, err := l.Checkpoint(CheckpointOptions{Extra: []byte{0xE8, 0x03, 0, 0}})
		return c.LSN, err
	}, want{"CHECKPOINT_ONLINE", "; xid 0:1000; ", 0})
	if err := l.FlushAll(); err != nil {
		t.Fatal(err)
	}
	for i, start := range starts {
		rd := l.NewReader(start)
		rec, err := rd.Next()
		if err != nil {
			t.Fatal(err)
		}
		_, kind := RecordTypeName(rec.Rmgr, rec.Info)
		desc := RecordDesc(rec)
		w := wants[i]
		switch {
		case kind != w.kind:
			t.Errorf("record %d: %s, want %s", i, kind, w.kind)
		case w.total == 0 && !(strings.HasPrefix(desc, "redo ") && strings.Contains(desc, w.desc) &&
			strings.Contains(desc, "fpw true") && strings.HasSuffix(desc, "; online")):
			t.Errorf("checkpoint described as %q", desc)
		case w.total != 0 && (desc != w.desc || rec.TotalLen != w.total):
			t.Errorf("record %d: %q, %d bytes; want %q, %d", i, desc, rec.TotalLen, w.desc, w.total)
		}
		rd.Close()
	}
}
