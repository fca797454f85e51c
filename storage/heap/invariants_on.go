//go:build invariants

package heap

// invariants enables per-operation page assertions (build tag "invariants").
const invariants = true
