//go:build invariants

package txn

const invariants = true
