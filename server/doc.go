// Package server implements the PostgreSQL v3 wire protocol for minipg:
// connection start-up, authentication, the simple and extended query
// protocols, COPY FROM STDIN, cancellation and error reporting. It turns
// bytes on a socket into calls on a Backend (the SQL engine) and the
// engine's rows and errors back into protocol messages. Only this package
// turns errors into ErrorResponse.
//
// # Layers
//
// The server is split so that each layer can be tested on its own:
//
//   - Message framing is github.com/jackc/pgx/v5/pgproto3's Backend: it
//     reads a message (type byte, int32 length, body) and decodes it into a
//     struct, and encodes the replies into an output buffer. The server
//     never parses message bodies by hand, except the start-up packet,
//     whose codes (SSLRequest, GSSENCRequest, CancelRequest, protocol
//     versions) it must see before pgproto3 would reject them.
//   - The connection (conn.go) owns one socket, one pgproto3.Backend and
//     one Session, runs the message loop in one goroutine and keeps the
//     protocol state: prepared statements and portals by name, "skip until
//     Sync" after an extended-protocol error, the running statement's
//     cancel function.
//   - The engine is reached only through the Backend/Session/Portal
//     interfaces in backend.go, which mirror the executor's API; package
//     server/execbackend adapts the real executor. Wire-level tests use a
//     fake engine (fake_test.go) and scripts of pgproto3 messages.
//   - Encoding of values (encode.go) is package types: text output
//     (typoutput) or binary (typsend) per result column, text input or
//     binary receive per parameter, chosen by the format codes of Bind.
//
// # Connection lifecycle
//
//  1. Server.Serve (or ServeListeners, for a TCP port and Unix-domain
//     sockets made by ListenUnix, unixsock.go) accepts a connection and
//     starts a goroutine (ServeConn).
//  2. Start-up (handshake.go): the client may first send SSLRequest and/or
//     GSSENCRequest. With Config.TLS (ssl=on) SSLRequest is answered 'S'
//     and the TLS handshake (crypto/tls, TLS 1.2 or newer) runs on the
//     socket, which nothing has been read from beyond the request, so no
//     plaintext can be injected ahead of it (tls.go); otherwise, and always
//     on a Unix-domain socket, it gets 'N' and the client continues in the
//     clear or gives up (sslmode=require). GSSENCRequest always gets 'N',
//     as from a PostgreSQL built without GSSAPI. A CancelRequest is
//     served and the connection closed without reply. A protocol major
//     version other than 3 is FATAL 0A000; a newer 3.x minor version or
//     "_pq_." protocol options get NegotiateProtocolVersion (3.0), as
//     PostgreSQL does.
//  3. Authentication (hba.go, auth.go): the first host-based
//     authentication rule (pg_hba.conf format) matching the connection
//     type (Unix socket, TCP with or without TLS), database, user and
//     client address says how: trust, reject, SCRAM-SHA-256 (RFC 5802/7677
//     via github.com/xdg-go/scram; over TLS also SCRAM-SHA-256-PLUS with
//     tls-server-end-point channel binding), MD5 or cleartext. The
//     built-in rules trust Unix-socket and loopback clients and refuse
//     others when the server has no password, and ask everyone for it when
//     it has one. No matching rule or a "reject" rule is FATAL 28000 with
//     PostgreSQL's "no pg_hba.conf entry for host ..." or "pg_hba.conf
//     rejects connection ..."; a wrong password is FATAL 28P01.
//  4. The connection gets a process id (FATAL 53300 past
//     Config.MaxConnections, 57P03 during shutdown), the session is created
//     (Backend.NewSession with the start-up parameters, to which the
//     "options" parameter's -c name=value switches are added; its first
//     ParamStatusChanges override the defaults below), and the server
//     sends AuthenticationOk, ParameterStatus for PostgreSQL 15's
//     GUC_REPORT settings (server_version, encodings, DateStyle, TimeZone,
//     integer_datetimes, standard_conforming_strings, ...), BackendKeyData
//     (process id and a random 4-byte secret) and ReadyForQuery.
//  5. The message loop (conn.go) runs until Terminate, a FATAL error or a
//     broken socket. On the way out the session is closed, which aborts an
//     open transaction. From here on the socket is read in one of two
//     modes (sockio.go): through Go's network poller, or, while no other
//     connection is busy, in blocking read(2) calls outside the poller, so
//     that a lone client's round trip wakes the connection's thread
//     directly, as PostgreSQL's backend process is woken.
//
// # Simple versus extended protocol
//
// A Query message (query.go) may hold several statements. They are split
// by the engine (SplitQuery) and each is prepared, bound and run in turn:
// RowDescription, DataRows in text, CommandComplete. The first error is
// sent and the rest of the message skipped. Then Session.Sync ends the
// implicit transaction (commit, or rollback after an error) and
// ReadyForQuery carries the transaction status (I, T or E). A message with
// no statement gets EmptyQueryResponse. Error positions count from the
// start of the whole message, as PostgreSQL reports them; a message
// without a semicolon is passed to Prepare whole, without SplitQuery. If SplitQuery itself fails (a
// syntax error), the whole string is handed to Prepare so that the engine
// reports the error with its position and fails an open transaction block.
//
// The extended protocol (extended.go) separates Parse (named or unnamed
// statement; parameter types may be left 0 for the engine to infer), Bind
// (a portal with parameter values and result format codes: none = all
// text, one = for all columns, or one per column), Describe (statement:
// ParameterDescription and RowDescription or NoData; portal: RowDescription
// with the bound formats), Execute (with a row limit: PortalSuspended when
// rows remain), Close, Flush and Sync. Replies are buffered until Sync,
// Flush or 64 kB of rows. After an error every message up to Sync is
// discarded; Sync ends the implicit transaction and sends ReadyForQuery.
// Portals live until the end of their transaction (they are dropped when
// ReadyForQuery would say I); a simple Query drops the unnamed statement
// and portal, as PostgreSQL does.
//
// COPY FROM STDIN (copy.go) is entered from either protocol when the
// statement is a COPY: CopyInResponse (the format and per-column formats
// from the portal), then the CopyData payloads are handed to the engine as
// one io.Reader that returns io.EOF at CopyDone and a 57014 error at
// CopyFail. Flush and Sync are ignored during COPY; another message is an
// ERROR followed by FATAL ("protocol synchronization was lost"). When the
// engine fails mid-stream, the error is sent at once and the message loop
// ignores the CopyData/CopyDone/CopyFail the client still sends.
//
// # Cancellation
//
// Every Query message and every Execute runs under a context that a
// CancelRequest can cancel (cancel.go): a client opens a new connection
// and sends the process id and secret from BackendKeyData; the server
// finds the connection and cancels its running statement's context, and
// the engine fails the statement with 57014. A request with an unknown id
// or wrong secret is ignored. Server shutdown (cancelling Serve's context)
// cancels the running statements, fails the next read of every connection
// (shutdown(2) of the socket's read side, which also wakes a connection
// sleeping in read(2)) and sends FATAL 57P01 before closing it; a client
// that does not take its results gets two seconds before the socket is
// shut down altogether.
//
// Timeouts (timeout.go): each statement of a simple query and each Execute
// runs under the session's statement_timeout (a context whose cause tells
// a timeout from a CancelRequest, so the error says "due to statement
// timeout"); while the connection waits inside a transaction block, a timer
// of idle_in_transaction_session_timeout wakes the reader as shutdown does
// and the connection ends with FATAL 25P03. lock_timeout is passed to the
// engine on the statement's context (server/execbackend, txn.WithLockTimeout).
//
// # Errors and robustness
//
// Errors are *pgerr.Error; ErrorResponse carries severity (also the
// non-localized V field), SQLSTATE, message, detail, hint, position and
// context (W: COPY's line and column of a bad value).
// Errors that are not pgerr become XX000; a cancelled context is 57014. A
// malformed message (unknown type, bad length, undecodable body) is FATAL
// 08P01 and the connection is closed; so is a message over the maximum
// size (Config.MaxMessageSize, 1 GiB - 1 by default, as PostgreSQL's
// PQ_LARGE_MESSAGE_LIMIT). A panic in a connection goroutine is recovered,
// logged with its stack, reported as FATAL XX000 and the connection closed;
// other connections and the server go on. FuzzMessageLoop feeds random
// bytes to the message loop and FuzzStartup to the start-up and
// authentication phase. Start-up must complete within a minute (as
// authentication_timeout) and authentication messages are limited to 64 kB.
// A message body is allocated at its announced length before it arrives
// (as in PostgreSQL), so the maximum message size also bounds what one
// connection can make the server allocate.
//
// # Compatibility notes
//
//   - server_version is the engine's (15.18), or "15.0 (minipg)" when the
//     engine does not report one: libpq and psql read 150000 or more.
//   - There is no TLS and no GSSAPI; sslmode=prefer clients fall back to
//     the clear, sslmode=require clients fail.
//   - One password serves every user name (there are no roles); the user
//     name is reported as session_authorization.
//   - client_encoding is always UTF8.
//   - FunctionCall (fastpath) is answered with 0A000.
//   - A CancelRequest is matched against connections of this server
//     process only (there is one process).
//   - Unlike PostgreSQL, an unsupported result format code is rejected at
//     Bind rather than when the portal is described or run.
package server
