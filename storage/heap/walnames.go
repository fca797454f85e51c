package heap

import "minipg/storage/wal"

// The heap's record types by name, as PostgreSQL's heapdesc.c identifies
// them (pg_walinspect, pg_waldump), for the WAL's per-relation counters.
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
		case xl2MultiInsert:
			if info&xlHeapInitPage != 0 {
				return "MULTI_INSERT+INIT"
			}
			return "MULTI_INSERT"
		}
		return ""
	})
}
