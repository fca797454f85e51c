package txn

import (
	"encoding/binary"
	"testing"
	"time"

	"minipg/storage/wal"
)

// A commit record's xact_time is a TimestampTz and its description the
// time as timestamptz_to_str prints it in UTC, trailing zeros of the
// fraction dropped.
func TestXactDesc(t *testing.T) {
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 12, 4, 12, 49, 29, 238522000, time.UTC), "2026-12-04 12:49:29.238522+00"},
		{time.Date(2026, 12, 4, 12, 49, 29, 362210000, time.UTC), "2026-12-04 12:49:29.36221+00"},
		{time.Date(2000, 1, 1, 0, 0, 1, 0, time.UTC), "2000-01-01 00:00:01+00"},
	} {
		us := tc.at.UnixMicro() - pgEpoch.UnixMicro()
		rec := &wal.DecodedRecord{Rmgr: wal.RmgrXact, Info: xlXactCommit, MainData: binary.LittleEndian.AppendUint64(nil, uint64(us))}
		if got := wal.RecordDesc(rec); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.at, got, tc.want)
		}
	}
	d := xactData()
	if us := int64(binary.LittleEndian.Uint64(d)); len(d) != 8 || us < 26*365*24*3600*1e6 {
		t.Errorf("xact_time %d (%d bytes) is not microseconds since 2000", us, len(d))
	}
}
