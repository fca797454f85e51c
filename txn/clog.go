package txn

// clog is the commit log: 2 bits per xid in pages of clogPageSize bytes.
type clog struct {
	pages [][]byte
}
