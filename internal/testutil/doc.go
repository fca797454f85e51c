// Package testutil holds what the wire-level tests of several packages
// share: a loopback listener served until the test ends (ServeLoopback),
// the reference PostgreSQL 15 that proves their expectations
// (ReferencePostgres), the one-line rendering of backend messages the
// wire scripts compare (Summarize), and a throwaway CA with a server
// certificate for loopback made at test time (MakeTLSFiles), and the
// index storage MINIPG_TEST_INDEX_STORAGE asks the test servers to use
// instead of the default, disk (IndexStorageSettings, IndexStorageArgs).
//
// It is imported only by _test.go files. Every helper takes the test's
// testing.TB, reports failures through it and releases what it starts
// with t.Cleanup; none keeps state between calls, so tests using it may
// run in parallel.
package testutil
