package wal

import (
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"minipg/storage/buffer"
)

// Per-relation WAL accounting: records, full-page images, bytes and pages
// dirtied, per relation and per record type (resource manager and
// xl_info), as pg_walinspect's pg_get_wal_stats breaks a range of WAL down
// by record type, but counted as records are inserted rather than read
// back. A record's count and bytes go to the relation of its first block
// (a record without blocks to Record.Rel: the relation a storage record
// creates, truncates or drops, or 0 for commits and checkpoints); its
// images and the pages it dirtied go to each block's relation.
//
// The hot path is lock-free: one load of an immutable map per record (and
// per block of another relation) finds the counters, which are atomics; a
// new (relation, record type) pair is added once, by copying the map under
// a mutex.

// RelStats are the WAL counters of one relation and record type.
type RelStats struct {
	Rel          buffer.RelFileNode // 0: records that change no relation's pages
	Rmgr         RmgrID
	Info         uint8
	Records      int64 // records inserted
	FPI          int64 // full-page images among their blocks
	Bytes        int64 // their total length, images included
	PagesDirtied int64 // blocks whose change found the page clean (BlockRef.Dirtied)
}

// relStatsKey packs a relation, a resource manager and an info byte.
type relStatsKey uint64

func makeRelStatsKey(rel buffer.RelFileNode, rmgr RmgrID, info uint8) relStatsKey {
	return relStatsKey(uint64(rel)<<16 | uint64(rmgr)<<8 | uint64(info))
}

func (k relStatsKey) split() (buffer.RelFileNode, RmgrID, uint8) {
	return buffer.RelFileNode(k >> 16), RmgrID(k >> 8), uint8(k)
}

type relCounters struct {
	records, fpi, bytes, dirtied atomic.Int64
}

// relStats holds the counters: m is replaced, never changed, so readers
// need no lock.
type relStats struct {
	mu sync.Mutex // serializes replacing m
	m  atomic.Pointer[map[relStatsKey]*relCounters]
}

// relCountersFor returns the counters of key, creating them.
func (l *Log) relCountersFor(key relStatsKey) *relCounters {
	if m := l.relStats.m.Load(); m != nil {
		if c, ok := (*m)[key]; ok {
			return c
		}
	}
	l.relStats.mu.Lock()
	defer l.relStats.mu.Unlock()
	old := l.relStats.m.Load()
	if old != nil {
		if c, ok := (*old)[key]; ok {
			return c
		}
	}
	m := make(map[relStatsKey]*relCounters, 1+len(ptrMap(old)))
	for k, c := range ptrMap(old) {
		m[k] = c
	}
	c := &relCounters{}
	m[key] = c
	l.relStats.m.Store(&m)
	return c
}

func ptrMap(m *map[relStatsKey]*relCounters) map[relStatsKey]*relCounters {
	if m == nil {
		return nil
	}
	return *m
}

// countRel adds one inserted record of n bytes to the per-relation
// counters; needImage is the image rule insert applied to its blocks.
func (l *Log) countRel(rec *Record, n int, needImage func(*BlockRef) bool) {
	first := rec.Rel
	if len(rec.Blocks) > 0 {
		first = rec.Blocks[0].Rel
	}
	c := l.relCountersFor(makeRelStatsKey(first, rec.Rmgr, rec.Info))
	c.records.Add(1)
	c.bytes.Add(int64(n))
	for i := range rec.Blocks {
		b := &rec.Blocks[i]
		img := b.Page != nil && needImage(b)
		if !img && !b.Dirtied {
			continue
		}
		bc := c
		if b.Rel != first {
			bc = l.relCountersFor(makeRelStatsKey(b.Rel, rec.Rmgr, rec.Info))
		}
		if img {
			bc.fpi.Add(1)
		}
		if b.Dirtied {
			bc.dirtied.Add(1)
		}
	}
}

