package page

import "minipg/pgerr"

// Verify is PageIsVerifiedExtended without checksums: it accepts an
// all-zero page (a block extended but never written) and a page whose
// header is sane, and returns a DataCorrupted error otherwise. Sane means:
// no unknown pd_flags bits, HeaderSize <= pd_lower <= pd_upper <=
// pd_special <= BlockSize, pd_special MAXALIGNed (PostgreSQL's tests), plus
// pd_pagesize_version == BlockSize|LayoutVersion and pd_lower <= BlockSize
// (minipg's additions: every page it writes is PageInit'ed, and AddItem
// relies on pd_lower >= HeaderSize). It reads only the header, and the rest
// of the page to tell a zero page from garbage; it never panics.
//
// Like PostgreSQL's, this does not prove the page is good: line pointers
// are checked by heap.Check and by the functions that follow them.
func Verify(p Page) error {
	if len(p) != BlockSize {
		return pgerr.New(pgerr.DataCorrupted, "invalid page size %d", len(p))
	}
	if !IsNew(p) {
		if Flags(p)&^PDValidFlagBits == 0 && pointersSane(p) &&
			Special(p) == MaxAlignLen(Special(p)) && SizeVersion(p) == BlockSize|LayoutVersion {
			return nil
		}
	}
	for _, b := range p {
		if b != 0 {
			return corruptPointers(p)
		}
	}
	return nil
}

func corruptPointers(p Page) error {
	if len(p) < HeaderSize {
		return pgerr.New(pgerr.DataCorrupted, "invalid page: %d bytes", len(p))
	}
	return pgerr.New(pgerr.DataCorrupted,
		"invalid page header: flags = %#x, lower = %d, upper = %d, special = %d, pagesize_version = %#x",
		Flags(p), Lower(p), Upper(p), Special(p), SizeVersion(p))
}
