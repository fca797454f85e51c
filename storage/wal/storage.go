package wal

import (
	"encoding/binary"
	"fmt"

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

// Storage record main data, storage_xlog.h's structs (RelFileNode =
// spcNode u32 = 1663, dbNode u32 = 5, relNode u32):
//
//	create (xl_smgr_create, 16):    RelFileNode | forkNum i32
//	truncate (xl_smgr_truncate, 20): blkno u32 | RelFileNode | flags i32
//	drop (minipg, 12):              RelFileNode
//
// truncate's flags say which fork is cut (SMGR_TRUNCATE_HEAP 0x01 for the
// main fork, SMGR_TRUNCATE_FSM 0x04): minipg logs one record per fork.
const (
	smgrTruncateHeap = 0x01
	smgrTruncateFSM  = 0x04
	smgrCreateSize   = 16
	smgrTruncateSize = 20
	smgrDropSize     = RelFileNodeSize
)

func appendRelFileNode(d []byte, rel buffer.RelFileNode) []byte {
	d = binary.LittleEndian.AppendUint32(d, DefaultTablespaceOID)
	d = binary.LittleEndian.AppendUint32(d, DatabaseOID)
	return binary.LittleEndian.AppendUint32(d, uint32(rel))
}

func truncateFlags(fork buffer.Fork) uint32 {
	if fork == buffer.FSMFork {
		return smgrTruncateFSM
	}
	return smgrTruncateHeap
}

// LogCreate logs the creation of a relation fork's file (log_smgrcreate).
// Log it before creating the file; it need not be flushed before the file
// is used (the first page write flushes past it).
func (l *Log) LogCreate(rel buffer.RelFileNode, fork buffer.Fork) (uint64, error) {
	return l.Insert(&Record{Rmgr: RmgrStorage, Info: InfoSmgrCreate, MainData: binary.LittleEndian.AppendUint32(appendRelFileNode(make([]byte, 0, smgrCreateSize), rel), uint32(fork)), Rel: rel})
}

// LogTruncate logs the truncation of a fork to nblocks. As RelationTruncate
// does, the caller must Flush the returned LSN before truncating the file:
// a truncation that reached disk must never be undone by replaying older
// records that extend the fork again.
func (l *Log) LogTruncate(rel buffer.RelFileNode, fork buffer.Fork, nblocks uint32) (uint64, error) {
	d := binary.LittleEndian.AppendUint32(make([]byte, 0, smgrTruncateSize), nblocks)
	d = binary.LittleEndian.AppendUint32(appendRelFileNode(d, rel), truncateFlags(fork))
	return l.Insert(&Record{Rmgr: RmgrStorage, Info: InfoSmgrTruncate, MainData: d, Rel: rel})
}

// LogDrop logs the removal of all of a relation's files. Flush it (it is
// part of the dropping transaction's commit) before unlinking the files.
func (l *Log) LogDrop(rel buffer.RelFileNode) (uint64, error) {
	return l.Insert(&Record{Rmgr: RmgrStorage, Info: InfoSmgrDrop, MainData: appendRelFileNode(make([]byte, 0, smgrDropSize), rel), Rel: rel})
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
		le := binary.LittleEndian
		switch rec.Info {
		case InfoSmgrCreate:
			if len(d) != smgrCreateSize || le.Uint32(d[12:]) > uint32(buffer.FSMFork) {
				return bad()
			}
			return pool.CreateFork(buffer.RelFileNode(le.Uint32(d[8:])), buffer.Fork(le.Uint32(d[12:])))
		case InfoSmgrTruncate:
			if len(d) != smgrTruncateSize {
				return bad()
			}
			rel := buffer.RelFileNode(le.Uint32(d[12:]))
			switch le.Uint32(d[16:]) {
			case smgrTruncateHeap:
				return pool.TruncateRel(rel, buffer.MainFork, le.Uint32(d))
			case smgrTruncateFSM:
				return pool.TruncateRel(rel, buffer.FSMFork, le.Uint32(d))
			}
			return bad()
		case InfoSmgrDrop:
			if len(d) != smgrDropSize {
				return bad()
			}
			return pool.DropRel(buffer.RelFileNode(le.Uint32(d[8:])))
		}
		return bad()
	}
}

// relPath is relpathperm: the file of a relation fork as PostgreSQL names
// it under the data directory.
func relPath(d []byte, fork buffer.Fork) string {
	p := fmt.Sprintf("base/%d/%d", binary.LittleEndian.Uint32(d[4:]), binary.LittleEndian.Uint32(d[8:]))
	switch fork {
	case buffer.FSMFork:
		p += "_fsm"
	case buffer.VMFork:
		p += "_vm"
	}
	return p
}

// storageDesc is smgr_desc.
func storageDesc(rec *DecodedRecord) string {
	d := rec.MainData
	le := binary.LittleEndian
	switch {
	case rec.Info == InfoSmgrCreate && len(d) == smgrCreateSize:
		return relPath(d, buffer.Fork(le.Uint32(d[12:])))
	case rec.Info == InfoSmgrTruncate && len(d) == smgrTruncateSize:
		return fmt.Sprintf("%s to %d blocks flags %d", relPath(d[4:], buffer.MainFork), le.Uint32(d), int32(le.Uint32(d[16:])))
	case rec.Info == InfoSmgrDrop && len(d) == smgrDropSize:
		return relPath(d, buffer.MainFork)
	}
	return ""
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
