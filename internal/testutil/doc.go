// Package testutil holds what the wire-level tests of several packages
// share: a loopback listener served until the test ends (ServeLoopback),
// the reference PostgreSQL 15 that proves their expectations
// (ReferencePostgres), and the one-line rendering of backend messages the
// wire scripts compare (Summarize).
//
// It is imported only by _test.go files. Every helper takes the test's
// testing.TB, reports failures through it and releases what it starts
// with t.Cleanup; none keeps state between calls, so tests using it may
// run in parallel.
package testutil
