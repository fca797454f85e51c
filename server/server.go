package server

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxMessageSize is the largest frontend message body accepted, as
// PostgreSQL's PQ_LARGE_MESSAGE_LIMIT (MaxAllocSize - 1).
const DefaultMaxMessageSize = 1<<30 - 1

// ServerVersion is reported as the server_version parameter. libpq and
// psql parse its leading "15.0" as version 150000.
const ServerVersion = "15.0 (minipg)"

// Config configures a Server.
type Config struct {
	Backend Backend
	Logger  *slog.Logger // nil: slog.Default()

	// Password, when not empty, is required from every client; AuthMethod
	// says how it is checked: "scram-sha-256" (the default), "md5" or
	// "password" (cleartext). Empty Password means trust.
	Password   string
	AuthMethod string

	// HBA, when not nil, decides which clients may connect and how they
	// authenticate (see hba.go); nil means DefaultHBA(Password,
	// AuthMethod): without a password only Unix-socket and loopback
	// clients get in, trusted.
	HBA *HBA

	// TLS, when not nil, is ssl=on: SSLRequest is answered 'S' and the
	// connection continues over TLS with this configuration (see LoadTLS).
	TLS *tls.Config

	// MaxMessageSize bounds a frontend message body; 0 means
	// DefaultMaxMessageSize. A larger message is a FATAL 08P01.
	MaxMessageSize int

	// MaxConnections bounds the connections past start-up (max_connections);
	// 0 means 100, PostgreSQL's default. One more is FATAL 53300.
	MaxConnections int

	// peerIP overrides the address a TCP client is taken to come from
	// (tests: a loopback client seen as a remote one).
	peerIP func(net.Conn) net.IP

	// quietReads overrides defaultQuietReads (tests: 1 puts a lone
	// connection in blocking mode at once, -1 keeps every one on the poller).
	quietReads int
}

// Server accepts connections and runs one goroutine per connection.
//
// Lock order: Server.mu is a leaf; it is never held while calling into a
// connection or the backend.
type Server struct {
	cfg         Config
	log         *slog.Logger
	auth        *authenticator
	tlsEndPoint []byte // channel binding data of cfg.TLS's certificate

	nextPID atomic.Uint32
	busy    atomic.Int32   // connections not waiting for input (see sockio.go)
	wg      sync.WaitGroup // one per running connection goroutine

	mu struct {
		sync.Mutex
		all      map[*conn]struct{} // every connection being served, from accept on
		conns    map[uint32]*conn   // by BackendKeyData process id, once started up
		shutdown bool
	}
}

// New returns a server; call Serve to run it.
func New(cfg Config) (*Server, error) {
	if cfg.Backend == nil {
		return nil, errors.New("server: no backend")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = 100
	}
	if cfg.MaxMessageSize <= 0 {
		cfg.MaxMessageSize = DefaultMaxMessageSize
	}
	if cfg.quietReads == 0 {
		cfg.quietReads = defaultQuietReads
	}
	s := &Server{cfg: cfg, log: cfg.Logger}
	auth, err := newAuthenticator(cfg.Password, cfg.AuthMethod, cfg.HBA)
	if err != nil {
		return nil, err
	}
	s.auth = auth
	s.tlsEndPoint = tlsEndPointOf(cfg.TLS)
	s.mu.conns = make(map[uint32]*conn)
	s.mu.all = make(map[*conn]struct{})
	var b [2]byte
	_, _ = rand.Read(b[:])
	s.nextPID.Store(1000 + uint32(binary.BigEndian.Uint16(b[:]))) // looks like a pid, not guessable from 0
	if sb, ok := cfg.Backend.(SignalBackend); ok {
		sb.SetSignal(s.Signal)
	}
	return s, nil
}

