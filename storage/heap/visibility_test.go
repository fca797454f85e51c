package heap

import (
	"testing"

	"minipg/storage/page"
)

// fixedOracle is a commit log given as a map; missing xids are running.
type fixedOracle map[uint32]XidStatus

func (o fixedOracle) Status(xid uint32) XidStatus { return o[xid] }

// Xids of the visibility tables.
const (
	xCommitted  = 10
	xAborted    = 11
	xRunning    = 12 // running, in the snapshot's xip
	xCommInXip  = 13 // committed since the snapshot was taken
	xOwn        = 20 // the snapshot's own transaction
	xCommLater  = 30 // started after the snapshot, committed
	xRunningNew = 31 // started after the snapshot, running
)

var visOracle = fixedOracle{
	xCommitted: XidCommitted, xAborted: XidAborted, xRunning: XidInProgress, xCommInXip: XidCommitted,
	xOwn: XidInProgress, xCommLater: XidCommitted, xRunningNew: XidInProgress,
}

// hdr builds a tuple with the given header fields.
type hdr struct {
	xmin, xmax uint32
	cid        uint32
	mask       uint16 // extra infomask bits
	combo      bool   // cid is cmin | cmax<<16
}

func (h hdr) tuple(tb testing.TB) []byte {
	t := mkRow(tb, 1, "v")
	SetXmin(t, h.xmin)
	SetXmax(t, h.xmax)
	SetCid(t, h.cid)
	im := Infomask(t) &^ HeapXactMask
	if h.xmax == 0 {
		im |= HeapXmaxInvalid
	}
	if h.combo {
		im |= HeapComboCid
	}
	SetInfomask(t, im|h.mask)
	SetCtid(t, page.TID{Block: 0, Offset: 1})
	return t
}

func TestSatisfiesMVCC(t *testing.T) {
	snap := &Snapshot{Xmin: xRunning, Xmax: 25, Xip: []uint32{xRunning, xCommInXip}, CurXid: xOwn, CurCid: 5, Oracle: visOracle}
	lockOnly := uint16(HeapXmaxLockOnly | HeapXmaxExclLock)
	cases := []struct {
		name    string
		h       hdr
		visible bool
		hints   uint16
	}{
		{"committed insert", hdr{xmin: xCommitted}, true, HeapXminCommitted},
		{"committed insert, hinted", hdr{xmin: xCommitted, mask: HeapXminCommitted}, true, 0},
		{"frozen", hdr{xmin: FrozenXid}, true, HeapXminCommitted},
		{"aborted insert", hdr{xmin: xAborted}, false, HeapXminInvalid},
		{"aborted insert, hinted", hdr{xmin: xCommitted, mask: HeapXminInvalid}, false, 0},
		{"running insert", hdr{xmin: xRunning}, false, 0},
		{"insert committed after the snapshot", hdr{xmin: xCommInXip}, false, 0},
		{"insert committed after the snapshot, hinted", hdr{xmin: xCommInXip, mask: HeapXminCommitted}, false, 0},
		{"insert by a later transaction", hdr{xmin: xCommLater}, false, 0},
		{"own insert, earlier command", hdr{xmin: xOwn, cid: 4}, true, 0},
		{"own insert, this command", hdr{xmin: xOwn, cid: 5}, false, 0},
		{"own insert, own delete later", hdr{xmin: xOwn, xmax: xOwn, cid: 4 | 5<<16, combo: true}, true, 0},
		{"own insert, own delete earlier", hdr{xmin: xOwn, xmax: xOwn, cid: 3 | 4<<16, combo: true}, false, 0},
		{"own insert, own lock", hdr{xmin: xOwn, xmax: xOwn, cid: 4, mask: lockOnly}, true, 0},
		{"own insert, aborted deleter", hdr{xmin: xOwn, xmax: xAborted, cid: 4}, true, HeapXmaxInvalid},
		{"committed delete", hdr{xmin: xCommitted, xmax: xCommitted}, false, HeapXminCommitted | HeapXmaxCommitted},
		{"aborted delete", hdr{xmin: xCommitted, xmax: xAborted}, true, HeapXminCommitted | HeapXmaxInvalid},
		{"running delete", hdr{xmin: xCommitted, xmax: xRunning}, true, HeapXminCommitted},
		{"delete committed after the snapshot", hdr{xmin: xCommitted, xmax: xCommInXip}, true, HeapXminCommitted},
		{"delete by a later transaction, hinted", hdr{xmin: xCommitted, xmax: xCommLater, mask: HeapXmaxCommitted}, true, HeapXminCommitted},
		{"delete by a later running transaction", hdr{xmin: xCommitted, xmax: xRunningNew}, true, HeapXminCommitted},
		{"committed lock", hdr{xmin: xCommitted, xmax: xCommitted, mask: lockOnly}, true, HeapXminCommitted},
		{"running lock", hdr{xmin: xCommitted, xmax: xRunning, mask: lockOnly}, true, HeapXminCommitted},
		{"own delete, earlier command", hdr{xmin: xCommitted, xmax: xOwn, cid: 4}, false, HeapXminCommitted},
		{"own delete, this command", hdr{xmin: xCommitted, xmax: xOwn, cid: 5}, true, HeapXminCommitted},
	}
	for _, c := range cases {
		vis, hints := satisfiesMVCC(c.h.tuple(t), snap)
		if vis != c.visible || hints != c.hints {
			t.Errorf("%s: visible %v hints %#x, want %v %#x", c.name, vis, hints, c.visible, c.hints)
		}
	}
}

