package catalog

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"minipg/pgerr"
)

// Comments (pg_description): COMMENT ON stores one per object, keyed by
// the object's OID, its catalog's OID (classoid: pg_class for relations,
// pg_namespace for schemas) and a column number (objsubid, 0 for the
// object itself). OIDs are never reused, so the comment of a dropped
// object is left behind unread (the executor lists only those of objects
// that exist) until its key is overwritten, which cannot happen. Keys:
//
//	catalog/v1/comment/<objoid>/<classoid>/<objsubid>  -> JSON of Comment
const (
	commentPrefix    = "catalog/v1/comment/"
	commentPrefixEnd = "catalog/v1/comment0"
)

// PgClassOID is pg_class's OID: a relation's comments have it as their
// classoid.
const PgClassOID uint32 = 1259

// Comment is one pg_description row.
type Comment struct {
	ObjOID   uint32 `json:"objoid"`
	ClassOID uint32 `json:"classoid"`
	ObjSubID int32  `json:"objsubid"`
	Text     string `json:"text"`
}

type commentKey struct {
	obj, class uint32
	sub        int32
}

func (k commentKey) bytes() []byte {
	return fmt.Appendf(nil, "%s%010d/%010d/%05d", commentPrefix, k.obj, k.class, k.sub)
}

func (c *Catalog) loadComments() error {
	c.mu.comments = map[commentKey]Comment{}
	return c.scanPrefix(commentPrefix, commentPrefixEnd, func(key, value []byte) error {
		var cm Comment
		if err := json.Unmarshal(value, &cm); err != nil {
			return corrupt("key %q: bad comment", key)
		}
		c.mu.comments[commentKey{cm.ObjOID, cm.ClassOID, cm.ObjSubID}] = cm
		return nil
	})
}

// SetComment stores the comment of an object (text "" removes it, as
// COMMENT ... IS NULL or IS ” does), in one synced batch.
func (c *Catalog) SetComment(classOID, objOID uint32, subID int32, text string) error {
	c.ddlMu.Lock()
	defer c.ddlMu.Unlock()
	if err := c.usableLocked(); err != nil {
		return err
	}
	k := commentKey{objOID, classOID, subID}
	b := c.db.NewBatch()
	defer b.Close()
	cm := Comment{ObjOID: objOID, ClassOID: classOID, ObjSubID: subID, Text: text}
	if text == "" {
		if err := b.Delete(k.bytes(), nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	} else {
		v, err := json.Marshal(&cm)
		if err != nil {
			return pgerr.Wrapf(err, pgerr.InternalError, "could not encode comment")
		}
		if err := b.Set(k.bytes(), v, nil); err != nil {
			return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
		}
	}
	if err := c.commit(b); err != nil {
		return pgerr.Wrapf(err, pgerr.IOError, "could not write catalog")
	}
	c.mu.Lock()
	if text == "" {
		delete(c.mu.comments, k)
	} else {
		c.mu.comments[k] = cm
	}
	c.mu.version++
	c.mu.Unlock()
	return nil
}

// Comments returns every stored comment, ordered by object, catalog and
// column.
func (c *Catalog) Comments() []Comment {
	c.mu.RLock()
	out := slices.Collect(maps.Values(c.mu.comments))
	c.mu.RUnlock()
	slices.SortFunc(out, func(a, b Comment) int {
		return cmp.Or(cmp.Compare(a.ObjOID, b.ObjOID), cmp.Compare(a.ClassOID, b.ClassOID), cmp.Compare(a.ObjSubID, b.ObjSubID))
	})
	return out
}

// CommentOf returns the comment of an object, "" for none.
func (c *Catalog) CommentOf(classOID, objOID uint32, subID int32) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.mu.comments[commentKey{objOID, classOID, subID}].Text
}
