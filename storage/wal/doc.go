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
// Little-endian throughout.
//
//	0          4          8                     16      17      18        19    20         24
//	+----------+----------+---------------------+-------+-------+---------+-----+----------+
//	| tot_len  | xid      | prev                | info  | rmid  | nblocks | 0   | crc      |
//	| u32      | u32      | u64 (LSN of the     | u8    | u8    | u8      | u8  | u32      |
//	|          |          | previous record)    |       |       |         |     |          |
//	+----------+----------+---------------------+-------+-------+---------+-----+----------+
//	| nblocks block headers, 20 bytes each                                                 |
//	+--------------------------------------------------------------------------------------+
//	| for each block in order: image (BlockSize - hole_len bytes, or bimg_len if            |
//	| compressed), or data_len bytes of data                                               |
//	+--------------------------------------------------------------------------------------+
//	| main data (the rest, up to tot_len)                                                  |
//	+--------------------------------------------------------------------------------------+
//
// tot_len counts the whole record, header included. crc is CRC-32C
// (Castagnoli) computed over the bytes after the header, then header bytes
// 0..19, then the record's own LSN as 8 bytes: a record is valid only at
// the position it was written to, so stale bytes of a recycled segment never
// pass. The end LSN of a record (its LSN + tot_len) is what Insert returns
// and what pages carry in pd_lsn.
//
// Block header (XLogRecordBlockHeader + XLogRecordBlockImageHeader):
//
//	0            4            8      9       10          12          14         16           20
//	+------------+------------+------+-------+-----------+-----------+----------+------------+
//	| relfilenode| block      | fork | flags | hole_off  | hole_len  | bimg_len | data_len   |
//	| u32        | u32        | u8   | u8    | u16       | u16       | u16      | u32        |
//	+------------+------------+------+-------+-----------+-----------+----------+------------+
//
//	flags: 0x01 HAS_IMAGE   a full-page image follows
//	       0x02 HAS_HOLE    the image leaves out [hole_off, hole_off+hole_len)
//	                        = [pd_lower, pd_upper) of a standard page; restored as zeroes
//	       0x04 WILL_INIT   redo rebuilds the page; no image needed
//	       0x08 HAS_DATA    data_len > 0 bytes of block data follow (never with an image:
//	                        the image replaces the data, as in PostgreSQL)
//	       0x10 COMPRESS_PGLZ  the image is compressed (BKPIMAGE_COMPRESS_*,
//	       0x20 COMPRESS_LZ4   wal_compression); at most one of them, only with
//	       0x40 COMPRESS_ZSTD  HAS_IMAGE. minipg writes LZ4 (also for pglz) and
//	                           ZSTD; a PGLZ image is read as corrupt
//
//	bimg_len: 0 for an uncompressed image (it is BlockSize - hole_len bytes);
//	          for a compressed one, the bytes stored. The image is compressed
//	          after the hole is left out, decompresses to BlockSize - hole_len
//	          bytes, and is stored compressed only when that is smaller.
//
// A checkpoint record (RmgrXLOG, InfoCheckpointOnline/Shutdown) has main
// data: redo LSN u64, time (unix nanoseconds) i64, then the caller's Extra.
// The control file is drawn on ControlData.
package wal
