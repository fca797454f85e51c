package catalog

import "testing"

// TestComments: comments survive a reopen; an empty text removes one.
func TestComments(t *testing.T) {
	dir := t.TempDir()
	c := mustOpen(t, dir)
	for _, cm := range []Comment{{ObjOID: 16400, ClassOID: 1259, Text: "table"}, {ObjOID: 16400, ClassOID: 1259, ObjSubID: 2, Text: "column"},
		{ObjOID: 2200, ClassOID: 2615, Text: "schema"}} {
		if err := c.SetComment(cm.ClassOID, cm.ObjOID, cm.ObjSubID, cm.Text); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.SetComment(1259, 16400, 0, ""); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c = mustOpen(t, dir)
	defer c.Close()
	got := c.Comments()
	if len(got) != 2 || got[0] != (Comment{ObjOID: 2200, ClassOID: 2615, Text: "schema"}) ||
		got[1] != (Comment{ObjOID: 16400, ClassOID: 1259, ObjSubID: 2, Text: "column"}) {
		t.Fatalf("comments after reopening: %+v", got)
	}
	if c.CommentOf(1259, 16400, 2) != "column" || c.CommentOf(1259, 16400, 0) != "" {
		t.Fatal("CommentOf")
	}
}
