package txn

// Commit log status values, 2 bits per xid, as PostgreSQL's clog.h.
const (
	statusInProgress byte = 0x00 // also "never recorded": see Manager.Status
	statusCommitted  byte = 0x01
	statusAborted    byte = 0x02
)

const (
	clogPageSize = 8192             // bytes per in-memory page (BLCKSZ)
	xidsPerByte  = 4                // CLOG_XACTS_PER_BYTE
	xidsPerPage  = clogPageSize * 4 // CLOG_XACTS_PER_PAGE
)

// clog is the commit log: 2 bits per xid, xid x at byte x/4, bits
// 2*(x%4)..2*(x%4)+1, in pages of clogPageSize bytes allocated as xids reach
// them. Not safe for concurrent use: Manager.mu guards it.
type clog struct {
	pages [][]byte
}

func (c *clog) get(xid uint32) byte {
	pg := int(xid / xidsPerPage)
	if pg >= len(c.pages) {
		return statusInProgress
	}
	b := c.pages[pg][(xid%xidsPerPage)/xidsPerByte]
	return (b >> (2 * (xid % xidsPerByte))) & 0x03
}

func (c *clog) set(xid uint32, st byte) {
	pg := int(xid / xidsPerPage)
	for pg >= len(c.pages) {
		c.pages = append(c.pages, make([]byte, clogPageSize))
	}
	p := &c.pages[pg][(xid%xidsPerPage)/xidsPerByte]
	shift := 2 * (xid % xidsPerByte)
	*p = *p&^(0x03<<shift) | st<<shift
}

// bytes returns a copy of the log for xids below next.
func (c *clog) bytes(next uint32) []byte {
	n := int((uint64(next) + xidsPerByte - 1) / xidsPerByte)
	out := make([]byte, n)
	for i := 0; i < n; i += clogPageSize {
		pg := i / clogPageSize
		if pg >= len(c.pages) {
			break
		}
		copy(out[i:], c.pages[pg])
	}
	return out
}

// load replaces the log with b (as returned by bytes).
func (c *clog) load(b []byte) {
	c.pages = nil
	for i := 0; i < len(b); i += clogPageSize {
		p := make([]byte, clogPageSize)
		copy(p, b[i:])
		c.pages = append(c.pages, p)
	}
}
