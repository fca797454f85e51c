package wal

import (
	"encoding/binary"
	"minipg/pgerr"

	"minipg/storage/buffer"
)

// RmgrStorage info values (storage_xlog.h numbers, plus a drop record:
// PostgreSQL logs drops in the commit record instead).
const (
	InfoSmgrCreate   uint8 = 0x10 // XLOG_SMGR_CREATE
	InfoSmgrTruncate uint8 = 0x20 // XLOG_SMGR_TRUNCATE
	InfoSmgrDrop     uint8 = 0x30 // minipg: the relation's files are removed
)

// Storage record main data:
//
//	create:    rel u32 | fork u8
//	truncate:  rel u32 | fork u8 | nblocks u32
//	drop:      rel u32
func storageData(rel buffer.RelFileNode, fork buffer.Fork, nblocks uint32, n int) []byte {
	d := make([]byte, n)
	binary.LittleEndian.PutUint32(d, uint32(rel))
	if n > 4 {
		d[4] = byte(fork)
	}
	if n > 5 {
		binary.LittleEndian.PutUint32(d[5:], nblocks)
	}
	return d
}

// LogCreate logs the creation of a relation fork's file (log_smgrcreate).
// Log it before creating the file; it need not be flushed before the file
// is used (the first page write flushes past it).
func (l *Log) LogCreate(rel buffer.RelFileNode, fork buffer.Fork) (uint64, error) {
	return l.Insert(&Record{Rmgr: RmgrStorage, Info: InfoSmgrCreate, MainData: storageData(rel, fork, 0, 5), Rel: rel})
}

// LogTruncate logs the truncation of a fork to nblocks. As RelationTruncate
// does, the caller must Flush the returned LSN before truncating the file:
// a truncation that reached disk must never be undone by replaying older
// records that extend the fork again.
func (l *Log) LogTruncate(rel buffer.RelFileNode, fork buffer.Fork, nblocks uint32) (uint64, error) {
	return l.Insert(&Record{Rmgr: RmgrStorage, Info: InfoSmgrTruncate, MainData: storageData(rel, fork, nblocks, 9), Rel: rel})
}

// LogDrop logs the removal of all of a relation's files. Flush it (it is
// part of the dropping transaction's commit) before unlinking the files.
func (l *Log) LogDrop(rel buffer.RelFileNode) (uint64, error) {
	return l.Insert(&Record{Rmgr: RmgrStorage, Info: InfoSmgrDrop, MainData: storageData(rel, 0, 0, 4), Rel: rel})
}

// StorageRedo returns the RmgrStorage redo function over pool: register it
// with l.RegisterRedo(RmgrStorage, StorageRedo(pool)).
func StorageRedo(pool *buffer.Pool) RedoFunc {
	return func(rec *DecodedRecord) error {
		d := rec.MainData
		bad := func() error {
			return pgerr.FromSentinel(ErrCorrupt, nil, "invalid storage record at %s (info %#x, %d bytes)",
				FormatLSN(rec.LSN), rec.Info, len(d))
		}
		if len(d) < 4 {
			return bad()
		}
		rel := buffer.RelFileNode(binary.LittleEndian.Uint32(d))
		switch rec.Info {
		case InfoSmgrCreate:
			if len(d) != 5 || d[4] > byte(buffer.FSMFork) {
				return bad()
			}
			return pool.CreateFork(rel, buffer.Fork(d[4]))
		case InfoSmgrTruncate:
			if len(d) != 9 || d[4] > byte(buffer.FSMFork) {
				return bad()
			}
			return pool.TruncateRel(rel, buffer.Fork(d[4]), binary.LittleEndian.Uint32(d[5:]))
		case InfoSmgrDrop:
			if len(d) != 4 {
				return bad()
			}
			return pool.DropRel(rel)
		}
		return bad()
	}
}

// LogNewPage logs a full image of a page written outside any other record
// (log_newpage: an index build writing the pages of a new index), as an
// RmgrXLOG InfoFPI record with one block. p is the page as it will be
// written; the caller holds its buffer's exclusive content lock (or owns
// the page alone) and sets pd_lsn to the returned LSN. A standard page's
// hole between pd_lower and pd_upper is left out.
func (l *Log) LogNewPage(rel buffer.RelFileNode, fork buffer.Fork, blk uint32, p []byte, dirtied bool) (uint64, error) {
	return l.Insert(&Record{Rmgr: RmgrXLOG, Info: InfoFPI, Blocks: []BlockRef{{Rel: rel, Fork: fork, Block: blk,
		Page: p, ForceImage: true, Dirtied: dirtied}}})
}

// XLOGRedo returns the redo function of RmgrXLOG's full-page-image records
// over pool: register it with l.RegisterRedo(RmgrXLOG, XLOGRedo(pool)).
// Every block of an InfoFPI record is restored from its image (or left
// alone when the page is already newer). Checkpoint records never reach it.
func XLOGRedo(pool *buffer.Pool) RedoFunc {
	return func(rec *DecodedRecord) error {
		if rec.Info != InfoFPI {
			return nil
		}
		for i := range rec.Blocks {
			if !rec.Blocks[i].HasImage {
				return pgerr.FromSentinel(ErrCorrupt, nil, "full-page-image record at %s has block %d without an image",
					FormatLSN(rec.LSN), i)
			}
			buf, _, err := ReadBufferForRedo(pool, rec, i)
			if err != nil {
				return err
			}
			buf.Unlock()
			buf.Release()
		}
		return nil
	}
}
