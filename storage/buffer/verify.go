package buffer

import (
	"minipg/pgerr"
	"minipg/storage/page"
)

// verifyPage checks a page read from disk (page.Verify: PageIsVerifiedExtended
// without checksums; an all-zero page is a valid new page). On failure it
// returns PostgreSQL's message, with page.Verify's finding as Detail.
func (p *Pool) verifyPage(tag Tag, data []byte) error {
	if err := page.Verify(page.Page(data)); err != nil {
		return pgerr.FromSentinel(ErrCorruptPage, err, "invalid page in block %d of relation %s", tag.Block, p.relPath(tag))
	}
	return nil
}