// RelStats returns the per-relation WAL counters since Open or the last
// ResetRelStats, ordered by relation, resource manager and info.
func (l *Log) RelStats() []RelStats {
	var out []RelStats
	for k, c := range ptrMap(l.relStats.m.Load()) {
		rel, rmgr, info := k.split()
		out = append(out, RelStats{Rel: rel, Rmgr: rmgr, Info: info,
			Records: c.records.Load(), FPI: c.fpi.Load(), Bytes: c.bytes.Load(), PagesDirtied: c.dirtied.Load()})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Rel != b.Rel {
			return a.Rel < b.Rel
		}
		if a.Rmgr != b.Rmgr {
			return a.Rmgr < b.Rmgr
		}
		return a.Info < b.Info
	})
	return out
}

// ResetRelStats forgets the per-relation counters. Records being inserted
// while it runs may be counted in the old counters, that is, lost.
func (l *Log) ResetRelStats() {
	l.relStats.mu.Lock()
	l.relStats.m.Store(nil)
	l.relStats.mu.Unlock()
}

// Record type names, as pg_walinspect and pg_waldump show them: the
// resource manager's name ("Heap") and the record type within it
// ("HOT_UPDATE", "INSERT+INIT").
var recordNames = struct {
	sync.RWMutex // protects m
	m            map[RmgrID]rmgrNames
}{m: map[RmgrID]rmgrNames{
	RmgrXLOG: {"XLOG", func(info uint8) string {
		switch info & 0xF0 {
		case InfoCheckpointShutdown:
			return "CHECKPOINT_SHUTDOWN"
		case InfoCheckpointOnline:
			return "CHECKPOINT_ONLINE"
		case InfoNoop:
			return "NOOP"
		case InfoFPI:
			return "FPI"
		}
		return ""
	}, xlogDesc},
	RmgrXact: {"Transaction", func(info uint8) string {
		switch info & 0x70 { // XLOG_XACT_OPMASK
		case 0x00:
			return "COMMIT"
		case 0x10:
			return "PREPARE"
		case 0x20:
			return "ABORT"
		}
		return ""
	}, nil},
	RmgrStorage: {"Storage", func(info uint8) string {
		switch info & 0xF0 {
		case InfoSmgrCreate:
			return "CREATE"
		case InfoSmgrTruncate:
			return "TRUNCATE"
		case InfoSmgrDrop:
			return "DROP"
		}
		return ""
	}, storageDesc},
}}

type rmgrNames struct {
	name     string
	identify func(info uint8) string
	desc     func(rec *DecodedRecord) string
}

// RegisterRecordNames names a resource manager and its record types (its
// rmgrdesc identify function: "" for an info it does not know). Call it
// from an init function of the package that writes the records.
func RegisterRecordNames(rmgr RmgrID, name string, identify func(info uint8) string) {
	recordNames.Lock()
	defer recordNames.Unlock()
	recordNames.m[rmgr] = rmgrNames{name, identify, recordNames.m[rmgr].desc}
}

// RegisterRecordDesc sets the description function of a resource manager
// registered with RegisterRecordNames: its rm_desc, the text pg_walinspect
// and pg_waldump show for a record ("off 3 flags 0x00"). Call it from the
// same init function, after RegisterRecordNames.
func RegisterRecordDesc(rmgr RmgrID, desc func(rec *DecodedRecord) string) {
	recordNames.Lock()
	defer recordNames.Unlock()
	n := recordNames.m[rmgr]
	n.desc = desc
	recordNames.m[rmgr] = n
}

// RecordDesc returns the description of rec as its resource manager's
// rm_desc writes it; "" for a resource manager without one.
func RecordDesc(rec *DecodedRecord) string {
	recordNames.RLock()
	n := recordNames.m[rec.Rmgr]
	recordNames.RUnlock()
	if n.desc == nil {
		return ""
	}
	return n.desc(rec)
}

// RecordTypeName returns the resource manager's name and the record
// type's, as pg_walinspect shows them; an unregistered one is named by its
// number.
func RecordTypeName(rmgr RmgrID, info uint8) (string, string) {
	recordNames.RLock()
	n, ok := recordNames.m[rmgr]
	recordNames.RUnlock()
	if !ok {
		return fmt.Sprintf("rmgr %d", rmgr), fmt.Sprintf("UNKNOWN (%x)", info)
	}
	if t := n.identify(info); t != "" {
		return n.name, t
	}
	return n.name, fmt.Sprintf("UNKNOWN (%x)", info&^0x0F)
}
