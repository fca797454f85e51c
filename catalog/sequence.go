package catalog

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cockroachdb/pebble"

	"minipg/pgerr"
)

// SeqLogVals is how many values nextval logs ahead of the ones it hands
// out, as PostgreSQL's SEQ_LOG_VALS: the sequence's stored state is
// rewritten (one synced pebble write) once per SeqLogVals calls.
const SeqLogVals = 32

// Sequence is one sequence (a pg_class row of relkind 'S' and its
// pg_sequence row) with its last stored state. Sequences share the relation
// namespace with tables and indexes, and their OIDs.
//
// LastValue and IsCalled are the state as of the last write: after a crash
// the sequence restarts from them, so nextval writes a LastValue up to
// SeqLogVals increments ahead of the value it returns (PostgreSQL's
// WAL-logged prefetch) and never hands out a value twice.
type Sequence struct {
	OID       uint32 `json:"oid"`
	Name      string `json:"name"`
	TypeOID   uint32 `json:"type"` // int2, int4 or int8 (AS type)
	Increment int64  `json:"increment"`
	MinValue  int64  `json:"min"`
	MaxValue  int64  `json:"max"`
	Start     int64  `json:"start"`
	Cache     int64  `json:"cache"`
	Cycle     bool   `json:"cycle,omitempty"`
	// OwnedByTable/OwnedByColumn (1-based) name the column the sequence
	// belongs to (OWNED BY t.c, a serial column): it is dropped with the
	// table. 0 for none.
	OwnedByTable  uint32 `json:"owned_by_table,omitempty"`
	OwnedByColumn int16  `json:"owned_by_column,omitempty"`

	LastValue int64 `json:"last_value"`
	IsCalled  bool  `json:"is_called,omitempty"`
}

// seqState is a sequence's live state. mu guards the fields below it; the
// lock order is seqState.mu, then Catalog.ddlMu.
type seqState struct {
	def *Sequence // immutable parameters (LastValue/IsCalled as created)

	mu      sync.Mutex
	last    int64
	called  bool
	logCnt  int64 // values still covered by the stored state
	dropped bool  // set under ddlMu by DropSequence
}

const (
	seqPrefix    = "catalog/v1/sequence/"
	seqPrefixEnd = "catalog/v1/sequence0"
)

func seqKey(oid uint32) []byte { return fmt.Appendf(nil, "%s%010d", seqPrefix, oid) }

// SeqTypeBounds returns the MINVALUE/MAXVALUE range of a sequence's AS type.
func SeqTypeBounds(typeOID uint32) (int64, int64) {
	switch typeOID {
	case 21:
		return math.MinInt16, math.MaxInt16
	case 23:
		return math.MinInt32, math.MaxInt32
	}
	return math.MinInt64, math.MaxInt64
}

// loadSequences reads the stored sequences into the cache (at open).
func (c *Catalog) loadSequences() error {
	c.mu.seqs = map[string]*seqState{}
	c.mu.seqByOID = map[uint32]*seqState{}
	return c.scanPrefix(seqPrefix, seqPrefixEnd, func(key, value []byte) error {
		var s Sequence
		if err := json.Unmarshal(value, &s); err != nil || s.Name == "" {
			return corrupt("key %q: bad sequence definition", key)
		}
		if !strings.HasSuffix(string(key), fmt.Sprintf("%010d", s.OID)) {
			return corrupt("key %q: sequence %q has OID %d", key, s.Name, s.OID)
		}
		st := &seqState{def: &s, last: s.LastValue, called: s.IsCalled}
		c.mu.seqs[s.Name] = st
		c.mu.seqByOID[s.OID] = st
		c.mu.nextOID = max(c.mu.nextOID, s.OID+1)
		return nil
	})
}

// Sequence returns the sequence called name (its parameters; the live
// state is read with SequenceState).
func (c *Catalog) Sequence(name string) (*Sequence, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st, ok := c.mu.seqs[name]
	if !ok {
		return nil, false
	}
	return st.def, true
}

// SequenceByOID returns the sequence with the given OID.
func (c *Catalog) SequenceByOID(oid uint32) (*Sequence, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	st, ok := c.mu.seqByOID[oid]
	if !ok {
		return nil, false
	}
	return st.def, true
}

// Sequences returns all sequences ordered by OID.
func (c *Catalog) Sequences() []*Sequence {
	c.mu.RLock()
	var out []*Sequence
	for _, st := range c.mu.seqByOID {
		out = append(out, st.def)
	}
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b *Sequence) int { return int(int64(a.OID) - int64(b.OID)) })
	return out
}

