package executor

// pgQsort sorts a window's rows as PostgreSQL's tuplesort sorts them in
// memory (src/include/lib/sort_template.h, Bentley and McIlroy's
// quicksort with a presorted check): not a stable sort, so that rows the
// window's keys do not order (ties) come out in the order PostgreSQL
// gives them for the same input order.
func pgQsort(a []int, cmp func(x, y int) int) {
	c := func(i, j int) int { return cmp(a[i], a[j]) }
	swap := func(i, j int) { a[i], a[j] = a[j], a[i] }
	swapn := func(i, j, n int) {
		for k := 0; k < n; k++ {
			swap(i+k, j+k)
		}
	}
	med3 := func(x, y, z int) int {
		if c(x, y) < 0 {
			if c(y, z) < 0 {
				return y
			}
			if c(x, z) < 0 {
				return z
			}
			return x
		}
		if c(y, z) > 0 {
			return y
		}
		if c(x, z) < 0 {
			return x
		}
		return z
	}
	var sortRange func(lo, n int)
	sortRange = func(lo, n int) {
		for {
			if n < 7 {
				for pm := lo + 1; pm < lo+n; pm++ {
					for pl := pm; pl > lo && c(pl-1, pl) > 0; pl-- {
						swap(pl, pl-1)
					}
				}
				return
			}
			presorted := true
			for pm := lo + 1; pm < lo+n; pm++ {
				if c(pm-1, pm) > 0 {
					presorted = false
					break
				}
			}
			if presorted {
				return
			}
			pm := lo + n/2
			if n > 7 {
				pl, pn := lo, lo+n-1
				if n > 40 {
					d := n / 8
					pl = med3(pl, pl+d, pl+2*d)
					pm = med3(pm-d, pm, pm+d)
					pn = med3(pn-2*d, pn-d, pn)
				}
				pm = med3(pl, pm, pn)
			}
			swap(lo, pm)
			pa, pb := lo+1, lo+1
			pc, pd := lo+n-1, lo+n-1
			for {
				for pb <= pc {
					r := c(pb, lo)
					if r > 0 {
						break
					}
					if r == 0 {
						swap(pa, pb)
						pa++
					}
					pb++
				}
				for pb <= pc {
					r := c(pc, lo)
					if r < 0 {
						break
					}
					if r == 0 {
						swap(pc, pd)
						pd--
					}
					pc--
				}
				if pb > pc {
					break
				}
				swap(pb, pc)
				pb++
				pc--
			}
			pn := lo + n
			d1 := min(pa-lo, pb-pa)
			swapn(lo, pb-d1, d1)
			d1 = min(pd-pc, pn-pd-1)
			swapn(pb, pn-d1, d1)
			d1, d2 := pb-pa, pd-pc
			if d1 <= d2 {
				if d1 > 1 {
					sortRange(lo, d1)
				}
				if d2 <= 1 {
					return
				}
				lo, n = pn-d2, d2
			} else {
				if d2 > 1 {
					sortRange(pn-d2, d2)
				}
				if d1 <= 1 {
					return
				}
				n = d1
			}
		}
	}
	sortRange(0, len(a))
}
