package heap

import (
	"encoding/binary"
	"fmt"
	"strings"

	"minipg/storage/wal"
)

// The heap's record types by name, as PostgreSQL's heapdesc.c identifies
// them (pg_walinspect, pg_waldump), for the WAL's per-relation counters,
// and their descriptions (heap_desc, heap2_desc).
func init() {
	wal.RegisterRecordNames(wal.RmgrHeap, "Heap", func(info uint8) string {
		var s string
		switch info & xlHeapOpMask {
		case xlHeapInsert:
			s = "INSERT"
		case xlHeapDelete:
			s = "DELETE"
		case xlHeapUpdate:
			s = "UPDATE"
		case xlHeapHotUpdate:
			s = "HOT_UPDATE"
		case xlHeapLock:
			s = "LOCK"
		case xlHeapConfirm:
			s = "HEAP_CONFIRM" // heapdesc.c names it so
		default:
			return ""
		}
		if info&xlHeapInitPage != 0 {
			s += "+INIT"
		}
		return s
	})
	wal.RegisterRecordNames(wal.RmgrHeap2, "Heap2", func(info uint8) string {
		switch info & xlHeapOpMask {
		case xl2PageImage:
			return "PAGE_IMAGE" // minipg's forced full-page image of a heap change
		case xl2Prune:
			return "PRUNE"
		case xl2Vacuum:
			return "VACUUM"
		case xl2Visible:
			return "VISIBLE"
		case xl2MultiInsert:
			if info&xlHeapInitPage != 0 {
				return "MULTI_INSERT+INIT"
			}
			return "MULTI_INSERT"
		}
		return ""
	})
}

// outInfobits is heapdesc.c's out_infobits: the XLHL_* bits by name, each
// followed by a space.
func outInfobits(sb *strings.Builder, b uint8) {
	for _, f := range []struct {
		bit  uint8
		name string
	}{{xlhlXmaxIsMulti, "IS_MULTI "}, {xlhlXmaxLockOnly, "LOCK_ONLY "}, {xlhlXmaxExclLock, "EXCL_LOCK "},
		{xlhlXmaxKeyshrLock, "KEYSHR_LOCK "}, {xlhlKeysUpdated, "KEYS_UPDATED "}} {
		if b&f.bit != 0 {
			sb.WriteString(f.name)
		}
	}
}

// heapDesc is heap_desc: the main data of a Heap record as PostgreSQL 15
// prints it. A record too short for its type prints nothing.
func heapDesc(rec *wal.DecodedRecord) string {
	d := rec.MainData
	le := binary.LittleEndian
	var sb strings.Builder
	switch op := rec.Info & xlHeapOpMask; op {
	case xlHeapInsert:
		if len(d) >= xlInsertSize {
			fmt.Fprintf(&sb, "off %d flags 0x%02X", le.Uint16(d), d[2])
		}
	case xlHeapDelete:
		if len(d) >= xlDeleteSize {
			fmt.Fprintf(&sb, "off %d flags 0x%02X ", le.Uint16(d[4:]), d[7])
			outInfobits(&sb, d[6])
		}
	case xlHeapUpdate, xlHeapHotUpdate:
		if len(d) >= xlUpdateSize {
			fmt.Fprintf(&sb, "off %d xmax %d flags 0x%02X ", le.Uint16(d[4:]), le.Uint32(d), d[7])
			outInfobits(&sb, d[6])
			fmt.Fprintf(&sb, "; new off %d xmax %d", le.Uint16(d[12:]), le.Uint32(d[8:]))
		}
	case xlHeapLock:
		if len(d) >= xlLockSize {
			fmt.Fprintf(&sb, "off %d: xid %d: flags 0x%02X ", le.Uint16(d[4:]), le.Uint32(d), d[7])
			outInfobits(&sb, d[6])
		}
	case xlHeapConfirm:
		if len(d) >= xlConfirmSize {
			fmt.Fprintf(&sb, "off %d", le.Uint16(d))
		}
	}
	return sb.String()
}

// heap2Desc is heap2_desc.
func heap2Desc(rec *wal.DecodedRecord) string {
	d := rec.MainData
	le := binary.LittleEndian
	switch rec.Info & xlHeapOpMask {
	case xl2Prune:
		if len(d) >= xlPruneSize {
			return fmt.Sprintf("latestRemovedXid %d nredirected %d ndead %d", le.Uint32(d), le.Uint16(d[4:]), le.Uint16(d[6:]))
		}
	case xl2Vacuum:
		if len(d) >= xlVacuumSize {
			return fmt.Sprintf("nunused %d", le.Uint16(d))
		}
	case xl2Visible:
		if len(d) >= xlVisibleSize {
			return fmt.Sprintf("cutoff xid %d flags 0x%02X", le.Uint32(d), d[4])
		}
	case xl2MultiInsert:
		if len(d) >= xlMultiHeaderSize {
			return fmt.Sprintf("%d tuples flags 0x%02X", le.Uint16(d[2:]), d[0])
		}
	}
	return ""
}

func init() {
	wal.RegisterRecordDesc(wal.RmgrHeap, heapDesc)
	wal.RegisterRecordDesc(wal.RmgrHeap2, heap2Desc)
}
