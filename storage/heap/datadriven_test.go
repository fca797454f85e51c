package heap

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"minipg/storage/page"
)

// TestPageScripts runs the scripts in testdata/page: sequences of heap
// operations on one (id int4, payload text) table and the page or rows they
// leave, in pebble's datadriven form (a command line, its input, "----",
// the expected output; go test -run TestPageScripts -rewrite regenerates
// the expectations). Commands:
//
//	new [fillfactor=N]            a fresh, empty table
//	begin / commit / abort        an explicit transaction; outside one, each
//	                              insert, update and delete commits alone
//	insert                        one row per input line, "id payload"; prints
//	                              the TIDs
//	update id=N payload=S         the row's current version; prints the new
//	                              TID and whether it is heap-only (HOT)
//	delete id=N                   deletes the row's current version
//	vacuum                        VACUUM; prints the TIDs whose index entries
//	                              it drops
//	page [block=N]                the page header and heap_page_items' lp,
//	                              lp_off, lp_flags, lp_len, t_infomask2, t_ctid
//	scan                          rows a new snapshot sees, by id, with ctid
//	fetch-hot tid=(B,O)           FetchHot through a chain root: the version
//	                              found, or "not found"
//	check [fsm]                   CheckPages; with fsm also Check, which wants
//	                              the FSM exact (as after VACUUM; inserts
//	                              leave it a hint)
//
// Rows are named by id: the script keeps each id's newest TID.
func TestPageScripts(t *testing.T) {
	datadriven.Walk(t, "testdata/page", func(t *testing.T, path string) {
		s := &pageScript{}
		datadriven.RunTest(t, path, s.run)
	})
}

type pageScript struct {
	e    *testEnv
	rows map[int32]page.TID // id -> newest version
	xid  uint32             // open explicit transaction, 0 if none
	cid  uint32             // its next command id
}

func (s *pageScript) run(t *testing.T, d *datadriven.TestData) string {
	if s.e == nil && d.Cmd != "new" {
		d.Fatalf(t, "the script must start with new")
	}
	switch d.Cmd {
	case "new":
		var o Options
		if d.HasArg("fillfactor") {
			d.ScanArgs(t, "fillfactor", &o.FillFactor)
		}
		s.e, s.rows, s.xid = newEnv(t, 16, o), map[int32]page.TID{}, 0
		return ""
	case "begin":
		if s.xid != 0 {
			d.Fatalf(t, "a transaction is open")
		}
		s.xid, s.cid = s.e.o.Begin(), 0
		return ""
	case "commit", "abort":
		if s.xid == 0 {
			d.Fatalf(t, "no transaction is open")
		}
		if d.Cmd == "commit" {
			s.e.o.Commit(s.xid)
		} else {
			s.e.o.Abort(s.xid)
		}
		s.xid = 0
		return ""
	case "insert":
		var out strings.Builder
		s.write(t, func(xid, cid uint32) {
			var st InsertState
			for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
				idText, payload, _ := strings.Cut(line, " ")
				id, err := strconv.Atoi(idText)
				if err != nil {
					d.Fatalf(t, "bad row %q", line)
				}
				tid, err := s.e.rel.Insert(mkRow(t, int32(id), payload), xid, cid, &st)
				if err != nil {
					d.Fatalf(t, "insert %q: %v", line, err)
				}
				s.rows[int32(id)] = tid
				fmt.Fprintln(&out, tid)
			}
		})
		return out.String()
	case "update":
		id := s.id(t, d)
		var payload string
		d.ScanArgs(t, "payload", &payload)
		var out string
		s.write(t, func(xid, cid uint32) {
			tup := mkRow(t, id, payload)
			ntid, res, _, err := s.e.rel.Update(s.e.snap(xid, cid), s.rows[id], tup, xid, cid, nil)
			if err != nil || res != TMOk {
				d.Fatalf(t, "update of %d at %s: %v %v", id, s.rows[id], res, err)
			}
			s.rows[id] = ntid
			out = ntid.String()
			if IsHeapOnly(tup) {
				out += " hot"
			}
		})
		return out + "\n"
	case "delete":
		id := s.id(t, d)
		s.write(t, func(xid, cid uint32) {
			if res, _, err := s.e.rel.Delete(s.e.snap(xid, cid), s.rows[id], xid, cid); err != nil || res != TMOk {
				d.Fatalf(t, "delete of %d at %s: %v %v", id, s.rows[id], res, err)
			}
		})
		delete(s.rows, id)
		return ""
	case "vacuum":
		var dropped []page.TID
		if _, err := s.e.rel.Vacuum(s.e.o.OldestXmin(), s.e.o, func(tids []page.TID) error {
			dropped = append(dropped, tids...)
			return nil
		}); err != nil {
			d.Fatalf(t, "vacuum: %v", err)
		}
		if len(dropped) == 0 {
			return "dropped index entries: none\n"
		}
		return fmt.Sprintf("dropped index entries: %v\n", dropped)
	case "page":
		var blk int
		if d.HasArg("block") {
			d.ScanArgs(t, "block", &blk)
		}
		return s.page(t, uint32(blk))
	case "scan":
		rows := s.e.scanAll(t, s.e.snap(0, 0))
		ids := slices.Sorted(func(yield func(int32) bool) {
			for id := range rows {
				if !yield(id) {
					return
				}
			}
		})
		var out strings.Builder
		for _, id := range ids {
			fmt.Fprintf(&out, "%d %s %s\n", id, rows[id].payload, rows[id].tid)
		}
		return out.String()
	case "fetch-hot":
		var tid page.TID
		d.ScanArgs(t, "tid", &tid.Block, &tid.Offset)
		vt, tup, ok, err := s.e.rel.FetchHot(s.e.snap(0, 0), tid)
		if err != nil {
			d.Fatalf(t, "FetchHot(%s): %v", tid, err)
		}
		if !ok {
			return "not found\n"
		}
		id, payload := rowOf(t, tup)
		return fmt.Sprintf("%s %d %s\n", vt, id, payload)
	case "check":
		mustCheckPages(t, s.e.rel)
		if d.HasArg("fsm") {
			mustCheck(t, s.e.rel)
		}
		return "ok\n"
	}
	d.Fatalf(t, "unknown command %q", d.Cmd)
	return ""
}

