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

// Record layout constants (see the package comment for the drawing):
// PostgreSQL 15's XLogRecord and its block and main data headers.
const (
	RecordHeaderSize        = 24 // XLogRecord
	BlockHeaderSize         = 4  // XLogRecordBlockHeader: id, fork_flags, data_length
	BlockImageHeaderSize    = 5  // XLogRecordBlockImageHeader: length, hole_offset, bimg_info
	BlockCompressHeaderSize = 2  // XLogRecordBlockCompressHeader: hole_length
	RelFileNodeSize         = 12 // RelFileNode: spcNode, dbNode, relNode
	BlockNumberSize         = 4
	MaxBlockRefs            = 32       // XLR_MAX_BLOCK_ID + 1
	MaxRecordSize           = 64 << 20 // larger records are refused (and read as corrupt)
	MaxBlockDataSize        = 65535    // data_length is a u16

	// The tablespace and database every relation is in (pg_default and the
	// postgres database): minipg has one of each, and writes them into each
	// RelFileNode as PostgreSQL would.
	DefaultTablespaceOID = 1663
	DatabaseOID          = 5
)

// Block ids of the main data header (XLR_BLOCK_ID_DATA_SHORT, _LONG).
const (
	blockIDDataShort = 255 // u8 length follows
	blockIDDataLong  = 254 // u32 length follows
)