func TestSatisfiesUpdate(t *testing.T) {
	lockOnly := uint16(HeapXmaxLockOnly | HeapXmaxExclLock)
	cases := []struct {
		name   string
		h      hdr
		moved  bool // t_ctid points elsewhere
		cid    uint32
		result Result
	}{
		{"live", hdr{xmin: xCommitted}, false, 5, TMOk},
		{"aborted insert", hdr{xmin: xAborted}, false, 5, TMInvisible},
		{"running insert", hdr{xmin: xRunning}, false, 5, TMInvisible},
		{"own insert, earlier command", hdr{xmin: xOwn, cid: 4}, false, 5, TMOk},
		{"own insert, this command", hdr{xmin: xOwn, cid: 5}, false, 5, TMInvisible},
		{"own update, this command", hdr{xmin: xCommitted, xmax: xOwn, cid: 5}, true, 5, TMSelfModified},
		{"own update, earlier command", hdr{xmin: xCommitted, xmax: xOwn, cid: 4}, true, 5, TMInvisible},
		{"own lock", hdr{xmin: xCommitted, xmax: xOwn, mask: lockOnly}, false, 5, TMBeingModified},
		{"running update", hdr{xmin: xCommitted, xmax: xRunning}, true, 5, TMBeingModified},
		{"running lock", hdr{xmin: xCommitted, xmax: xRunning, mask: lockOnly}, false, 5, TMBeingModified},
		{"committed lock", hdr{xmin: xCommitted, xmax: xCommitted, mask: lockOnly}, false, 5, TMOk},
		{"aborted lock", hdr{xmin: xCommitted, xmax: xAborted, mask: lockOnly}, false, 5, TMOk},
		{"aborted update", hdr{xmin: xCommitted, xmax: xAborted}, true, 5, TMOk},
		{"committed update", hdr{xmin: xCommitted, xmax: xCommInXip}, true, 5, TMUpdated},
		{"committed update, hinted", hdr{xmin: xCommitted, xmax: xCommitted, mask: HeapXmaxCommitted}, true, 5, TMUpdated},
		{"committed delete", hdr{xmin: xCommitted, xmax: xCommLater}, false, 5, TMDeleted},
	}
	for _, c := range cases {
		tup := c.h.tuple(t)
		if c.moved {
			SetCtid(tup, page.TID{Block: 3, Offset: 7})
		}
		res, _ := satisfiesUpdate(tup, 0, 1, writer{xid: xOwn}, c.cid, visOracle)
		if res != c.result {
			t.Errorf("%s: %v, want %v", c.name, res, c.result)
		}
	}
}

