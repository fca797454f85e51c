package tpcc

import (
	"math/rand/v2"
	"strings"
)

// Rand draws the random values TPC-C clause 2.1.6 and 4.3.2 prescribe. It is
// not safe for concurrent use: give every loader worker and terminal its own.
type Rand struct {
	r *rand.Rand
	// C is the run-time constant of NURand for A = 255 (C_LAST), 1023
	// (C_ID) and 8191 (OL_I_ID), clause 2.1.6.
	CLast, CID, IID int
}

// NewRand returns a generator seeded with seed whose NURand constants are
// drawn at random, as the loader does.
func NewRand(seed uint64) *Rand {
	r := &Rand{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	r.CLast = r.Int(0, 255)
	r.CID = r.Int(0, 1023)
	r.IID = r.Int(0, 8191)
	return r
}

// NewRunRand returns a generator for the measurement interval whose C_LAST
// constant differs from the load's as clause 2.1.6.1 requires: the delta
// lies in 65..119 and is neither 96 nor 112. C_ID and OL_I_ID constants
// are kept, as BenchmarkSQL keeps them.
func NewRunRand(seed uint64, loadCLast, loadCID, loadIID int) *Rand {
	r := NewRand(seed)
	r.CID, r.IID = loadCID, loadIID
	for {
		c := r.Int(0, 255)
		if ValidCLastDelta(loadCLast, c) {
			r.CLast = c
			return r
		}
	}
}

// ValidCLastDelta reports whether run constant run may follow load constant
// load (clause 2.1.6.1).
func ValidCLastDelta(load, run int) bool {
	d := run - load
	if d < 0 {
		d = -d
	}
	return d >= 65 && d <= 119 && d != 96 && d != 112
}

// Int returns a uniform integer in [lo, hi].
func (r *Rand) Int(lo, hi int) int {
	return lo + r.r.IntN(hi-lo+1)
}

// NURand is the non-uniform random function of clause 2.1.6:
// (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x,
// with C the generator's constant for A (255, 1023 or 8191).
func (r *Rand) NURand(a, x, y int) int {
	var c int
	switch a {
	case 255:
		c = r.CLast
	case 1023:
		c = r.CID
	case 8191:
		c = r.IID
	}
	return nurand(r.Int(0, a), r.Int(x, y), c, x, y)
}

// nurand is NURand with its two uniform draws given, for tests.
func nurand(ra, rxy, c, x, y int) int {
	return (((ra | rxy) + c) % (y - x + 1)) + x
}

var syllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// LastName returns C_LAST for n in 0..999: the syllables of its three
// decimal digits (clause 4.3.2.3), e.g. 371 -> "PRICALLYOUGHT".
func LastName(n int) string {
	return syllables[n/100] + syllables[n/10%10] + syllables[n%10]
}

// CLastNumber returns the number (0..999, or 0..n-1 when a district has
// fewer than 1,000 customers) whose LastName a Payment or Order-Status
// transaction looks up: NURand(255, 0, 999).
func (r *Rand) CLastNumber(customers int) int {
	n := r.NURand(255, 0, 999)
	if customers < 1000 {
		n %= customers
	}
	return n
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// AString returns a random alphanumeric string of length lo..hi
// (clause 4.3.2.2 a-string).
func (r *Rand) AString(lo, hi int) string {
	n := r.Int(lo, hi)
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[r.r.IntN(len(alnum))]
	}
	return string(b)
}

// NString returns a random numeric string of length lo..hi (n-string).
func (r *Rand) NString(lo, hi int) string {
	n := r.Int(lo, hi)
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + r.r.IntN(10))
	}
	return string(b)
}

// State returns a random two-letter state (a-string of upper-case letters).
func (r *Rand) State() string {
	return string([]byte{byte('A' + r.r.IntN(26)), byte('A' + r.r.IntN(26))})
}

// Zip returns a zip code: 4 random digits followed by "11111" (4.3.2.7).
func (r *Rand) Zip() string {
	return r.NString(4, 4) + "11111"
}

// Data returns I_DATA / S_DATA: an a-string of 26..50 characters, 10% of
// them with "ORIGINAL" at a random position (clause 4.3.3.1).
func (r *Rand) Data() string {
	if r.Int(1, 100) > 10 {
		return r.AString(26, 50)
	}
	n := r.Int(26, 50)
	off := r.Int(0, n-8)
	return r.AString(off, off) + "ORIGINAL" + r.AString(n-off-8, n-off-8)
}

// Perm returns a random permutation of 1..n (the O_C_ID of the initial
// orders of a district, clause 4.3.3.1).
func (r *Rand) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i + 1
	}
	r.r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// IsLastName reports whether s is made of three C_LAST syllables.
func IsLastName(s string) bool {
	for k := 0; k < 3; k++ {
		found := false
		for _, syl := range syllables {
			if strings.HasPrefix(s, syl) {
				s = s[len(syl):]
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return s == ""
}
