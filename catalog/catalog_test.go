package catalog

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"

	"minipg/pgerr"
)

func mustOpen(t *testing.T, dir string) *Catalog {
	t.Helper()
	c, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func check(t *testing.T, c *Catalog) {
	t.Helper()
	if err := c.Check(); err != nil {
		t.Fatal(err)
	}
}

func orders() *Table {
	return &Table{
		Name: "orders",
		Columns: []Column{
			{Name: "id", TypeOID: 23, Typmod: -1},
			{Name: "customer", TypeOID: 1043, Typmod: 14, NotNull: true},
			{Name: "total", TypeOID: 1700, Typmod: (10<<16 | 2) + 4, Default: "0"},
		},
		Options: map[string]string{"fillfactor": "90", "fsm_policy": "locality"},
		Indexes: []Index{{Name: "orders_pkey", Columns: []int16{1}, Primary: true}},
	}
}

func wantCode(t *testing.T, err error, code pgerr.Code) {
	t.Helper()
	if got := pgerr.CodeOf(err); err == nil || got != code {
		t.Fatalf("error %v (code %s), want %s", err, got, code)
	}
}

func TestCreateDropReopen(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	def := orders()
	v0 := c.Version()
	tb, err := c.CreateTable(def)
	if err != nil {
		t.Fatal(err)
	}
	if tb.OID != FirstNormalObjectID || tb.RelFileNode != tb.OID || tb.Indexes[0].OID != tb.OID+1 {
		t.Fatalf("oids: table %d relfilenode %d index %d", tb.OID, tb.RelFileNode, tb.Indexes[0].OID)
	}
	if !tb.Columns[0].NotNull || !tb.Indexes[0].Unique {
		t.Fatal("primary key column not NOT NULL or index not unique")
	}
	if def.OID != 0 || def.Columns[0].NotNull {
		t.Fatal("CreateTable modified its argument")
	}
	def.Options["fillfactor"] = "10" // the caller's map is not shared
	if c.Version() == v0 {
		t.Fatal("Version not bumped")
	}
	items, err := c.CreateTable(&Table{Name: "items", Columns: []Column{{Name: "a", TypeOID: 20, Typmod: -1}, {Name: "b", TypeOID: 25, Typmod: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	_, ix, err := c.AddIndex(items.OID, Index{Name: "items_a_b_idx", Columns: []int16{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetOptions(items.OID, map[string]string{"fsm_policy": "classic"}); err != nil {
		t.Fatal(err)
	}
	check(t, c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	c = mustOpen(t, dir)
	check(t, c)
	got, ok := c.Table("orders")
	if !ok {
		t.Fatal("orders lost on reopen")
	}
	if fmt.Sprint(*got) != fmt.Sprint(*tb) {
		t.Fatalf("reopened:\n%v\nwant\n%v", *got, *tb)
	}
	if v, _ := got.Option("fillfactor"); v != "90" {
		t.Fatalf("fillfactor = %q", v)
	}
	it, idx, ok := c.IndexByName("items_a_b_idx")
	if !ok || it.OID != items.OID || idx.OID != ix.OID || len(idx.Columns) != 2 {
		t.Fatalf("IndexByName: %v %v %v", it, idx, ok)
	}
	if v, _ := it.Option("fsm_policy"); v != "classic" {
		t.Fatal("options not persisted")
	}
	if tables := c.Tables(); len(tables) != 2 || tables[0].Name != "orders" || tables[1].Name != "items" {
		t.Fatalf("Tables() = %v", tables)
	}
	// OIDs are not reused after reopen.
	n, err := c.CreateTable(&Table{Name: "n"})
	if err != nil {
		t.Fatal(err)
	}
	if n.OID != ix.OID+1 {
		t.Fatalf("next OID %d, want %d", n.OID, ix.OID+1)
	}
	dropped, err := c.DropTable(got.OID)
	if err != nil || dropped.Name != "orders" {
		t.Fatal(err)
	}
	if _, err := c.DropTable(got.OID); err == nil {
		t.Fatal("second drop succeeded")
	} else {
		wantCode(t, err, pgerr.UndefinedTable)
	}
	if c.RelationExists("orders") || c.RelationExists("orders_pkey") {
		t.Fatal("dropped table or its index still exists")
	}
	// The name is free again.
	if _, err := c.CreateTable(&Table{Name: "orders_pkey"}); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c = mustOpen(t, dir)
	defer c.Close()
	if _, ok := c.Table("orders"); ok {
		t.Fatal("dropped table back after reopen")
	}
	if _, ok := c.TableByOID(n.OID); !ok {
		t.Fatal("table n lost")
	}
}

func TestErrors(t *testing.T) {
	c := mustOpen(t, t.TempDir())
	defer c.Close()
	tb, err := c.CreateTable(orders())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateTable(orders())
	wantCode(t, err, pgerr.DuplicateTable)
	if err.Error() != `relation "orders" already exists` {
		t.Fatalf("message %q", err)
	}
	// Index names share the namespace with tables, across tables.
	_, err = c.CreateTable(&Table{Name: "orders_pkey"})
	wantCode(t, err, pgerr.DuplicateTable)
	_, _, err = c.AddIndex(tb.OID, Index{Name: "orders", Columns: []int16{2}})
	wantCode(t, err, pgerr.DuplicateTable)
	_, err = c.CreateTable(&Table{Name: "x", Columns: []Column{{Name: "a"}}, Indexes: []Index{{Name: "orders_pkey", Columns: []int16{1}}}})
	wantCode(t, err, pgerr.DuplicateTable)
	_, err = c.CreateTable(&Table{Name: "x", Columns: []Column{{Name: "a"}}, Indexes: []Index{{Name: "x", Columns: []int16{1}}}})
	wantCode(t, err, pgerr.DuplicateTable)
	_, err = c.CreateTable(&Table{Name: "x", Columns: []Column{{Name: "a"}, {Name: "a"}}})
	wantCode(t, err, pgerr.DuplicateColumn)
	_, err = c.CreateTable(&Table{Name: "x", Columns: []Column{{Name: "a"}, {Name: "b"}},
		Indexes: []Index{{Name: "p1", Columns: []int16{1}, Primary: true}, {Name: "p2", Columns: []int16{2}, Primary: true}}})
	wantCode(t, err, pgerr.InvalidTableDefinition)
	_, _, err = c.AddIndex(tb.OID, Index{Name: "p", Columns: []int16{2}, Primary: true})
	wantCode(t, err, pgerr.InvalidTableDefinition)
	_, _, err = c.AddIndex(tb.OID, Index{Name: "bad", Columns: []int16{9}})
	wantCode(t, err, pgerr.UndefinedColumn)
	_, _, err = c.AddIndex(999, Index{Name: "i", Columns: []int16{1}})
	wantCode(t, err, pgerr.UndefinedTable)
	_, _, err = c.DropIndex("nope")
	wantCode(t, err, pgerr.UndefinedObject)
	_, _, err = c.DropIndex("orders_pkey")
	wantCode(t, err, pgerr.DependentObjectsStillExist)
	_, err = c.CreateTable(&Table{Name: "wide", Columns: make([]Column, MaxColumns+1)})
	wantCode(t, err, pgerr.TooManyColumns)
	if len(c.Tables()) != 1 {
		t.Fatalf("failed DDL left tables: %v", c.Tables())
	}
	check(t, c)
	// A failed DDL consumed no OID.
	x, err := c.CreateTable(&Table{Name: "x"})
	if err != nil || x.OID != tb.Indexes[0].OID+1 {
		t.Fatalf("after failures: %v, oid %d", err, x.OID)
	}
	// Drop a secondary index; the table keeps the rest.
	if _, _, err := c.AddIndex(tb.OID, Index{Name: "orders_customer_idx", Columns: []int16{2}}); err != nil {
		t.Fatal(err)
	}
	nt, removed, err := c.DropIndex("orders_customer_idx")
	if err != nil || removed.Name != "orders_customer_idx" || len(nt.Indexes) != 1 || c.RelationExists("orders_customer_idx") {
		t.Fatalf("DropIndex: %v %v %v", nt, removed, err)
	}
	// SetOptions with "" resets.
	nt, err = c.SetOptions(tb.OID, map[string]string{"fillfactor": "", "fsm_reopen_percent": "40"})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := nt.Option("fillfactor"); ok || nt.Options["fsm_reopen_percent"] != "40" || nt.Options["fsm_policy"] != "locality" {
		t.Fatalf("options %v", nt.Options)
	}
	if v, _ := tb.Option("fillfactor"); v != "90" {
		t.Fatal("an earlier *Table changed")
	}
}

func TestChooseRelationName(t *testing.T) {
	c := mustOpen(t, t.TempDir())
	defer c.Close()
	if got := c.ChooseRelationName("t", "", "pkey"); got != "t_pkey" {
		t.Fatal(got)
	}
	tb, _ := c.CreateTable(&Table{Name: "t", Columns: []Column{{Name: "a"}}})
	for i, want := range []string{"t_a_idx", "t_a_idx1", "t_a_idx2"} {
		got := c.ChooseRelationName("t", "a", "idx")
		if got != want {
			t.Fatalf("pass %d: %q, want %q", i, got, want)
		}
		if _, _, err := c.AddIndex(tb.OID, Index{Name: got, Columns: []int16{1}}); err != nil {
			t.Fatal(err)
		}
	}
	// PostgreSQL 15: CREATE TABLE <60 x 'a'> (<60 x 'b'> int PRIMARY KEY, ...)
	// names its index aaaaaaaaaaaaaaaaaaaaaaaaaaaaa_pkey (58 a's: 63-5), and an
	// index on the column aaaaaaaaaaaaaaaaaaaaaaaaaaa_bbbbbbbbbbbbbbbbbbbbbbbbbbbb_idx
	// (27 a's, 28 b's: the longer name is cut first).
	a, b := strings.Repeat("a", 60), strings.Repeat("b", 60)
	if got := MakeObjectName(a, "", "pkey"); got != strings.Repeat("a", 58)+"_pkey" {
		t.Fatalf("%q (%d)", got, len(got))
	}
	if got := MakeObjectName(a, b, "idx"); got != strings.Repeat("a", 29)+"_"+strings.Repeat("b", 29)+"_idx" || len(got) != 63 {
		t.Fatalf("%q (%d)", got, len(got))
	}
	// Multibyte names are cut on character boundaries.
	if got := MakeObjectName(strings.Repeat("é", 40), "", "pkey"); len(got) > 63 || !strings.HasSuffix(got, "é_pkey") {
		t.Fatalf("%q (%d)", got, len(got))
	}
}

// TestConcurrentDDL creates tables from many goroutines, several per name:
// exactly one wins each name, OIDs are unique, and the result survives
// reopen.
func TestConcurrentDDL(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	const names, tries = 12, 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := map[string]int{}
	oids := map[uint32]bool{}
	for g := 0; g < tries; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < names; i++ {
				name := fmt.Sprintf("t%d", (i+g)%names)
				tb, err := c.CreateTable(&Table{Name: name, Columns: []Column{{Name: "k", TypeOID: 23, Typmod: -1}},
					Indexes: []Index{{Name: name + "_pkey", Columns: []int16{1}, Primary: true}}})
				if err != nil {
					if pgerr.CodeOf(err) != pgerr.DuplicateTable {
						t.Error(err)
					}
					continue
				}
				_ = c.Tables()
				mu.Lock()
				won[name]++
				for _, o := range []uint32{tb.OID, tb.Indexes[0].OID} {
					if oids[o] {
						t.Errorf("OID %d given twice", o)
					}
					oids[o] = true
				}
				mu.Unlock()
			}
		}(g)
	}
	wg.Wait()
	for i := 0; i < names; i++ {
		if n := won[fmt.Sprintf("t%d", i)]; n != 1 {
			t.Fatalf("t%d created %d times", i, n)
		}
	}
	check(t, c)
	c.Close()
	c = mustOpen(t, dir)
	defer c.Close()
	check(t, c)
	if len(c.Tables()) != names {
		t.Fatalf("%d tables after reopen", len(c.Tables()))
	}
}

// TestCrashAtomicity simulates power loss with pebble's strict in-memory
// file system: an acknowledged DDL is there after the crash, a DDL whose batch
// failed is not there at all, and a batch is all or nothing.
func TestCrashAtomicity(t *testing.T) {
	fs := vfs.NewStrictMem()
	// The data directory exists (and is durable) before the catalog opens.
	if err := fs.MkdirAll("cat", 0o755); err != nil {
		t.Fatal(err)
	}
	if d, err := fs.OpenDir(""); err != nil {
		t.Fatal(err)
	} else if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	crash := func(c *Catalog) *Catalog {
		t.Helper()
		fs.SetIgnoreSyncs(true)
		c.db.Close()
		fs.ResetToSyncedState()
		fs.SetIgnoreSyncs(false)
		c2, err := open("cat", fs)
		if err != nil {
			t.Fatal(err)
		}
		return c2
	}
	c, err := open("cat", fs)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := c.CreateTable(orders())
	if err != nil {
		t.Fatal(err)
	}
	c = crash(c)
	got, ok := c.Table("orders")
	if !ok || len(got.Indexes) != 1 || !c.RelationExists("orders_pkey") {
		t.Fatal("acknowledged CREATE TABLE lost in a crash")
	}

	// A batch that is not synced before the crash vanishes entirely: the
	// table, its index and the OID counter.
	c.commit = func(b *pebble.Batch) error { return b.Commit(pebble.NoSync) }
	if _, err := c.CreateTable(&Table{Name: "lost", Columns: []Column{{Name: "a"}},
		Indexes: []Index{{Name: "lost_pkey", Columns: []int16{1}, Primary: true}}}); err != nil {
		t.Fatal(err)
	}
	c = crash(c)
	if c.RelationExists("lost") || c.RelationExists("lost_pkey") {
		t.Fatal("part of an unsynced batch survived")
	}
	// A batch that fails to commit changes nothing, in memory or on disk.
	c.commit = func(*pebble.Batch) error { return errors.New("injected") }
	if _, err := c.DropTable(tb.OID); err == nil {
		t.Fatal("failed commit reported success")
	}
	if _, ok := c.Table("orders"); !ok {
		t.Fatal("failed DROP removed the table from the cache")
	}
	c = crash(c)
	if _, ok := c.Table("orders"); !ok {
		t.Fatal("failed DROP removed the table")
	}
	nt, err := c.CreateTable(&Table{Name: "next"})
	if err != nil || nt.OID != tb.Indexes[0].OID+1 {
		t.Fatalf("after crashes: oid %d err %v", nt.OID, err)
	}
	check(t, c)
	c.Close()
}

func TestCorruptEntry(t *testing.T) {
	fs := vfs.NewMem()
	c, err := open("cat", fs)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.db.Set(tableKey(20000), []byte("{not json"), pebble.Sync); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if _, err := open("cat", fs); !pgerr.IsCorruption(err) {
		t.Fatalf("open with a corrupt entry: %v", err)
	}
}

// TestCheckFindsDamage: Check reports a cache that disagrees with the store.
func TestCheckFindsDamage(t *testing.T) {
	c := mustOpen(t, t.TempDir())
	defer c.Close()
	tb, err := c.CreateTable(orders())
	if err != nil {
		t.Fatal(err)
	}
	check(t, c)
	bad := tb.Clone()
	bad.Columns[0].NotNull = false
	c.mu.byOID[tb.OID] = bad
	if err := c.Check(); !pgerr.IsCorruption(err) {
		t.Fatalf("Check = %v", err)
	}
}

// TestHideUnhide: HideTable frees the table's and its indexes' names and
// keeps the originals (across a reopen); UnhideTable gives them back, or
// 42P07 while one is taken; ClearCreated forgets the creator's xid.
func TestHideUnhide(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	def := orders()
	def.CreatedXid = 7
	tb, err := c.CreateTable(def)
	if err != nil {
		t.Fatal(err)
	}
	// A user table already has the name the hidden table would take.
	if _, err := c.CreateTable(&Table{Name: fmt.Sprintf("pg_dropped_%d", tb.OID), Columns: []Column{{Name: "a", TypeOID: 23, Typmod: -1}}}); err != nil {
		t.Fatal(err)
	}
	if tb.CreatedXid != 7 {
		t.Fatalf("CreatedXid %d", tb.CreatedXid)
	}
	if err := c.ClearCreated(tb.OID); err != nil {
		t.Fatal(err)
	}
	h, err := c.HideTable(tb.OID, 9)
	if err != nil {
		t.Fatal(err)
	}
	if h.Name == "orders" || h.Indexes[0].Name == "orders_pkey" || h.Dropping == nil || h.Dropping.Xid != 9 || h.CreatedXid != 0 {
		t.Fatalf("hidden: %+v", h)
	}
	if _, ok := c.Table("orders"); ok {
		t.Fatal("the hidden table is found by its name")
	}
	if _, ok := c.Table(h.Name); ok {
		t.Fatal("the hidden table is found by its hidden name")
	}
	if u, ok := c.Table(fmt.Sprintf("pg_dropped_%d", tb.OID)); !ok || u.OID == tb.OID {
		t.Fatal("the user's table lost its name to the hidden one")
	}
	if _, err := c.HideTable(tb.OID, 10); err == nil {
		t.Fatal("a hidden table was hidden again")
	}
	check(t, c)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = mustOpen(t, dir)
	defer c.Close()
	h, _ = c.TableByOID(tb.OID)
	if h.Dropping == nil || h.Dropping.Name != "orders" || h.Dropping.Indexes[0] != "orders_pkey" {
		t.Fatalf("after reopen: %+v", h.Dropping)
	}
	// A new table takes the name; giving it back fails until it is gone.
	other, err := c.CreateTable(orders())
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.UnhideTable(tb.OID)
	wantCode(t, err, pgerr.DuplicateTable)
	if _, err := c.DropTable(other.OID); err != nil {
		t.Fatal(err)
	}
	u, err := c.UnhideTable(tb.OID)
	if err != nil {
		t.Fatal(err)
	}
	if u.Name != "orders" || u.Indexes[0].Name != "orders_pkey" || u.Dropping != nil {
		t.Fatalf("given back: %+v", u)
	}
	if got, ok := c.Table("orders"); !ok || got.OID != tb.OID {
		t.Fatal("the table is not found by its name again")
	}
	check(t, c)
}