// Signal cancels the statement the connection with pid runs (terminate
// false) or ends the connection with FATAL 57P01, as pg_cancel_backend and
// pg_terminate_backend do in PostgreSQL. It reports whether a connection
// has that pid. Safe from any goroutine.
func (s *Server) Signal(pid uint32, terminate bool) bool {
	c := s.lookup(pid)
	if c == nil {
		return false
	}
	if terminate {
		c.terminate()
	} else {
		c.cancelStatement()
	}
	return true
}

// Serve is New followed by Server.Serve.
func Serve(ctx context.Context, ln net.Listener, cfg Config) error {
	s, err := New(cfg)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln)
}

// Serve accepts connections on ln until ctx is cancelled, then stops
// accepting, terminates every connection (FATAL 57P01 after cancelling its
// running statement) and returns once all connection goroutines have ended.
// It closes ln. The backend is not closed: that is the caller's job, after
// Serve returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	return s.ServeListeners(ctx, ln)
}

// ServeListeners is Serve on several listeners at once (a TCP port and
// Unix-domain sockets). A listener that fails for good stops them all.
func (s *Server) ServeListeners(ctx context.Context, lns ...net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		for _, ln := range lns {
			_ = ln.Close()
		}
	}()
	errs := make(chan error, len(lns))
	for _, ln := range lns {
		go func() {
			err := s.acceptLoop(ctx, ln)
			if err != nil {
				cancel()
			}
			errs <- err
		}()
	}
	var acceptErr error
	for range lns {
		if err := <-errs; err != nil && acceptErr == nil {
			acceptErr = err
		}
	}
	s.Shutdown()
	s.wg.Wait()
	return acceptErr
}

// acceptLoop serves ln until ctx is done (nil) or Accept fails for good.
func (s *Server) acceptLoop(ctx context.Context, ln net.Listener) error {
	var tempDelay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				if tempDelay == 0 {
					tempDelay = 5 * time.Millisecond
				} else if tempDelay *= 2; tempDelay > time.Second {
					tempDelay = time.Second
				}
				time.Sleep(tempDelay)
				continue
			}
			return err
		}
		tempDelay = 0
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.ServeConn(ctx, nc)
		}()
	}
}

// Shutdown asks every connection to terminate: its running statement is
// cancelled and its next read fails, after which it sends FATAL 57P01 and
// closes. It does not wait; Serve does.
func (s *Server) Shutdown() {
	s.mu.Lock()
	s.mu.shutdown = true
	conns := make([]*conn, 0, len(s.mu.all))
	for c := range s.mu.all {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.terminate()
	}
}

// track adds c to the connections Shutdown terminates; it reports false
// when the server is shutting down.
func (s *Server) track(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.shutdown {
		return false
	}
	s.mu.all[c] = struct{}{}
	return true
}

func (s *Server) untrack(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.mu.all, c)
}

// register assigns c a process id and makes it reachable by CancelRequest.
// It fails when the server is shutting down or has max_connections
// connections.
func (s *Server) register(c *conn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.shutdown {
		return fatal(codeCannotConnectNow, "the database system is shutting down")
	}
	if len(s.mu.conns) >= s.cfg.MaxConnections {
		return fatal(codeTooManyConnections, "sorry, too many clients already")
	}
	for {
		pid := s.nextPID.Add(1)
		if pid == 0 {
			continue
		}
		if _, taken := s.mu.conns[pid]; !taken {
			c.pid = pid
			s.mu.conns[pid] = c
			return nil
		}
	}
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.conns[c.pid] == c {
		delete(s.mu.conns, c.pid)
	}
}

func (s *Server) lookup(pid uint32) *conn {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.conns[pid]
}

func (s *Server) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.shutdown
}

// peerIP is the address the client of TCP connection nc comes from (nil
// for a Unix-domain socket).
func (s *Server) peerIP(nc net.Conn) net.IP {
	if s.cfg.peerIP != nil && !isUnixConn(nc) {
		return s.cfg.peerIP(nc)
	}
	return peerIP(nc)
}

// AuthRules returns the host-based authentication rules in force, for the
// start-up log.
func (s *Server) AuthRules() *HBA { return s.auth.hba }
