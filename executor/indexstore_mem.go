package executor

// memStore: an index kept in memory (package index), rebuilt from the heap
// at every start (fillIndexes), not WAL-logged.

import (
	"hash/fnv"
	"sync"

	"minipg/index"
	"minipg/storage/buffer"
	"minipg/storage/nbtree"
	"minipg/storage/page"
	"minipg/types"
)

// memStore is an in-memory indexStore.
type memStore struct {
	ix    *index.Index
	types []types.T
	// locks serialize a unique check and its insertion per key hash (the
	// in-memory tree has no page lock to do it).
	locks [64]sync.Mutex
}

func newMemStore(ri *relIndex) *memStore {
	return &memStore{ix: index.NewEncoded(ri.appendKey, ri.def.Unique), types: ri.types}
}

func (m *memStore) Insert(key index.Key, tid page.TID) error {
	m.ix.Insert(key, tid)
	return nil
}

// keyLock returns the mutex of key's hash.
func (m *memStore) keyLock(key index.Key) *sync.Mutex {
	var buf []byte
	for i, v := range key {
		buf = appendKeyNull(buf, m.types[i], v)
	}
	h := fnv.New32a()
	h.Write(buf)
	return &m.locks[h.Sum32()%uint32(len(m.locks))]
}

func (m *memStore) InsertUnique(key index.Key, tid page.TID, check func([]page.TID) (bool, error)) (bool, error) {
	mu := m.keyLock(key)
	mu.Lock()
	defer mu.Unlock()
	var others []page.TID
	for _, t := range m.ix.Lookup(key) {
		if t == tid {
			return true, nil
		}
		others = append(others, t)
	}
	if len(others) > 0 {
		ok, err := check(others)
		if err != nil || !ok {
			return false, err
		}
	}
	m.ix.Insert(key, tid)
	return true, nil
}

func (m *memStore) Delete(key index.Key, tid page.TID) error {
	m.ix.Delete(key, tid)
	return nil
}

// DeleteFreeing is Delete of each entry: an in-memory scan deletes the
// entries it finds dead at once, under the heap page's lock, never later.
func (m *memStore) DeleteFreeing(keys []index.Key, tids []page.TID) error {
	for i, key := range keys {
		m.ix.Delete(key, tids[i])
	}
	return nil
}

func (m *memStore) DeleteTIDs(tids map[page.TID]struct{}, _ nbtree.VacuumPoint, _ *buffer.Strategy) (int, error) {
	return m.ix.DeleteTIDs(tids), nil
}

func (m *memStore) VacuumCleanup(nbtree.VacuumPoint, *buffer.Strategy) error { return nil }

func (m *memStore) NewIterator(lo, hi index.Bound, reverse bool) indexIterator {
	return memIterator{m.ix.NewIterator(lo, hi, reverse)}
}

// memIterator is an index.Iterator as an indexIterator.
type memIterator struct{ it *index.Iterator }

func (it memIterator) Next() (page.TID, bool) {
	_, tid, ok := it.it.Next()
	return tid, ok
}

func (memIterator) Err() error { return nil }

// DeleteLast removes the entry Next returned last (entryDeleter).
func (it memIterator) DeleteLast() { it.it.DeleteLast() }

func (m *memStore) NewBuilder(int64) indexBuilder { return memBuilder{m.ix.NewBuilder()} }

// memBuilder is an index.Builder as an indexBuilder.
type memBuilder struct{ b *index.Builder }

func (b memBuilder) Add(key index.Key, tid page.TID) string { return b.b.Add(key, tid) }

func (b memBuilder) Close() {}

func (b memBuilder) Finish() error {
	b.b.Finish()
	return nil
}
