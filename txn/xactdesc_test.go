package txn

import (
	"encoding/binary"
	"strings"
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
	d := xactRecord(xlXactCommit, 5, nil).MainData
	if us := int64(binary.LittleEndian.Uint64(d)); len(d) != 8 || us < 26*365*24*3600*1e6 {
		t.Errorf("xact_time %d (%d bytes) is not microseconds since 2000", us, len(d))
	}
}

// A record of a transaction with subtransactions carries them as
// PostgreSQL's xl_xact_subxacts, and its description lists them
// (xact_desc_subxacts); a malformed one is refused by replay.
func TestXactRecordSubxacts(t *testing.T) {
	for _, op := range []uint8{xlXactCommit, xlXactAbort} {
		rec := xactRecord(op, 10, []uint32{11, 13})
		if rec.Info != op|xlXactHasInfo || len(rec.MainData) != 8+4+4+8 {
			t.Fatalf("info %#x, %d bytes", rec.Info, len(rec.MainData))
		}
		dec := &wal.DecodedRecord{Rmgr: wal.RmgrXact, Info: rec.Info, Xid: 10, MainData: rec.MainData}
		subs, ok := parseXact(dec)
		if !ok || len(subs) != 2 || subs[0] != 11 || subs[1] != 13 {
			t.Fatalf("parsed %v %v", subs, ok)
		}
		if got := wal.RecordDesc(dec); !strings.HasSuffix(got, "+00; subxacts: 11 13") {
			t.Errorf("desc %q", got)
		}
		dec.MainData = dec.MainData[:len(dec.MainData)-1]
		if _, ok := parseXact(dec); ok {
			t.Error("a truncated subxact list parsed")
		}
	}
	if rec := xactRecord(xlXactCommit, 10, nil); rec.Info != xlXactCommit || len(rec.MainData) != 8 {
		t.Errorf("no subtransactions: info %#x, %d bytes", rec.Info, len(rec.MainData))
	}
}
