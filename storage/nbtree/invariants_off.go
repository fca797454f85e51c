//go:build !invariants

package nbtree

// invariants enables per-operation page assertions (build tag "invariants").
const invariants = false
