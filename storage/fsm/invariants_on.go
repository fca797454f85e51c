//go:build invariants

package fsm

// invariants turns on the self-checks that `make test` runs with.
const invariants = true
