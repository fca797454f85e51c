package wal

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"minipg/pgerr"

	"minipg/storage/buffer"
	"minipg/storage/page"
)

// RmgrID is a resource manager id (PostgreSQL's RmgrId, same numbers).
type RmgrID uint8

// Resource managers. The WAL package itself implements only RmgrXLOG
// (checkpoints); the others register redo functions with Log.RegisterRedo.
const (
	RmgrXLOG    RmgrID = 0  // checkpoints (this package)
	RmgrXact    RmgrID = 1  // commit, abort (txn)
	RmgrStorage RmgrID = 2  // create, truncate, drop relation files
	RmgrHeap2   RmgrID = 9  // prune, vacuum, multi-insert
	RmgrHeap    RmgrID = 10 // insert, update, delete, lock
	RmgrBtree   RmgrID = 11 // btree indexes (storage/nbtree)
	// MaxRmgrID bounds the registry.
	MaxRmgrID = 255
)

// RmgrXLOG info values (xl_info), as PostgreSQL numbers them.
const (
	InfoCheckpointShutdown uint8 = 0x00 // XLOG_CHECKPOINT_SHUTDOWN
	InfoCheckpointOnline   uint8 = 0x10 // XLOG_CHECKPOINT_ONLINE
	InfoNoop               uint8 = 0x20 // XLOG_NOOP
	InfoFPI                uint8 = 0xB0 // XLOG_FPI: full-page images of new pages (log_newpage)
)

// Record layout constants (see the package comment for the drawing).
const (
	RecordHeaderSize = 24
	BlockHeaderSize  = 20
	MaxBlockRefs     = 32       // XLR_MAX_BLOCK_ID + 1
	MaxRecordSize    = 64 << 20 // larger records are refused (and read as corrupt)
)

