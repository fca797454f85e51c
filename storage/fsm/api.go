package fsm

import (
	"minipg/storage/buffer"
)

// InvalidBlock is InvalidBlockNumber.
const InvalidBlock uint32 = 0xFFFFFFFF

// Map is one relation's free space map (its _fsm fork).
type Map struct {
	pool *buffer.Pool
	rel  buffer.RelFileNode
}

func OpenMap(pool *buffer.Pool, rel buffer.RelFileNode) *Map { return &Map{pool: pool, rel: rel} }

func (m *Map) GetPageWithFreeSpace(spaceNeeded int) uint32 { panic("unimplemented") }
func (m *Map) RecordAndGetPageWithFreeSpace(oldPage uint32, oldSpaceAvail, spaceNeeded int) uint32 {
	panic("unimplemented")
}
func (m *Map) RecordPageWithFreeSpace(blk uint32, spaceAvail int) error { panic("unimplemented") }
func (m *Map) GetRecordedFreeSpace(blk uint32) int                      { panic("unimplemented") }
func (m *Map) Vacuum(start, end uint32) error                           { panic("unimplemented") }
func (m *Map) UpdateRange(start, end uint32) error                      { return m.Vacuum(start, end) }
func (m *Map) VacuumAll() error                                         { panic("unimplemented") }
func (m *Map) Truncate(nheapblocks uint32) error                        { panic("unimplemented") }

func Check(m *Map, actualFree func(blk uint32) (int, error), nheap uint32) error {
	panic("unimplemented")
}

// Request describes one tuple placement.
type Request struct {
	Need     int
	SaveFree int
	Target   uint32
	OldBlock uint32
	Bulk     bool
	NumPages int
}

func (r Request) TargetFreeSpace() int { panic("unimplemented") }

// PolicyStats are a policy's decision counters.
type PolicyStats struct {
	TargetTries, TargetHits, FSMAnswers, FSMHits, LastBlockTries, Retries int64
	Extensions, BlocksExtended, ExtendRechecks, MaxExtendBy               int64
}

type Policy interface {
	Name() string
	Choose(m *Map, r Request) uint32
	Retry(m *Map, r Request, tried uint32, avail int) uint32
	Extend(m *Map, r Request) (uint32, error)
	Stats() PolicyStats
}

func NewClassic() Policy                          { panic("unimplemented") }
func PolicyByName(name string) (Policy, error)    { panic("unimplemented") }
func PolicyNames() []string                       { panic("unimplemented") }
func RegisterPolicy(name string, f func() Policy) { panic("unimplemented") }
