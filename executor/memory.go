package executor

// A session's bound on the memory a statement keeps: the rows and keys of
// DISTINCT, GROUP BY, the window stage, hashed or kept join inputs, FULL JOIN's right side,
// IN (SELECT ...) value sets and RETURNING rows, which stay in memory until
// the statement ends
// (ORDER BY spills to disk past work_mem instead, spill.go). Past
// session_memory_limit the statement fails with 53200, as PostgreSQL fails
// when an allocation is refused, and the session and server go on.

import (
	"math"

	"minipg/pgerr"
	"minipg/types"
)

// memAccount counts the bytes a statement holds. A session runs one
// statement at a time; reset starts the count again.
type memAccount struct {
	used, limit int64
}

// reset starts a statement: nothing held, limit bytes allowed (0: none).
func (m *memAccount) reset(limit int64) { m.used, m.limit = 0, limit }

// charge counts n more bytes, failing with 53200 past the limit.
func (m *memAccount) charge(n int64) error {
	if m == nil {
		return nil
	}
	m.used += n
	if m.limit > 0 && m.used > m.limit {
		return pgerr.New(pgerr.OutOfMemory, "out of memory").
			WithDetail("The statement holds more than session_memory_limit (%s) in memory.", formatMemory(m.limit)).
			WithHint("DISTINCT, GROUP BY, window functions, joins of subqueries and IN (SELECT ...) keep their rows in memory; raise session_memory_limit or narrow the query.")
	}
	return nil
}

// release gives back n bytes counted before.
func (m *memAccount) release(n int64) {
	if m != nil {
		m.used -= n
	}
}

// chargeRows counts materialized rows.
func (m *memAccount) chargeRows(rows [][]types.Datum) (int64, error) {
	var n int64
	for _, r := range rows {
		n += rowSize(r)
	}
	return n, m.charge(n)
}

// sessionMemoryLimit is the session's session_memory_limit in bytes.
func (s *Session) sessionMemoryLimit() int64 {
	v, _ := s.Setting("session_memory_limit")
	kb, err := parseKB("session_memory_limit", v, 1024, math.MaxInt32)
	if err != nil {
		return 1 << 30
	}
	return kb << 10
}
