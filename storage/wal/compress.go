package wal

import (
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"

	"minipg/pgerr"
)

// Compression of full-page images (wal_compression, PostgreSQL 15's
// XLogCompressBackupBlock and RestoreBlockImage). An image is compressed
// after its hole is left out and stored compressed only when that is
// smaller; the block header's flags then say which method was used
// (BKPIMAGE_COMPRESS_*) and its bimg_len field how many bytes follow.
// Recovery reads every form whatever the current setting.
//
// pglz: PostgreSQL always has its own pglz. minipg does not implement it:
// wal_compression = pglz (or on, true, yes, 1) is accepted and shown as
// pglz, as PostgreSQL shows it, but images are compressed with lz4 and
// flagged as lz4, so the log always says truthfully how an image is stored.
// An image flagged pglz (written by nothing minipg has) is reported as
// corrupt by the reader.

// Compression is a wal_compression method.
type Compression uint8

const (
	CompressionNone Compression = iota // off
	CompressionPGLZ                    // pglz / on: written as lz4 (see above)
	CompressionLZ4                     // lz4
	CompressionZstd                    // zstd
)

// String returns the method as SHOW wal_compression prints it.
func (c Compression) String() string {
	switch c {
	case CompressionPGLZ:
		return "pglz"
	case CompressionLZ4:
		return "lz4"
	case CompressionZstd:
		return "zstd"
	}
	return "off"
}

// ParseCompression parses a wal_compression value as PostgreSQL's enum
// does (case-insensitive; on, true, yes and 1 mean pglz; off, false, no
// and 0 mean off). ok is false for anything else.
func ParseCompression(v string) (c Compression, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "pglz", "on", "true", "yes", "1":
		return CompressionPGLZ, true
	case "lz4":
		return CompressionLZ4, true
	case "zstd":
		return CompressionZstd, true
	case "off", "false", "no", "0":
		return CompressionNone, true
	}
	return CompressionNone, false
}

// bimg_info bits of a compressed image (BKPIMAGE_COMPRESS_PGLZ, _LZ4,
// _ZSTD).
const (
	blkCompressPGLZ = 0x04
	blkCompressLZ4  = 0x08
	blkCompressZstd = 0x10
	blkCompressMask = blkCompressPGLZ | blkCompressLZ4 | blkCompressZstd
)

// written is the method images are actually written with.
func (c Compression) written() Compression {
	if c == CompressionPGLZ {
		return CompressionLZ4
	}
	return c
}

func (c Compression) flag() byte {
	switch c.written() {
	case CompressionLZ4:
		return blkCompressLZ4
	case CompressionZstd:
		return blkCompressZstd
	}
	return 0
}

var lz4Compressors = sync.Pool{New: func() any { return new(lz4.Compressor) }}

var zstdCodec struct {
	once sync.Once
	enc  *zstd.Encoder
	dec  *zstd.Decoder
	err  error
}

// zstdInit creates the shared encoder and decoder (both safe for
// concurrent EncodeAll/DecodeAll). Level 3 is ZSTD_CLEVEL_DEFAULT, what
// PostgreSQL uses; no checksum (the record's CRC covers the bytes).
func zstdInit() error {
	zstdCodec.once.Do(func() {
		zstdCodec.enc, zstdCodec.err = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault),
			zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true))
		if zstdCodec.err == nil {
			zstdCodec.dec, zstdCodec.err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0),
				zstd.WithDecoderMaxMemory(1<<20))
		}
	})
	return zstdCodec.err
}

// compressImage appends the compressed form of img to dst with method c and
// returns it and whether it is worth storing (smaller than img). On false
// the image is stored as is.
func compressImage(c Compression, img, dst []byte) ([]byte, bool) {
	start := len(dst)
	switch c.written() {
	case CompressionLZ4:
		need := lz4.CompressBlockBound(len(img))
		dst = growBytes(dst, need)
		comp := lz4Compressors.Get().(*lz4.Compressor)
		n, err := comp.CompressBlock(img, dst[start:start+need])
		lz4Compressors.Put(comp)
		if err != nil || n == 0 || n >= len(img) {
			return dst[:start], false
		}
		return dst[:start+n], true
	case CompressionZstd:
		if zstdInit() != nil {
			return dst, false
		}
		dst = zstdCodec.enc.EncodeAll(img, dst)
		if len(dst)-start >= len(img) {
			return dst[:start], false
		}
		return dst, true
	}
	return dst, false
}

// decompressImage decompresses src, flagged with flags, into dst, which has
// exactly the length the image must have.
func decompressImage(flags byte, src, dst []byte) error {
	switch flags & blkCompressMask {
	case blkCompressLZ4:
		n, err := lz4.UncompressBlock(src, dst)
		if err != nil {
			return err
		}
		if n != len(dst) {
			return pgerr.FromSentinel(ErrCorrupt, nil, "image decompressed to %d bytes, want %d", n, len(dst))
		}
		return nil
	case blkCompressZstd:
		if err := zstdInit(); err != nil {
			return err
		}
		out, err := zstdCodec.dec.DecodeAll(src, dst[:0])
		if err != nil {
			return err
		}
		if len(out) != len(dst) || &out[0] != &dst[0] {
			return pgerr.FromSentinel(ErrCorrupt, nil, "image decompressed to %d bytes, want %d", len(out), len(dst))
		}
		return nil
	case blkCompressPGLZ:
		return pgerr.FromSentinel(ErrCorrupt, nil, "image compressed with pglz, which minipg does not read")
	}
	return pgerr.FromSentinel(ErrCorrupt, nil, "invalid compression flags %#x", flags&blkCompressMask)
}

// growBytes returns b with room for n more bytes past len(b) (len unchanged).
func growBytes(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	nb := make([]byte, len(b), len(b)+n+len(b))
	copy(nb, b)
	return nb
}
