package catalog

// Names the catalog chooses for relations the user did not name.

import (
	"fmt"
	"unicode/utf8"
)

// ChooseRelationName picks a relation name that is not in use, as
// PostgreSQL's ChooseRelationName does: name1_name2_label, cut to fit
// NameDataLen-1 bytes, with a number appended to label ("t_a_idx1", ...)
// until free. name2 may be "". The name is only free at the time of the call:
// CreateTable/AddIndex still check.
func (c *Catalog) ChooseRelationName(name1, name2, label string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	modlabel := label
	for pass := 1; ; pass++ {
		name := MakeObjectName(name1, name2, modlabel)
		if !c.relationExistsLocked(name) {
			return name
		}
		modlabel = fmt.Sprintf("%s%d", label, pass)
	}
}

// MakeObjectName is PostgreSQL's makeObjectName: name1_name2_label, where
// name1 and name2 (the longer first) are cut, on a UTF-8 character boundary,
// so the whole fits in NameDataLen-1 bytes; label is never cut.
func MakeObjectName(name1, name2, label string) string {
	n1, n2 := len(name1), len(name2)
	overhead := 0
	if name2 != "" {
		overhead++
	}
	if label != "" {
		overhead += len(label) + 1
	}
	avail := NameDataLen - 1 - overhead
	for n1+n2 > avail && n1+n2 > 0 {
		if n1 > n2 {
			n1--
		} else {
			n2--
		}
	}
	name := clip(name1, n1)
	if name2 != "" {
		name += "_" + clip(name2, n2)
	}
	if label != "" {
		name += "_" + label
	}
	return name
}

// clip cuts s to at most n bytes without splitting a UTF-8 character
// (pg_mbcliplen).
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
