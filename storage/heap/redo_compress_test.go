package heap

import (
	"math/rand/v2"
	"testing"

	"minipg/storage/wal"
)

// TestRedoCompressedImages: the crash-and-recover workload under every
// wal_compression setting. Recovery (which runs with compression off)
// restores the compressed images; the same workload writes the same
// images under each setting, and fewer WAL bytes when they are compressed.
func TestRedoCompressedImages(t *testing.T) {
	bytesOff := int64(-1)
	for _, c := range []wal.Compression{wal.CompressionNone, wal.CompressionLZ4, wal.CompressionZstd, wal.CompressionPGLZ} {
		t.Run(c.String(), func(t *testing.T) {
			e := openWALEnv(t, t.TempDir(), true)
			e.log.SetCompression(c)
			rng := rand.New(rand.NewPCG(5, 42))
			e.workload(t, rng, 3)
			e.checkpoint(t)
			before := e.log.Stats()
			e.workload(t, rng, 3)
			want := e.pages(t)
			st := e.log.Stats()
			fpi, walBytes := st.FPI-before.FPI, st.Bytes-before.Bytes
			if fpi == 0 {
				t.Fatal("no full-page images after the checkpoint")
			}
			compressed := e.countCompressedImages(t)
			switch {
			case c == wal.CompressionNone && compressed != 0:
				t.Fatalf("%d compressed images with wal_compression = off", compressed)
			case c != wal.CompressionNone && compressed == 0:
				t.Fatalf("no compressed image with wal_compression = %s (%d images)", c, fpi)
			}
			if c == wal.CompressionNone {
				bytesOff = walBytes
			} else if bytesOff >= 0 && walBytes >= bytesOff {
				t.Fatalf("wal_bytes %d with %s, %d with off", walBytes, c, bytesOff)
			}
			t.Logf("%s: %d images (%d compressed), %d WAL bytes after the checkpoint", c, fpi, compressed, walBytes)
			r := e.crashAndRecover(t, true, nil)
			comparePages(t, want, r.pages(t))
			mustCheckPages(t, r.rel)
		})
	}
}

// countCompressedImages reads the whole WAL and counts the images stored
// compressed.
func (e *walEnv) countCompressedImages(t *testing.T) int {
	t.Helper()
	if err := e.log.FlushAll(); err != nil {
		t.Fatal(err)
	}
	rd := e.log.NewReader(uint64(e.log.SegmentSize()))
	defer rd.Close()
	n := 0
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		for _, b := range rec.Blocks {
			if b.Compressed {
				n++
			}
		}
	}
	return n
}
