package heap

import "minipg/storage/page"

// Result is TM_Result: the outcome of Update, Delete and Lock.
type Result int

// Results, as PostgreSQL's TM_Result.
const (
	TMOk Result = iota
	TMInvisible
	TMSelfModified
	TMUpdated
	TMDeleted
	TMBeingModified
)

// FailureData is TM_FailureData.
type FailureData struct {
	Ctid page.TID
	Xmax uint32
}

// VacuumStats reports what Vacuum did.
type VacuumStats struct {
	PagesScanned  int
	TuplesRemoved int
	BytesFreed    int64
}

// Scan is a sequential scan.
type Scan struct{}

func (r *Relation) Fetch(snap *Snapshot, tid page.TID) ([]byte, bool, error) { panic("unimplemented") }
func (r *Relation) FetchAny(tid page.TID) ([]byte, bool, error)              { panic("unimplemented") }
func (r *Relation) NewScan(snap *Snapshot) *Scan                              { panic("unimplemented") }
func (s *Scan) Next() (page.TID, []byte, bool, error)                         { panic("unimplemented") }
func (s *Scan) Close()                                                        {}
func (r *Relation) Update(snap *Snapshot, otid page.TID, newtup []byte, xid, cid uint32, st *InsertState) (page.TID, Result, FailureData, error) {
	panic("unimplemented")
}
func (r *Relation) Delete(snap *Snapshot, tid page.TID, xid, cid uint32) (Result, FailureData, error) {
	panic("unimplemented")
}
func (r *Relation) Lock(snap *Snapshot, tid page.TID, xid, cid uint32) (Result, FailureData, error) {
	panic("unimplemented")
}
func (r *Relation) Vacuum(oldestXmin uint32, oracle Oracle, dropIndexEntries func(dead []page.TID) error) (VacuumStats, error) {
	panic("unimplemented")
}
func Check(r *Relation) error                                        { panic("unimplemented") }
func (r *Relation) checkPage(p page.Page, blk, nblocks uint32) error { panic("unimplemented") }
