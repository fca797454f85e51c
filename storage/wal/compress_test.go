package wal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"minipg/storage/page"
)

var allCompressions = []Compression{CompressionNone, CompressionPGLZ, CompressionLZ4, CompressionZstd}

func TestParseCompression(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Compression
		ok   bool
	}{
		{"off", CompressionNone, true}, {"OFF", CompressionNone, true}, {"false", CompressionNone, true},
		{"0", CompressionNone, true}, {"no", CompressionNone, true},
		{"on", CompressionPGLZ, true}, {"pglz", CompressionPGLZ, true}, {"true", CompressionPGLZ, true},
		{"yes", CompressionPGLZ, true}, {"1", CompressionPGLZ, true},
		{"lz4", CompressionLZ4, true}, {"LZ4", CompressionLZ4, true}, {"zstd", CompressionZstd, true},
		{"bogus", CompressionNone, false}, {"", CompressionNone, false}, {"gzip", CompressionNone, false},
	} {
		got, ok := ParseCompression(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseCompression(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// randomPage is a page with a hole whose contents do not compress.
func randomPage(seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 1))
	p := make([]byte, page.BlockSize)
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
	binary.LittleEndian.PutUint16(p[12:], 100)
	binary.LittleEndian.PutUint16(p[14:], 200)
	clear(p[100:200])
	return p
}

// TestCompressedImages logs records with one and two images under every
// setting, reads them back (through a reopen, the path recovery takes) and
// checks the block flags, the stored sizes, the restored pages and that
// wal_bytes counts what was written.
func TestCompressedImages(t *testing.T) {
	for _, c := range allCompressions {
		t.Run(c.String(), func(t *testing.T) {
			dir := t.TempDir()
			o := testOptions(nil)
			o.Compression = c
			l := openTest(t, dir, o)
			pages := [][]byte{
				testPage(400, 6000, 3),                       // compresses well
				testPage(4000, 4000, 5),                      // no hole, still regular
				randomPage(7),                                // incompressible
				make([]byte, page.BlockSize),                 // zeroes
				testPage(page.HeaderSize, page.BlockSize, 9), // all hole
			}
			type logged struct {
				start, end uint64
				pages      [][]byte
			}
			var recs []logged
			before := l.Stats()
			var total int64
			for i, p := range pages {
				blocks := []BlockRef{{Rel: 1, Block: uint32(i), Page: bytes.Clone(p), ForceImage: true}}
				ps := [][]byte{p}
				if i%2 == 0 { // two images in one record
					q := pages[(i+1)%len(pages)]
					blocks = append(blocks, BlockRef{Rel: 2, Block: uint32(i), Page: bytes.Clone(q), ForceImage: true})
					ps = append(ps, q)
				}
				start, end, err := l.insert(&Record{Rmgr: RmgrHeap, Info: 0x10, Xid: 5, Blocks: blocks, MainData: []byte("m")})
				if err != nil {
					t.Fatal(err)
				}
				total += int64(end - start)
				recs = append(recs, logged{start, end, ps})
			}
			if got := l.Stats().Bytes - before.Bytes; got != total {
				t.Fatalf("wal_bytes +%d, records took %d", got, total)
			}
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			// Read back with a different setting: the reader needs none.
			o.Compression = CompressionNone
			l = openTest(t, dir, o)
			defer l.Close()
			for _, r := range recs {
				rd := l.NewReader(r.start)
				got, err := rd.Next()
				rd.Close()
				if err != nil {
					t.Fatal(err)
				}
				if got.EndLSN != r.end || len(got.Blocks) != len(r.pages) {
					t.Fatalf("record at %s: end %s, %d blocks", FormatLSN(r.start), FormatLSN(got.EndLSN), len(got.Blocks))
				}
				stored := 0
				for i, want := range r.pages {
					b := got.Blocks[i]
					raw := page.BlockSize - b.HoleLen
					if !b.HasImage || len(b.Image) != raw {
						t.Fatalf("block %d: %+v", i, b)
					}
					switch {
					case c == CompressionNone && b.Compressed:
						t.Fatalf("block %d compressed with wal_compression = off", i)
					case b.Compressed && b.StoredLen >= raw:
						t.Fatalf("block %d stored compressed in %d bytes, raw %d", i, b.StoredLen, raw)
					case !b.Compressed && b.StoredLen != raw:
						t.Fatalf("block %d stored in %d bytes, raw %d", i, b.StoredLen, raw)
					}
					// Compressible images are compressed by every method.
					if c != CompressionNone && raw > 1000 && !bytes.Equal(want, randomPage(7)) && !b.Compressed {
						t.Fatalf("block %d (%d bytes) not compressed with %s", i, raw, c)
					}
					if bytes.Equal(want, randomPage(7)) && b.Compressed {
						t.Fatalf("random page stored compressed")
					}
					stored += b.StoredLen + BlockHeaderSize + BlockImageHeaderSize + RelFileNodeSize + BlockNumberSize
					if b.Compressed && b.HoleLen > 0 {
						stored += BlockCompressHeaderSize
					}
					dst := bytes.Repeat([]byte{0xEE}, page.BlockSize)
					if !got.RestoreImage(i, dst) || !bytes.Equal(dst, want) {
						for j := range dst {
							if dst[j] != want[j] {
								t.Fatalf("block %d: restored page differs at %d: %d, want %d (hole %d+%d)", i, j, dst[j], want[j], b.HoleOff, b.HoleLen)
							}
						}
					}
				}
				if want := RecordHeaderSize + stored + 2 + 1; got.TotalLen != want {
					t.Fatalf("record of %d bytes, header+block headers+images+main data = %d", got.TotalLen, want)
				}
			}
		})
	}
}

// TestCompressedImageFlags checks what the block header says for each
// method: BKPIMAGE_COMPRESS_LZ4 for lz4 and for pglz (written as lz4),
// _ZSTD for zstd, and bimg_len the stored length.
func TestCompressedImageFlags(t *testing.T) {
	for _, tc := range []struct {
		c    Compression
		flag byte
	}{{CompressionLZ4, blkCompressLZ4}, {CompressionPGLZ, blkCompressLZ4}, {CompressionZstd, blkCompressZstd}} {
		sc := &encodeScratch{}
		rec := &Record{Rmgr: RmgrHeap, Blocks: []BlockRef{{Rel: 1, Page: testPage(400, 6000, 3), ForceImage: true}}}
		buf, _, n, err := encode(rec, func(*BlockRef) bool { return true }, tc.c, sc)
		if err != nil || n != 1 {
			t.Fatal(err, n)
		}
		h := buf[RecordHeaderSize:]
		clen := int(binary.LittleEndian.Uint16(h[BlockHeaderSize:]))
		info := h[BlockHeaderSize+4]
		hdr := BlockHeaderSize + BlockImageHeaderSize + BlockCompressHeaderSize + RelFileNodeSize + BlockNumberSize
		if info&blkCompressMask != tc.flag || h[1]&blkHasImage == 0 || clen == 0 || RecordHeaderSize+hdr+clen != len(buf) {
			t.Fatalf("%s: bimg_info %#x, bimg_len %d, record %d bytes", tc.c, info, clen, len(buf))
		}
	}
}

func TestDecompressImageErrors(t *testing.T) {
	dst := make([]byte, 100)
	for _, tc := range []struct {
		flags byte
		src   []byte
	}{
		{blkCompressPGLZ, []byte{1, 2, 3}},
		{blkCompressLZ4, []byte{0xff, 0xff, 0xff}},
		{blkCompressZstd, []byte{0x28, 0xb5, 0x2f, 0xfd, 0, 0}},
	} {
		if err := decompressImage(tc.flags, tc.src, dst); err == nil {
			t.Errorf("flags %#x: no error", tc.flags)
		}
	}
	// A valid lz4 block of the wrong size is refused too.
	sc, ok := compressImage(CompressionLZ4, bytes.Repeat([]byte("abcd"), 100), nil)
	if !ok {
		t.Fatal("not compressed")
	}
	if err := decompressImage(blkCompressLZ4, sc, make([]byte, 399)); err == nil {
		t.Error("short lz4 image accepted")
	}
	if err := decompressImage(blkCompressLZ4, sc, make([]byte, 400)); err != nil {
		t.Error(err)
	}
	var pe interface{ Error() string }
	if err := decompressImage(blkCompressPGLZ, nil, dst); !errors.Is(err, ErrCorrupt) && !errors.As(err, &pe) {
		t.Error(err)
	}
}