// SequenceState returns a sequence's current last_value and is_called.
func (c *Catalog) SequenceState(oid uint32) (last int64, called bool, err error) {
	st, err := c.seqState(oid)
	if err != nil {
		return 0, false, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.last, st.called, nil
}

func (c *Catalog) seqState(oid uint32) (*seqState, error) {
	c.mu.RLock()
	st, ok := c.mu.seqByOID[oid]
	c.mu.RUnlock()
	if !ok {
		return nil, pgerr.New(pgerr.UndefinedTable, "could not open relation with OID %d", oid)
	}
	return st, nil
}

// CreateSequence stores a new sequence; def's parameters must already be
// validated (the SQL layer applies PostgreSQL's defaults and checks). The
// OID is assigned; LastValue is Start, not yet called. 42P07 if any
// relation has the name; 42P01 if OwnedByTable is gone.
func (c *Catalog) CreateSequence(def Sequence) (*Sequence, error) {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return nil, err
	}
	if c.relationExistsLocked(def.Name) {
		return nil, errRelationExists(def.Name)
	}
	if def.OwnedByTable != 0 {
		if _, ok := c.mu.byOID[def.OwnedByTable]; !ok {
			return nil, errNoTable(def.OwnedByTable)
		}
	}
	s := def
	s.OID = c.mu.nextOID
	s.LastValue, s.IsCalled = s.Start, false
	if err := c.writeBatchLocked(s.OID+1, nil, nil, []*Sequence{&s}, nil); err != nil {
		return nil, err
	}
	st := &seqState{def: &s, last: s.LastValue}
	c.mu.Lock()
	c.mu.nextOID = s.OID + 1
	c.mu.seqs[s.Name] = st
	c.mu.seqByOID[s.OID] = st
	c.mu.version++
	c.mu.Unlock()
	return &s, nil
}

// DropSequence removes a sequence in one synced batch. 42P01 if it is gone.
func (c *Catalog) DropSequence(oid uint32) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	st, ok := c.mu.seqByOID[oid]
	if !ok {
		return errNoTable(oid)
	}
	if err := c.writeBatchLocked(c.mu.nextOID, nil, nil, nil, []uint32{oid}); err != nil {
		return err
	}
	c.dropSeqLocked(st)
	return nil
}

// dropSeqLocked removes st from the cache after its deletion is written.
// Caller holds ddlMu, not mu.
func (c *Catalog) dropSeqLocked(st *seqState) {
	st.dropped = true
	c.mu.Lock()
	delete(c.mu.seqs, st.def.Name)
	delete(c.mu.seqByOID, st.def.OID)
	c.mu.version++
	c.mu.Unlock()
}

// ownedSequencesLocked lists the sequences owned by a column of table oid.
// Caller holds ddlMu.
func (c *Catalog) ownedSequencesLocked(oid uint32) []*seqState {
	var out []*seqState
	for _, st := range c.mu.seqByOID {
		if st.def.OwnedByTable == oid {
			out = append(out, st)
		}
	}
	return out
}