func TestSatisfiesDirty(t *testing.T) {
	lockOnly := uint16(HeapXmaxLockOnly | HeapXmaxExclLock)
	cases := []struct {
		name string
		h    hdr
		live bool
		wait uint32
	}{
		{"committed insert", hdr{xmin: xCommitted}, true, 0},
		{"committed insert, hinted", hdr{xmin: xAborted, mask: HeapXminCommitted}, true, 0},
		{"frozen", hdr{xmin: FrozenXid}, true, 0},
		{"aborted insert", hdr{xmin: xAborted}, false, 0},
		{"aborted insert, hinted", hdr{xmin: xCommitted, mask: HeapXminInvalid}, false, 0},
		{"running insert", hdr{xmin: xRunning}, true, xRunning},
		{"running insert, running delete", hdr{xmin: xRunning, xmax: xRunningNew}, true, xRunning},
		{"insert committed after any snapshot", hdr{xmin: xCommInXip}, true, 0},
		{"own insert", hdr{xmin: xOwn}, true, 0},
		{"own insert, own delete", hdr{xmin: xOwn, xmax: xOwn}, false, 0},
		{"own insert, own lock", hdr{xmin: xOwn, xmax: xOwn, mask: lockOnly}, true, 0},
		{"committed delete", hdr{xmin: xCommitted, xmax: xCommitted}, false, 0},
		{"committed delete, hinted", hdr{xmin: xCommitted, xmax: xRunning, mask: HeapXmaxCommitted}, false, 0},
		{"aborted delete", hdr{xmin: xCommitted, xmax: xAborted}, true, 0},
		{"aborted delete, hinted", hdr{xmin: xCommitted, xmax: xCommitted, mask: HeapXmaxInvalid}, true, 0},
		{"running delete", hdr{xmin: xCommitted, xmax: xRunning}, true, xRunning},
		{"own delete", hdr{xmin: xCommitted, xmax: xOwn}, false, 0},
		{"running lock", hdr{xmin: xCommitted, xmax: xRunning, mask: lockOnly}, true, 0},
		{"committed lock", hdr{xmin: xCommitted, xmax: xCommitted, mask: lockOnly}, true, 0},
	}
	for _, c := range cases {
		live, wait := SatisfiesDirty(c.h.tuple(t), NewOwnXids(xOwn), visOracle)
		if live != c.live || wait != c.wait {
			t.Errorf("%s: live %v wait %d, want %v %d", c.name, live, wait, c.live, c.wait)
		}
	}
}

func TestSatisfiesVacuum(t *testing.T) {
	const horizon = 12
	lockOnly := uint16(HeapXmaxLockOnly | HeapXmaxExclLock)
	cases := []struct {
		name string
		h    hdr
		want vacStatus
	}{
		{"live", hdr{xmin: xCommitted}, vacLive},
		{"aborted insert", hdr{xmin: xAborted}, vacDead},
		{"running insert", hdr{xmin: xRunning}, vacInsertInProgress},
		{"deleted before the horizon", hdr{xmin: FrozenXid, xmax: xCommitted}, vacDead},
		{"deleted after the horizon", hdr{xmin: xCommitted, xmax: xCommInXip}, vacRecentlyDead},
		{"delete running", hdr{xmin: xCommitted, xmax: xRunning}, vacDeleteInProgress},
		{"delete aborted", hdr{xmin: xCommitted, xmax: xAborted}, vacLive},
		{"locked by an ended transaction", hdr{xmin: xCommitted, xmax: xCommitted, mask: lockOnly}, vacLive},
		{"locked by a running transaction", hdr{xmin: xCommitted, xmax: xRunning, mask: lockOnly}, vacLive},
	}
	for _, c := range cases {
		if got, _ := satisfiesVacuum(c.h.tuple(t), horizon, visOracle); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
}

func TestXidPrecedes(t *testing.T) {
	cases := []struct {
		a, b uint32
		want bool
	}{
		{3, 4, true}, {4, 3, false}, {3, 3, false},
		{0xFFFFFFF0, 5, true}, // wrapped: 5 is "later"
		{5, 0xFFFFFFF0, false},
		{FrozenXid, 3, true}, {3, FrozenXid, false}, {InvalidXid, BootstrapXid, true},
	}
	for _, c := range cases {
		if got := XidPrecedes(c.a, c.b); got != c.want {
			t.Errorf("XidPrecedes(%d, %d) = %v", c.a, c.b, got)
		}
	}
}
