package txn

import "testing"

func BenchmarkBeginXidCommit(b *testing.B) {
	m, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			tx := m.Begin()
			_ = tx.Snapshot()
			if _, err := tx.Xid(); err != nil {
				b.Error(err)
				return
			}
			if err := tx.Commit(); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkStatus(b *testing.B) {
	m, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 1000; i++ {
		tx := m.Begin()
		if _, err := tx.Xid(); err != nil {
			b.Fatal(err)
		}
		_ = tx.Commit()
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		x := FirstNormalXid
		for pb.Next() {
			_ = m.Status(x)
			if x++; x > 1000 {
				x = FirstNormalXid
			}
		}
	})
}
