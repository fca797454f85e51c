// Package pgxtest runs pgx clients against an in-process minipg server
// (the real executor on a temporary data directory, port 0): pgx's default
// mode (cached prepared statements, binary formats), the simple protocol
// and the other exec modes, Batch, CopyFrom, transactions, errors and
// cancellation. It has only tests; they live apart from package server so
// that the wire-level unit tests stay fast.
package pgxtest
