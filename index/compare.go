package index

// KeyCompare returns a CompareFunc from one comparison per column (such as
// func(a, b any) int { return types.Compare(t, a, b) } for the column's
// type). Column comparisons see non-NULL values only: a nil datum (NULL) sorts
// after every value, and two NULLs compare equal, which is PostgreSQL's
// default btree order (NULLS LAST). Keys are compared column by column up to
// the shorter length.
func KeyCompare(cols ...func(a, b any) int) CompareFunc {
	return func(a, b Key) int {
		n := min(len(a), len(b))
		for i := 0; i < n; i++ {
			x, y := a[i], b[i]
			switch {
			case x == nil && y == nil:
				continue
			case x == nil:
				return 1
			case y == nil:
				return -1
			}
			if c := cols[i](x, y); c != 0 {
				return c
			}
		}
		return 0
	}
}
