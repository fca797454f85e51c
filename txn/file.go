package txn

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"

	"minipg/internal/durable"
	"minipg/pgerr"
)

// Files in the transaction state directory.
//
// pg_xact, written by Save (checkpoint, clean shutdown), replaced atomically
// (write pg_xact.tmp, fsync, rename, fsync the directory):
//
//	0        8          12         16        20        24
//	+--------+----------+----------+---------+---------+----------------+
//	| magic  | next xid | n: bytes | crc32c  | 0       | clog, n bytes  |
//	| "mpgxact1" (u32 LE)| (u32 LE) | (u32 LE)|         | 2 bits per xid |
//	+--------+----------+----------+---------+---------+----------------+
//
// The CRC (Castagnoli) covers bytes 0..16 and the clog bytes. Clog byte i
// holds xids 4i..4i+3, xid x in bits 2*(x%4) and 2*(x%4)+1: 00 not recorded
// (in progress, or aborted by a crash), 01 committed, 10 aborted, as
// PostgreSQL's pg_xact.
//
// pg_xact_limit, rewritten the same way whenever xid assignment reaches it,
// so that an xid is never handed out twice even if the server crashes before
// the next Save and nothing else (WAL) remembers it:
//
//	0          8              12        16
//	+----------+--------------+---------+
//	| "mpgxlim1" | xid limit  | crc32c  |
//	+----------+--------------+---------+
//
// Every xid below the limit may have been used; Open starts at the limit.
const (
	clogFile  = "pg_xact"
	limitFile = "pg_xact_limit"

	clogMagic  = "mpgxact1"
	limitMagic = "mpgxlim1"

	clogHeaderSize = 24
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// writeFileAtomic replaces dir/name with data durably.
func writeFileAtomic(dir, name string, data []byte) error {
	if err := durable.WriteFile(filepath.Join(dir, name), data); err != nil {
		return ioError(err, "could not write file %q", filepath.Join(dir, name))
	}
	return nil
}

// syncDir fsyncs directory dir, making the entries created or renamed in
// it durable.
func syncDir(dir string) error {
	if err := durable.SyncDir(dir); err != nil {
		return ioError(err, "could not fsync directory %q", dir)
	}
	return nil
}

func ioError(err error, format string, args ...any) error {
	return pgerr.Wrapf(err, pgerr.IOError, format, args...)
}

func encodeClog(next uint32, log []byte) []byte {
	buf := make([]byte, clogHeaderSize+len(log))
	copy(buf, clogMagic)
	binary.LittleEndian.PutUint32(buf[8:], next)
	binary.LittleEndian.PutUint32(buf[12:], uint32(len(log)))
	copy(buf[clogHeaderSize:], log)
	crc := crc32.Update(crc32.Checksum(buf[:16], castagnoli), castagnoli, log)
	binary.LittleEndian.PutUint32(buf[16:], crc)
	return buf
}

func decodeClog(buf []byte) (next uint32, log []byte, err error) {
	if len(buf) < clogHeaderSize || string(buf[:8]) != clogMagic {
		return 0, nil, errCorrupt(clogFile)
	}
	next = binary.LittleEndian.Uint32(buf[8:])
	n := binary.LittleEndian.Uint32(buf[12:])
	if uint64(len(buf)-clogHeaderSize) != uint64(n) {
		return 0, nil, errCorrupt(clogFile)
	}
	log = buf[clogHeaderSize:]
	crc := crc32.Update(crc32.Checksum(buf[:16], castagnoli), castagnoli, log)
	if crc != binary.LittleEndian.Uint32(buf[16:]) || uint64(n)*xidsPerByte < uint64(next) {
		return 0, nil, errCorrupt(clogFile)
	}
	return next, log, nil
}

func encodeLimit(limit uint32) []byte {
	buf := make([]byte, 16)
	copy(buf, limitMagic)
	binary.LittleEndian.PutUint32(buf[8:], limit)
	binary.LittleEndian.PutUint32(buf[12:], crc32.Checksum(buf[:12], castagnoli))
	return buf
}

func decodeLimit(buf []byte) (uint32, error) {
	if len(buf) != 16 || string(buf[:8]) != limitMagic ||
		crc32.Checksum(buf[:12], castagnoli) != binary.LittleEndian.Uint32(buf[12:]) {
		return 0, errCorrupt(limitFile)
	}
	return binary.LittleEndian.Uint32(buf[8:]), nil
}

// ensureDir creates dir if needed and makes its directory entry durable.
func ensureDir(dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return ioError(err, "could not create directory %q", dir)
	}
	return syncDir(filepath.Dir(filepath.Clean(dir)))
}

// readFile returns the contents of dir/name, or nil if it does not exist.
func readFile(dir, name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, ioError(err, "could not read file %q", filepath.Join(dir, name))
	}
	return b, nil
}
