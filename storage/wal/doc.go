// Package wal is minipg's write-ahead log: PostgreSQL 15's xlog.c,
// xloginsert.c and xlogreader.c cut down to what a single-node heap needs.
// See README.md for the design; this comment draws the formats.
//
// # Addressing
//
// An LSN is a byte position in one endless stream; InvalidLSN is 0 and the
// first record of a new cluster starts at the first byte of segment 1. The
// stream is cut into segment files of SegmentSize bytes (16 MiB by default)
// in <datadir>/wal/, named as PostgreSQL names them:
//
//	000000010000000000000003  = timeline 1, LSN >> 32, (LSN mod 2^32) / SegmentSize
//
// Byte x of the stream is at offset x mod SegmentSize of segment
// x / SegmentSize. Records are packed back to back with no padding and no
// page headers, and a record may cross a segment boundary.
//
// # Record
//
// PostgreSQL 15's record format (xlogrecord.h), byte for byte, so that a
// record is as long as PostgreSQL's for the same change. Little-endian
// throughout.
//
//	0          4          8                     16      17      18      20         24
//	+----------+----------+---------------------+-------+-------+-------+----------+
//	| tot_len  | xid      | prev                | info  | rmid  | 0 0   | crc      |
//	| u32      | u32      | u64 (LSN of the     | u8    | u8    | pad   | u32      |
//	|          |          | previous record)    |       |       |       |          |
//	+----------+----------+---------------------+-------+-------+-------+----------+
//	| block headers, block ids 0, 1, ... (below)                                   |
//	+------------------------------------------------------------------------------+
//	| main data header, if there is main data: 255 len u8 (up to 255 bytes)        |
//	|                                       or 254 len u32                         |
//	+------------------------------------------------------------------------------+
//	| for each block in order: its image (length bytes), then data_length bytes    |
//	+------------------------------------------------------------------------------+
//	| main data                                                                    |
//	+------------------------------------------------------------------------------+
//
// tot_len counts the whole record, header included. crc is CRC-32C
// (Castagnoli) computed over the bytes after the header, then header bytes
// 0..19, then the record's own LSN as 8 bytes: a record is valid only at
// the position it was written to, so stale bytes of a recycled segment never
// pass. The end LSN of a record (its LSN + tot_len) is what Insert returns
// and what pages carry in pd_lsn.
//
// Block header (XLogRecordBlockHeader, then XLogRecordBlockImageHeader and
// XLogRecordBlockCompressHeader when there is an image, then RelFileNode
// unless SAME_REL, then the block number):
//
//	0      1            2             4
//	+------+------------+-------------+
//	| id   | fork_flags | data_length |
//	| u8   | u8         | u16         |
//	+------+------------+-------------+
//	with HAS_IMAGE:  length u16 | hole_offset u16 | bimg_info u8            (5 bytes)
//	  and, compressed with a hole: hole_length u16                          (2 bytes)
//	without SAME_REL: spcNode u32 = 1663 | dbNode u32 = 5 | relNode u32     (12 bytes)
//	block u32                                                               (4 bytes)
//
//	fork_flags: 0x0F the fork number (0 main, 1 fsm)
//	            0x10 HAS_IMAGE  a full-page image follows
//	            0x20 HAS_DATA   data_length > 0 bytes of block data follow (never with
//	                            an image: the image replaces the data, as in PostgreSQL)
//	            0x40 WILL_INIT  redo rebuilds the page; no image needed
//	            0x80 SAME_REL   the relation of the previous block; no RelFileNode
//	bimg_info:  0x01 HAS_HOLE   the image leaves out [hole_offset, hole_offset+hole_length)
//	                            = [pd_lower, pd_upper) of a standard page; restored as zeroes
//	            0x02 APPLY      redo restores the image (always set)
//	            0x04 COMPRESS_PGLZ  the image is compressed (wal_compression); at most
//	            0x08 COMPRESS_LZ4   one of them. minipg writes LZ4 (also for pglz) and
//	            0x10 COMPRESS_ZSTD  ZSTD; a PGLZ image is read as corrupt
//
//	length: the bytes of the image as stored: 8192 - hole_length uncompressed
//	        (hole_length is then implied), the compressed size otherwise. The
//	        image is compressed after the hole is left out, decompresses to
//	        BlockSize - hole_length bytes, and is stored compressed only when
//	        that is smaller.
//
// A checkpoint record (RmgrXLOG, InfoCheckpointOnline/Shutdown) has main
// data: redo LSN u64, time (unix nanoseconds) i64, full_page_writes u8 (1
// on), then the caller's Extra.
// The control file is drawn on ControlData.
package wal