// fork_flags bits above the fork number (BKPBLOCK_*), and bimg_info bits.
const (
	blkForkMask  = 0x0F
	blkHasImage  = 0x10 // BKPBLOCK_HAS_IMAGE
	blkHasData   = 0x20 // BKPBLOCK_HAS_DATA
	blkWillInit  = 0x40 // BKPBLOCK_WILL_INIT
	blkSameRel   = 0x80 // BKPBLOCK_SAME_REL: no RelFileNode, the previous block's
	bimgHasHole  = 0x01 // BKPIMAGE_HAS_HOLE
	bimgApply    = 0x02 // BKPIMAGE_APPLY: redo restores the image
	bimgFlagMask = bimgHasHole | bimgApply
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
	// NotStandard: the page keeps data between pd_lower and pd_upper (a
	// visibility map page), so its image leaves no hole out (the buffer is
	// registered without REGBUF_STANDARD).
	NotStandard bool
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

// mainDataHeaderLen is the size of the header in front of n bytes of main
// data: none without main data, else the short or the long form.
func mainDataHeaderLen(n int) int {
	switch {
	case n == 0:
		return 0
	case n <= 255:
		return 2
	}
	return 5
}

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
	total := RecordHeaderSize + mainDataHeaderLen(len(rec.MainData)) + len(rec.MainData)
	nimg := 0
	for i := range rec.Blocks {
		b := &rec.Blocks[i]
		if b.Page != nil && len(b.Page) != page.BlockSize {
			return nil, 0, 0, pgerr.FromSentinel(ErrRecordTooBig, nil, "page of %d bytes in WAL record", len(b.Page))
		}
		total += BlockHeaderSize + BlockNumberSize
		if i == 0 || rec.Blocks[i-1].Rel != b.Rel {
			total += RelFileNodeSize
		}
		if b.Page != nil && needImage(b) {
			has[i] = true
			im := &imgs[i]
			if !b.NotStandard {
				im.hoff, im.hlen = pageHole(b.Page)
			}
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
			total += BlockImageHeaderSize + n
			if im.clen > 0 && im.hlen > 0 {
				total += BlockCompressHeaderSize
			}
			nimg++
			continue // the image replaces the data
		}
		if len(b.Data) > MaxBlockDataSize {
			return nil, 0, 0, pgerr.FromSentinel(ErrRecordTooBig, nil, "%d bytes of block data in WAL record (maximum %d)", len(b.Data), MaxBlockDataSize)
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
	buf[18], buf[19] = 0, 0   // padding
	le.PutUint32(buf[20:], 0) // xl_crc: set by finish
	pos := RecordHeaderSize
	for i := range rec.Blocks {
		b := &rec.Blocks[i]
		flags := byte(b.Fork) & blkForkMask
		dlen := len(b.Data)
		if has[i] {
			flags |= blkHasImage
			dlen = 0
		}
		if dlen > 0 {
			flags |= blkHasData
		}
		if b.WillInit {
			flags |= blkWillInit
		}
		sameRel := i > 0 && rec.Blocks[i-1].Rel == b.Rel
		if sameRel {
			flags |= blkSameRel
		}
		buf[pos] = byte(i)
		buf[pos+1] = flags
		le.PutUint16(buf[pos+2:], uint16(dlen))
		pos += BlockHeaderSize
		if has[i] {
			im := imgs[i]
			info := byte(bimgApply)
			length := page.BlockSize - im.hlen
			if im.hlen > 0 {
				info |= bimgHasHole
			}
			if im.clen > 0 {
				info |= comp.flag()
				length = im.clen
			}
			le.PutUint16(buf[pos:], uint16(length))
			le.PutUint16(buf[pos+2:], uint16(im.hoff))
			buf[pos+4] = info
			pos += BlockImageHeaderSize
			if im.clen > 0 && im.hlen > 0 {
				le.PutUint16(buf[pos:], uint16(im.hlen))
				pos += BlockCompressHeaderSize
			}
		}
		if !sameRel {
			le.PutUint32(buf[pos:], DefaultTablespaceOID)
			le.PutUint32(buf[pos+4:], DatabaseOID)
			le.PutUint32(buf[pos+8:], uint32(b.Rel))
			pos += RelFileNodeSize
		}
		le.PutUint32(buf[pos:], b.Block)
		pos += BlockNumberSize
	}
	switch n := len(rec.MainData); {
	case n == 0:
	case n <= 255:
		buf[pos], buf[pos+1] = blockIDDataShort, byte(n)
		pos += 2
	default:
		buf[pos] = blockIDDataLong
		le.PutUint32(buf[pos+1:], uint32(n))
		pos += 5
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
// r.Blocks), as DecodeXLogRecord does. It returns "" or a description of
// what is wrong.
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
	if buf[18] != 0 || buf[19] != 0 {
		return "invalid record header padding"
	}
	var dlens, clens [MaxBlockRefs]int
	var cflags [MaxBlockRefs]byte
	mainLen := 0
	pos := RecordHeaderSize
	need := func(n int) bool { return pos+n <= total }
	// The headers: block headers with ids 0, 1, ..., then the main data's;
	// what follows them is datatotal bytes of images and data.
	datatotal := 0
	for total-pos > datatotal {
		id := buf[pos]
		if id == blockIDDataShort || id == blockIDDataLong {
			if id == blockIDDataShort {
				if !need(2) {
					return "main data header beyond end of record"
				}
				mainLen = int(buf[pos+1])
				pos += 2
			} else {
				if !need(5) {
					return "main data header beyond end of record"
				}
				mainLen = int(le.Uint32(buf[pos+1:]))
				pos += 5
			}
			datatotal += mainLen
			break
		}
		i := len(r.Blocks)
		if int(id) != i || i >= MaxBlockRefs {
			return fmt.Sprintf("out-of-order block_id %d", id)
		}
		if !need(BlockHeaderSize) {
			return "block header beyond end of record"
		}
		flags := buf[pos+1]
		dlens[i] = int(le.Uint16(buf[pos+2:]))
		pos += BlockHeaderSize
		b := DecodedBlock{Fork: buffer.Fork(flags & blkForkMask), WillInit: flags&blkWillInit != 0,
			HasImage: flags&blkHasImage != 0}
		if b.Fork > buffer.VMFork {
			return "invalid block header"
		}
		if (flags&blkHasData != 0) != (dlens[i] > 0) {
			return "invalid block data length"
		}
		datatotal += dlens[i]
		if b.HasImage {
			if !need(BlockImageHeaderSize) {
				return "block header beyond end of record"
			}
			length := int(le.Uint16(buf[pos:]))
			b.HoleOff = int(le.Uint16(buf[pos+2:]))
			info := buf[pos+4]
			pos += BlockImageHeaderSize
			cflags[i] = info & blkCompressMask
			b.Compressed = cflags[i] != 0
			switch {
			case info&^(bimgFlagMask|blkCompressMask) != 0, cflags[i]&(cflags[i]-1) != 0:
				return "invalid block image compression flags"
			case b.Compressed && info&bimgHasHole != 0:
				if !need(BlockCompressHeaderSize) {
					return "block header beyond end of record"
				}
				b.HoleLen = int(le.Uint16(buf[pos:]))
				pos += BlockCompressHeaderSize
			case !b.Compressed:
				b.HoleLen = page.BlockSize - length
			}
			if b.Compressed {
				clens[i] = length
			}
			datatotal += length
			switch {
			case (info&bimgHasHole != 0) != (b.HoleLen > 0) || (b.HoleLen == 0 && b.HoleOff != 0):
				return "invalid block image flags"
			case b.HoleLen < 0 || b.HoleOff+b.HoleLen > page.BlockSize:
				return "invalid block image hole"
			case b.Compressed && length == 0:
				return "invalid block image compression flags"
			}
			switch cflags[i] {
			case blkCompressPGLZ:
				b.Method = "pglz"
			case blkCompressLZ4:
				b.Method = "lz4"
			case blkCompressZstd:
				b.Method = "zstd"
			}
		}
		if flags&blkSameRel != 0 {
			if i == 0 {
				return "BKPBLOCK_SAME_REL set but no previous rel"
			}
			b.Rel = r.Blocks[i-1].Rel
		} else {
			if !need(RelFileNodeSize) {
				return "block header beyond end of record"
			}
			b.Rel = buffer.RelFileNode(le.Uint32(buf[pos+8:]))
			pos += RelFileNodeSize
		}
		if !need(BlockNumberSize) {
			return "block header beyond end of record"
		}
		b.Block = le.Uint32(buf[pos:])
		pos += BlockNumberSize
		r.Blocks = append(r.Blocks, b)
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
	if pos+mainLen != total {
		return "main data length mismatch"
	}
	r.MainData = buf[pos:total:total]
	return ""
}
