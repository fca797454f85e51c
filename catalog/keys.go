package catalog

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble"

	"minipg/pgerr"
)

// Keys. All catalog keys start with "catalog/v1/"; a future incompatible
// encoding gets a new version prefix.
//
//	catalog/v1/table/<oid, 10 decimal digits>  -> JSON of Table
//	catalog/v1/seq/oid                         -> next OID, decimal text
//
// The OID is zero-padded so that keys sort in OID order.
const (
	tablePrefix    = "catalog/v1/table/"
	tablePrefixEnd = "catalog/v1/table0" // '0' follows '/'
	oidSeqKey      = "catalog/v1/seq/oid"
)

func tableKey(oid uint32) []byte {
	return fmt.Appendf(nil, "%s%010d", tablePrefix, oid)
}

func decodeTable(key, value []byte) (*Table, error) {
	s, ok := strings.CutPrefix(string(key), tablePrefix)
	if !ok {
		return nil, corrupt("unexpected key %q", key)
	}
	oid, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return nil, corrupt("key %q: %v", key, err)
	}
	var t Table
	if err := json.Unmarshal(value, &t); err != nil {
		return nil, corrupt("key %q: %v", key, err)
	}
	if t.OID != uint32(oid) || t.Name == "" {
		return nil, corrupt("key %q: definition of table %q has OID %d", key, t.Name, t.OID)
	}
	return &t, nil
}

// scanPrefix calls fn with the key and value of every stored entry whose
// key lies in [lo, hi), in key order, stopping at fn's first error.
func (c *Catalog) scanPrefix(lo, hi string, fn func(key, value []byte) error) error {
	iter, err := c.db.NewIter(&pebble.IterOptions{LowerBound: []byte(lo), UpperBound: []byte(hi)})
	if err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not read catalog")
	}
	for iter.First(); iter.Valid(); iter.Next() {
		if err := fn(iter.Key(), iter.Value()); err != nil {
			iter.Close()
			return err
		}
	}
	if err := iter.Close(); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not read catalog")
	}
	return nil
}