// id reads the id= argument of a row the script knows.
func (s *pageScript) id(t *testing.T, d *datadriven.TestData) int32 {
	var id int
	d.ScanArgs(t, "id", &id)
	if _, ok := s.rows[int32(id)]; !ok {
		d.Fatalf(t, "no row %d", id)
	}
	return int32(id)
}

// write runs f in the open transaction (at its next command id), or in a
// transaction of its own that commits.
func (s *pageScript) write(t *testing.T, f func(xid, cid uint32)) {
	if s.xid != 0 {
		f(s.xid, s.cid)
		s.cid++
		return
	}
	xid := s.e.o.Begin()
	f(xid, 0)
	s.e.o.Commit(xid)
}

var lpFlagNames = map[int]string{page.LPUnused: "unused", page.LPNormal: "normal", page.LPRedirect: "redirect", page.LPDead: "dead"}

// page prints block blk as pageinspect's page_header and heap_page_items
// show it.
func (s *pageScript) page(t *testing.T, blk uint32) string {
	var out strings.Builder
	s.e.withPage(t, blk, func(p page.Page) {
		fmt.Fprintf(&out, "lower %d upper %d flags %d prune_xid %d\n", page.Lower(p), page.Upper(p), page.Flags(p), page.PruneXid(p))
		fmt.Fprintln(&out, "lp lp_off lp_flags   lp_len t_infomask2 t_ctid")
		for off := uint16(1); off <= page.MaxOffset(p); off++ {
			lpOff, flags, n := page.ItemID(p, off)
			fmt.Fprintf(&out, "%2d %6d %d %-8s %6d", off, lpOff, flags, lpFlagNames[flags], n)
			if flags == page.LPNormal {
				tup := page.Item(p, off)
				fmt.Fprintf(&out, " %11d %s", Infomask2(tup), Ctid(tup))
			}
			out.WriteString("\n")
		}
	})
	return out.String()
}