// Block header flag bits (bkp_flags).
const (
	blkHasImage = 0x01 // BKPBLOCK_HAS_IMAGE
	blkHasHole  = 0x02 // BKPIMAGE_HAS_HOLE
	blkWillInit = 0x04 // BKPBLOCK_WILL_INIT
	blkHasData  = 0x08 // BKPBLOCK_HAS_DATA
	blkFlagMask = 0x0F
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// BlockRef is one page a record changes (XLogRegisterBuffer).
type BlockRef struct {
	Rel   buffer.RelFileNode
	Fork  buffer.Fork
	Block uint32
	// Page is the page after the change, with its pd_lsn not yet updated
	// (the caller holds the exclusive content lock). If non-nil, Insert
	// adds a full-page image when full_page_writes is on and the page's
	// pd_lsn <= the redo pointer — decided under the insert lock, so that a
	// checkpoint starting meanwhile cannot be missed (PostgreSQL's
	// XLogRecordAssemble/XLogInsertRecord recheck). Pass the page for every
	// change to an existing page; nil means "never an image".
	Page []byte
	// ForceImage logs an image whatever the page LSN (REGBUF_FORCE_IMAGE).
	ForceImage bool
	// WillInit: redo rebuilds the page from scratch (REGBUF_WILL_INIT), so
	// no image is needed.
	WillInit bool
	// Data is this block's payload for the redo function. It is left out
	// when the block is logged with a full-page image (redo restores the
	// page and applies nothing), as XLogRecordAssemble leaves out a
	// buffer's data when it takes a backup block.
	Data []byte
	// Dirtied: this change turned the page from clean to dirty. It is not
	// logged; it is counted in the relation's pages dirtied (RelStats).
	Dirtied bool
}

// Record is a log record to insert.
type Record struct {
	Rmgr     RmgrID
	Info     uint8
	Xid      uint32
	Blocks   []BlockRef
	MainData []byte
	// Rel, for a record without blocks that is about one relation (the
	// storage records: create, truncate, drop), names it for the
	// per-relation counters (RelStats). It is not logged.
	Rel buffer.RelFileNode
}

// DecodedBlock is a BlockRef as read back from the log.
type DecodedBlock struct {
	Rel      buffer.RelFileNode
	Fork     buffer.Fork
	Block    uint32
	WillInit bool
	HasImage bool
	HoleOff  int    // start of the hole left out of the image (pd_lower)
	HoleLen  int    // its length (pd_upper - pd_lower); 0 = no hole
	Image    []byte // BlockSize - HoleLen bytes (decompressed); nil without an image
	// Compressed: the image was stored compressed (wal_compression);
	// StoredLen is how many bytes it took in the record.
	Compressed bool
	StoredLen  int
	Method     string // the compression method's name when Compressed: pglz, lz4, zstd
	Data       []byte
}

// DecodedRecord is a record read from the log. Its slices point into a
// buffer the Reader reuses: copy what must outlive the next Next call.
type DecodedRecord struct {
	LSN      uint64 // where the record starts
	EndLSN   uint64 // where the next record starts; page LSNs are set to this
	Prev     uint64 // LSN of the previous record (xl_prev)
	Rmgr     RmgrID
	Info     uint8
	Xid      uint32
	TotalLen int
	Blocks   []DecodedBlock
	MainData []byte
	images   []byte // room for decompressed images, reused
}

// RestoreImage writes block i's full-page image into dst (BlockSize bytes),
// zero-filling the hole (RestoreBlockImage). It reports false if the block
// has no image.
func (r *DecodedRecord) RestoreImage(i int, dst []byte) bool {
	b := &r.Blocks[i]
	if !b.HasImage {
		return false
	}
	copy(dst[:b.HoleOff], b.Image[:b.HoleOff])
	clear(dst[b.HoleOff : b.HoleOff+b.HoleLen])
	copy(dst[b.HoleOff+b.HoleLen:page.BlockSize], b.Image[b.HoleOff:])
	return true
}

// pageHole returns the hole of a standard page that an image leaves out:
// [pd_lower, pd_upper) when PostgreSQL would (XLogRecordAssemble).
func pageHole(p []byte) (off, length int) {
	lower := int(binary.LittleEndian.Uint16(p[12:]))
	upper := int(binary.LittleEndian.Uint16(p[14:]))
	if lower >= page.HeaderSize && upper > lower && upper <= page.BlockSize {
		return lower, upper - lower
	}
	return 0, 0
}

// encodeScratch holds reusable buffers for encode: the record, and for
// compressed images the image without its hole and the compressed bytes.
type encodeScratch struct{ rec, raw, comp []byte }

// encode assembles rec (header fields that depend on the position — xl_prev
// and the CRC — are left for finish). needImage reports, per block, whether
// to log an image given the redo pointer; images are compressed with comp
// when that makes them smaller. It returns the record bytes (in sc.rec),
// the CRC of everything after the header, and the number of images.
func encode(rec *Record, needImage func(b *BlockRef) bool, comp Compression, sc *encodeScratch) ([]byte, uint32, int, error) {
	if len(rec.Blocks) > MaxBlockRefs {
		return nil, 0, 0, pgerr.FromSentinel(ErrRecordTooBig, nil, "too many block references in WAL record: %d", len(rec.Blocks))
	}
	type img struct {
		hoff, hlen   int
		cstart, clen int // the compressed image in sc.comp; clen 0 = stored as is
	}
	var imgs [MaxBlockRefs]img
	sc.comp = sc.comp[:0]
	var has [MaxBlockRefs]bool
	total := RecordHeaderSize + len(rec.Blocks)*BlockHeaderSize + len(rec.MainData)
	nimg := 0
	for i := range rec.Blocks {
		b := &rec.Blocks[i]
		if b.Page != nil && len(b.Page) != page.BlockSize {
			return nil, 0, 0, pgerr.FromSentinel(ErrRecordTooBig, nil, "page of %d bytes in WAL record", len(b.Page))
		}
		if b.Page != nil && needImage(b) {
			has[i] = true
			im := &imgs[i]
			im.hoff, im.hlen = pageHole(b.Page)
			n := page.BlockSize - im.hlen
			if comp != CompressionNone {
				sc.raw = append(append(sc.raw[:0], b.Page[:im.hoff]...), b.Page[im.hoff+im.hlen:]...)
				start := len(sc.comp)
				var ok bool
				if sc.comp, ok = compressImage(comp, sc.raw, sc.comp); ok {
					im.cstart, im.clen = start, len(sc.comp)-start
					n = im.clen
				}
			}
			total += n
			nimg++
			continue // the image replaces the data
		}
		total += len(b.Data)
	}
	if total > MaxRecordSize {
		return nil, 0, 0, pgerr.FromSentinel(ErrRecordTooBig, nil, "WAL record would be %d bytes (maximum %d)", total, MaxRecordSize)
	}
	buf := sc.rec
	if cap(buf) < total {
		buf = make([]byte, total)
	}
	buf = buf[:total]
	sc.rec = buf
	le := binary.LittleEndian
	le.PutUint32(buf[0:], uint32(total))
	le.PutUint32(buf[4:], rec.Xid)
	le.PutUint64(buf[8:], 0) // xl_prev: set by finish
	buf[16] = rec.Info
	buf[17] = byte(rec.Rmgr)
	buf[18] = byte(len(rec.Blocks))
	buf[19] = 0
	le.PutUint32(buf[20:], 0) // xl_crc: set by finish
	pos := RecordHeaderSize
	for i := range rec.Blocks {
		b := &rec.Blocks[i]
		h := buf[pos : pos+BlockHeaderSize]
		le.PutUint32(h[0:], uint32(b.Rel))
		le.PutUint32(h[4:], b.Block)
		h[8] = byte(b.Fork)
		var flags byte
		if has[i] {
			flags |= blkHasImage
			if imgs[i].hlen > 0 {
				flags |= blkHasHole
			}
			if imgs[i].clen > 0 {
				flags |= comp.flag()
			}
		}
		if b.WillInit {
			flags |= blkWillInit
		}
		dlen := len(b.Data)
		if has[i] {
			dlen = 0
		}
		if dlen > 0 {
			flags |= blkHasData
		}
		h[9] = flags
		le.PutUint16(h[10:], uint16(imgs[i].hoff))
		le.PutUint16(h[12:], uint16(imgs[i].hlen))
		le.PutUint16(h[14:], uint16(imgs[i].clen)) // bimg_len: 0 unless compressed
		le.PutUint32(h[16:], uint32(dlen))
		pos += BlockHeaderSize
	}
	for i := range rec.Blocks {
		b := &rec.Blocks[i]
		if has[i] && imgs[i].clen > 0 {
			pos += copy(buf[pos:], sc.comp[imgs[i].cstart:imgs[i].cstart+imgs[i].clen])
			continue
		}
		if has[i] {
			pos += copy(buf[pos:], b.Page[:imgs[i].hoff])
			pos += copy(buf[pos:], b.Page[imgs[i].hoff+imgs[i].hlen:])
			continue
		}
		pos += copy(buf[pos:], b.Data)
	}
	copy(buf[pos:], rec.MainData)
	return buf, crc32.Update(0, castagnoli, buf[RecordHeaderSize:]), nimg, nil
}

// finish sets xl_prev and xl_crc once the record's LSN is known. The CRC
// covers the body, then header bytes 0..19, then the record's own LSN, so a
// stale record left in a recycled segment never passes at another position.
func finish(buf []byte, bodyCRC uint32, lsn, prev uint64) {
	binary.LittleEndian.PutUint64(buf[8:], prev)
	binary.LittleEndian.PutUint32(buf[20:], headerCRC(buf, bodyCRC, lsn))
}

func headerCRC(buf []byte, bodyCRC uint32, lsn uint64) uint32 {
	var l [8]byte
	binary.LittleEndian.PutUint64(l[:], lsn)
	c := crc32.Update(bodyCRC, castagnoli, buf[:20])
	return crc32.Update(c, castagnoli, l[:])
}

// decode parses and checks a whole record read at lsn into r (reusing
// r.Blocks). It returns "" or a description of what is wrong.
func decode(buf []byte, lsn uint64, r *DecodedRecord) string {
	le := binary.LittleEndian
	if len(buf) < RecordHeaderSize {
		return "record too short"
	}
	total := int(le.Uint32(buf[0:]))
	if total != len(buf) {
		return "record length mismatch"
	}
	want := le.Uint32(buf[20:])
	if got := headerCRC(buf, crc32.Update(0, castagnoli, buf[RecordHeaderSize:]), lsn); got != want {
		return "incorrect resource manager data checksum"
	}
	images := r.images
	*r = DecodedRecord{
		LSN: lsn, EndLSN: lsn + uint64(total), Prev: le.Uint64(buf[8:]),
		Info: buf[16], Rmgr: RmgrID(buf[17]), Xid: le.Uint32(buf[4:]), TotalLen: total,
		Blocks: r.Blocks[:0], images: images[:0],
	}
	nblk := int(buf[18])
	if nblk > MaxBlockRefs || buf[19] != 0 {
		return "invalid block count"
	}
	pos := RecordHeaderSize
	if pos+nblk*BlockHeaderSize > total {
		return "block headers beyond end of record"
	}
	var dlens, clens [MaxBlockRefs]int
	var cflags [MaxBlockRefs]byte
	for i := 0; i < nblk; i++ {
		h := buf[pos : pos+BlockHeaderSize]
		flags := h[9]
		b := DecodedBlock{
			Rel: buffer.RelFileNode(le.Uint32(h[0:])), Block: le.Uint32(h[4:]), Fork: buffer.Fork(h[8]),
			WillInit: flags&blkWillInit != 0, HasImage: flags&blkHasImage != 0,
			HoleOff: int(le.Uint16(h[10:])), HoleLen: int(le.Uint16(h[12:])),
		}
		dlens[i] = int(le.Uint32(h[16:]))
		clens[i] = int(le.Uint16(h[14:]))
		cflags[i] = flags & blkCompressMask
		b.Compressed = cflags[i] != 0
		switch cflags[i] {
		case blkCompressPGLZ:
			b.Method = "pglz"
		case blkCompressLZ4:
			b.Method = "lz4"
		case blkCompressZstd:
			b.Method = "zstd"
		}
		switch {
		case flags&^(blkFlagMask|blkCompressMask) != 0 || b.Fork > buffer.FSMFork:
			return "invalid block header"
		case cflags[i] != 0 && (!b.HasImage || clens[i] == 0 || cflags[i]&(cflags[i]-1) != 0),
			cflags[i] == 0 && clens[i] != 0:
			return "invalid block image compression flags"
		case (flags&blkHasHole != 0) != (b.HoleLen > 0) || (!b.HasImage && (b.HoleLen != 0 || b.HoleOff != 0)):
			return "invalid block image flags"
		case b.HoleOff+b.HoleLen > page.BlockSize:
			return "invalid block image hole"
		case (flags&blkHasData != 0) != (dlens[i] > 0):
			return "invalid block data length"
		}
		r.Blocks = append(r.Blocks, b)
		pos += BlockHeaderSize
	}
	for i := range r.Blocks {
		b := &r.Blocks[i]
		switch {
		case b.HasImage && b.Compressed:
			n := clens[i]
			if pos+n > total {
				return "block image beyond end of record"
			}
			b.StoredLen = n
			// Decompressed into the record's own buffer: the slices of
			// earlier blocks must stay valid, so reserve each block's room.
			want := page.BlockSize - b.HoleLen
			if r.images == nil {
				r.images = make([]byte, 0, MaxBlockRefs*page.BlockSize) // room for every block's image
			}
			dst := r.images[len(r.images) : len(r.images)+want : len(r.images)+want]
			if err := decompressImage(cflags[i], buf[pos:pos+n], dst); err != nil {
				return fmt.Sprintf("could not decompress image of block %d: %v", i, err)
			}
			r.images = r.images[:len(r.images)+want]
			b.Image = dst
			pos += n
		case b.HasImage:
			n := page.BlockSize - b.HoleLen
			if pos+n > total {
				return "block image beyond end of record"
			}
			b.StoredLen = n
			b.Image = buf[pos : pos+n : pos+n]
			pos += n
		}
		if dlens[i] > total-pos {
			return "block data beyond end of record"
		}
		b.Data = buf[pos : pos+dlens[i] : pos+dlens[i]]
		pos += dlens[i]
	}
	r.MainData = buf[pos:total:total]
	return ""
}
