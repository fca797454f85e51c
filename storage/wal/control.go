package wal

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io/fs"
	"os"

	"minipg/internal/durable"
	"minipg/pgerr"
)

// DBState is the cluster state recorded in the control file.
type DBState uint32

// States (a subset of PostgreSQL's DBState).
const (
	StateShutdown     DBState = 1 // DB_SHUTDOWNED: the last checkpoint was a shutdown checkpoint
	StateInProduction DBState = 2 // DB_IN_PRODUCTION: running, or crashed
)

func (s DBState) String() string {
	switch s {
	case StateShutdown:
		return "shut down"
	case StateInProduction:
		return "in production"
	}
	return "unknown"
}

// ControlData is the content of <datadir>/global/pg_control.
//
//	0        4         8       12         16                 24           32          40      44          64
//	+--------+---------+-------+----------+------------------+------------+-----------+-------+-----------+
//	| magic  | version | state | seg size | checkpoint LSN   | redo LSN   | time      | crc   | zero pad  |
//	| "MPGC" | u32 = 2 | u32   | u32      | u64              | u64        | i64 unix s| u32   |           |
//	+--------+---------+-------+----------+------------------+------------+-----------+-------+-----------+
//
// All little-endian; crc is CRC-32C of bytes 0..39. The file is replaced
// atomically: written to pg_control.tmp, fsynced, renamed, directory fsynced.
type ControlData struct {
	State       DBState
	SegmentSize int64
	Checkpoint  uint64 // LSN of the last checkpoint record
	Redo        uint64 // its redo pointer: replay starts here
	Time        int64  // when it was written (unix seconds)
}

const (
	controlMagic = 0x4347504D // "MPGC"
	// controlVersion 2: records in PostgreSQL 15's layout (block headers of
	// 4 to 27 bytes, a main data header) and heap main data as heapam_xlog.h
	// defines it. A data directory of version 1 is refused.
	controlVersion = 2
	controlSize    = 64
	controlName    = "pg_control"
)

func (c *ControlData) marshal() []byte {
	b := make([]byte, controlSize)
	le := binary.LittleEndian
	le.PutUint32(b[0:], controlMagic)
	le.PutUint32(b[4:], controlVersion)
	le.PutUint32(b[8:], uint32(c.State))
	le.PutUint32(b[12:], uint32(c.SegmentSize))
	le.PutUint64(b[16:], c.Checkpoint)
	le.PutUint64(b[24:], c.Redo)
	le.PutUint64(b[32:], uint64(c.Time))
	le.PutUint32(b[40:], crc32.Checksum(b[:40], castagnoli))
	return b
}

func unmarshalControl(b []byte, path string) (*ControlData, error) {
	le := binary.LittleEndian
	if len(b) != controlSize || le.Uint32(b[0:]) != controlMagic {
		return nil, pgerr.FromSentinel(ErrCorrupt, nil, "invalid control file %q", path)
	}
	if le.Uint32(b[40:]) != crc32.Checksum(b[:40], castagnoli) {
		return nil, pgerr.FromSentinel(ErrCorrupt, nil, "incorrect checksum in control file %q", path)
	}
	if v := le.Uint32(b[4:]); v != controlVersion {
		return nil, pgerr.FromSentinel(ErrCorrupt, nil, "control file %q has version %d, this build expects %d", path, v, controlVersion)
	}
	return &ControlData{
		State:       DBState(le.Uint32(b[8:])),
		SegmentSize: int64(le.Uint32(b[12:])),
		Checkpoint:  le.Uint64(b[16:]),
		Redo:        le.Uint64(b[24:]),
		Time:        int64(le.Uint64(b[32:])),
	}, nil
}

// readControl returns the control file, or (nil, nil) if there is none.
func readControl(path string) (*ControlData, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, pgerr.FromSentinel(ErrIO, err, "could not read control file %q", path)
	}
	return unmarshalControl(b, path)
}

// writeControl replaces the control file atomically.
func writeControl(path string, c *ControlData) error {
	if err := durable.WriteFile(path, c.marshal()); err != nil {
		return pgerr.FromSentinel(ErrIO, err, "could not write control file %q", path)
	}
	return nil
}
