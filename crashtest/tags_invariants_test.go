//go:build invariants

package crashtest

// The child server is built with the invariant checks too.
func init() { buildTags = "invariants" }
