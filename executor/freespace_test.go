package executor

import "testing"

// TestFreeSpaceClosedPage: pg_freespace shows what the map records, as
// PostgreSQL's does. The same rows under each policy leave the same pages
// with the same few bytes free; classic records them (128 for these rows,
// PostgreSQL's figure: regress freespace_classic), locality closes the
// page and records 0, which minipg_page_state explains as closed.
func TestFreeSpaceClosedPage(t *testing.T) {
	e := openTestEngine(t, "")
	s := e.NewSession(map[string]string{"user": "postgres"})
	mustRun(t, s, "CREATE EXTENSION pg_freespacemap; CREATE EXTENSION pageinspect")
	for _, c := range []struct{ policy, avail, state string }{
		{"classic", "128", "4|open|128"},
		{"locality", "0", "4|closed|0"},
	} {
		tbl := "fs_" + c.policy
		mustRun(t, s, "CREATE TABLE "+tbl+" (id int, pad text) WITH (fsm_policy="+c.policy+")")
		mustRun(t, s, "INSERT INTO "+tbl+" SELECT g, repeat('p', 200) FROM generate_series(1, 200) g")
		if got := mustValue(t, s, "SELECT upper - lower FROM page_header(get_raw_page('"+tbl+"', 4))"); got != "144" {
			t.Errorf("%s: block 4 has %s bytes between pd_lower and pd_upper, want 144", c.policy, got)
		}
		if got := mustValue(t, s, "SELECT pg_freespace('"+tbl+"', 4)"); got != c.avail {
			t.Errorf("%s: pg_freespace of block 4 is %s, want %s", c.policy, got, c.avail)
		}
		if got := mustValue(t, s, "SELECT avail FROM pg_freespace('"+tbl+"') WHERE blkno = 4"); got != c.avail {
			t.Errorf("%s: pg_freespace('%s') block 4 is %s, want %s", c.policy, tbl, got, c.avail)
		}
		if got := mustValue(t, s, "SELECT blkno || '|' || state || '|' || fsm_avail FROM minipg_page_state('"+tbl+"') WHERE blkno = 4"); got != c.state {
			t.Errorf("%s: minipg_page_state block 4: %s, want %s", c.policy, got, c.state)
		}
	}
}
