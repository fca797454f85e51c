//go:build !invariants

package txn

const invariants = false