// NextVal advances the sequence as PostgreSQL's nextval_internal does and
// returns the first value fetched and the last of the cache values fetched
// with it (equal for CACHE 1): the caller hands out first..last by
// Increment. When the stored state covers fewer values than are fetched,
// it is rewritten SeqLogVals increments ahead, synced, before NextVal
// returns. Errors: 2200H at MAXVALUE/MINVALUE without CYCLE; 42P01 if the
// sequence was dropped meanwhile.
func (c *Catalog) NextVal(oid uint32) (first, last int64, err error) {
	st, err := c.seqState(oid)
	if err != nil {
		return 0, 0, err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	d := st.def // under st.mu: RenameSequence replaces it
	incby, maxv, minv, cache := d.Increment, d.MaxValue, d.MinValue, d.Cache
	next := st.last
	result, lastFetched := next, next
	fetch, log := cache, st.logCnt
	var rescnt int64
	if !st.called {
		rescnt++
		fetch--
	}
	logit := false
	if log < fetch || !st.called {
		fetch += SeqLogVals
		log = fetch
		logit = true
	}
	for fetch > 0 {
		if incby > 0 {
			if (maxv >= 0 && next > maxv-incby) || (maxv < 0 && next+incby > maxv) {
				if rescnt > 0 {
					break
				}
				if !d.Cycle {
					return 0, 0, pgerr.New(pgerr.SequenceGeneratorLimitExceeded, "nextval: reached maximum value of sequence \"%s\" (%d)", d.Name, maxv)
				}
				next = minv
			} else {
				next += incby
			}
		} else {
			if (minv < 0 && next < minv-incby) || (minv >= 0 && next+incby < minv) {
				if rescnt > 0 {
					break
				}
				if !d.Cycle {
					return 0, 0, pgerr.New(pgerr.SequenceGeneratorLimitExceeded, "nextval: reached minimum value of sequence \"%s\" (%d)", d.Name, minv)
				}
				next = maxv
			} else {
				next += incby
			}
		}
		fetch--
		if rescnt < cache {
			log--
			rescnt++
			lastFetched = next
			if rescnt == 1 {
				result = next
			}
		}
	}
	log -= fetch
	if logit {
		if err := c.writeSeqState(st, next, true); err != nil {
			return 0, 0, err
		}
	}
	st.last, st.called, st.logCnt = lastFetched, true, log
	return result, lastFetched, nil
}

// SetVal sets the sequence's state (setval): value must lie within
// [MinValue, MaxValue] (22003 otherwise, PostgreSQL's message). The new
// state is written, synced, before SetVal returns.
func (c *Catalog) SetVal(oid uint32, value int64, isCalled bool) error {
	st, err := c.seqState(oid)
	if err != nil {
		return err
	}
	c.mu.RLock()
	d := st.def // RenameSequence replaces it under mu
	c.mu.RUnlock()
	if value < d.MinValue || value > d.MaxValue {
		return pgerr.New(pgerr.NumericValueOutOfRange, "setval: value %d is out of bounds for sequence \"%s\" (%d..%d)",
			value, d.Name, d.MinValue, d.MaxValue)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := c.writeSeqState(st, value, isCalled); err != nil {
		return err
	}
	st.last, st.called, st.logCnt = value, isCalled, 0
	return nil
}

// writeSeqState stores st's definition with the given state. Caller holds
// st.mu; ddlMu is taken here.
func (c *Catalog) writeSeqState(st *seqState, last int64, called bool) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	if st.dropped {
		return pgerr.New(pgerr.UndefinedTable, "relation \"%s\" does not exist", st.def.Name)
	}
	s := *st.def
	s.LastValue, s.IsCalled = last, called
	return c.writeBatchLocked(c.mu.nextOID, nil, nil, []*Sequence{&s}, nil)
}

// putSeqs and delSeqs add sequence writes to a DDL batch.
func putSeqs(b *pebble.Batch, put []*Sequence, del []uint32) error {
	for _, s := range put {
		v, err := json.Marshal(s)
		if err != nil {
			return pgerr.Wrapf(err, pgerr.InternalError, "could not encode sequence %q", s.Name)
		}
		if err := b.Set(seqKey(s.OID), v, nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	for _, oid := range del {
		if err := b.Delete(seqKey(oid), nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	return nil
}

// checkSequencesLocked verifies the stored sequences against the cache.
// Caller holds ddlMu.
func (c *Catalog) checkSequencesLocked(claim func(uint32, string) error) error {
	iter, err := c.db.NewIter(&pebble.IterOptions{LowerBound: []byte(seqPrefix), UpperBound: []byte(seqPrefixEnd)})
	if err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not read catalog")
	}
	defer iter.Close()
	n := 0
	for iter.First(); iter.Valid(); iter.Next() {
		n++
		oid, err := strconv.ParseUint(strings.TrimPrefix(string(iter.Key()), seqPrefix), 10, 32)
		if err != nil {
			return corrupt("key %q: %v", iter.Key(), err)
		}
		if _, ok := c.mu.seqByOID[uint32(oid)]; !ok {
			return corrupt("stored sequence %d not cached", oid)
		}
	}
	if n != len(c.mu.seqByOID) || n != len(c.mu.seqs) {
		return corrupt("%d sequences stored, %d cached", n, len(c.mu.seqByOID))
	}
	for _, st := range c.mu.seqByOID {
		if err := claim(st.def.OID, st.def.Name); err != nil {
			return err
		}
		if st.def.OwnedByTable != 0 {
			t, ok := c.mu.byOID[st.def.OwnedByTable]
			col := int(st.def.OwnedByColumn)
			if !ok || col > len(t.Columns) || col > 0 && t.Columns[col-1].Dropped {
				return corrupt("sequence %q is owned by a column that does not exist", st.def.Name)
			}
		}
	}
	return nil
}

// AlterSequence stores sequence oid's new parameters (ALTER SEQUENCE;
// OID and Name are kept) and, with restart, sets its state to restart, not
// yet called. The state the sequence then has must lie within the new
// bounds (PostgreSQL's RESTART checks, 22023). The values logged ahead
// are given up, as by setval.
func (c *Catalog) AlterSequence(oid uint32, def Sequence, restart *int64) error {
	st, err := c.seqState(oid)
	if err != nil {
		return err
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	last, called := st.last, st.called
	if restart != nil {
		last, called = *restart, false
	}
	if last < def.MinValue {
		return pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be less than MINVALUE (%d)", last, def.MinValue)
	}
	if last > def.MaxValue {
		return pgerr.New(pgerr.InvalidParameterValue, "RESTART value (%d) cannot be greater than MAXVALUE (%d)", last, def.MaxValue)
	}
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	if st.dropped {
		return errNoTable(oid)
	}
	nd := def
	nd.OID, nd.Name = st.def.OID, st.def.Name
	stored := nd
	stored.LastValue, stored.IsCalled = last, called
	if err := c.writeBatchLocked(c.mu.nextOID, nil, nil, []*Sequence{&stored}, nil); err != nil {
		return err
	}
	c.mu.Lock()
	st.def = &nd
	st.last, st.called, st.logCnt = last, called, 0
	c.mu.version++
	c.mu.Unlock()
	return nil
}
