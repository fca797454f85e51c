// Command minipg is the minipg server. Its flags follow postgres(1):
//
//	minipg [-D datadir] [-p port] [-h listen_address] [-c name=value ...] [--name=value ...]
//
// -D defaults to ./data (created on first start), -p to 5433, -h to
// 127.0.0.1 ("*" listens on all interfaces, which needs a password or an
// hba file); the server also listens on a Unix-domain socket in
// unix_socket_directories. Any setting can be given as
// -c name=value (repeatable), for example shared_buffers=128MB,
// fsm_policy=classic, max_connections=200, log_level=debug. The settings go to the executor,
// which reports them with SHOW, except those the server keeps for itself:
//
//	password          the password clients give (also $MINIPG_PASSWORD); unset:
//	                  loopback and Unix-socket clients are trusted, others refused
//	auth_method       scram-sha-256 (default with a password), md5 or password:
//	                  the method of the built-in rules (an hba file names its own)
//	ssl               on: answer SSLRequest and serve TLS (default off)
//	ssl_cert_file     server certificate chain, PEM (default server.crt in -D)
//	ssl_key_file      its private key, PEM, mode 0600 (default server.key in -D)
//	unix_socket_directories  comma-separated directories for the socket
//	                  .s.PGSQL.<port> and its lock file (default /tmp; empty: none)
//	hba_file          pg_hba.conf-format rules for who may connect and how
//	                  (default: pg_hba.conf in -D if it exists; else built-in
//	                  rules: with a password everyone authenticates, without
//	                  one only loopback and Unix-socket clients, trusted)
//	max_message_size  largest frontend message in bytes (default 1GB - 1)
//	log_level         debug, info (default), warn or error
//	debug_pprof_addr  host:port of a net/http/pprof listener (loopback only;
//	                  default empty: none); see pprof.go
//
// The Go garbage collector runs with GOGC=200 unless the environment sets
// GOGC (see defaultGOGC).
//
// SIGINT or SIGTERM stops accepting, terminates the connections, flushes
// dirty pages (Engine.Close) and exits 0. A failed write or fsync of the WAL
// is PostgreSQL's PANIC: the process logs it and exits with status 3 at
// once, without flushing anything; the next start recovers from the WAL.
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"minipg/executor"
	"minipg/server"
	"minipg/server/execbackend"
	"minipg/storage/wal"
)

// defaultGOGC is the server's GOGC when the environment sets none. The
// live heap is mostly the in-memory indexes, full of pointers, so each
// collection costs a scan of all of them; letting the heap grow to three
// times the live data instead of two halves the collections. In the TPC-C
// mix (1 warehouse, 4 terminals) it took the collector's CPU from 0.22 to
// 0.09 ms per transaction, for a peak heap of 220 MB instead of 140 MB.
const defaultGOGC = 200

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGOGC)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "minipg:", err)
		os.Exit(1)
	}
}

// panicExitCode is the exit status after a PANIC (see run), and
// panicExitDelay how long the process lives on after it.
const (
	panicExitCode  = 3
	panicExitDelay = 200 * time.Millisecond
)

// settingsFlag collects repeated -c name=value.
type settingsFlag map[string]string

func (s settingsFlag) String() string { return "" }

func (s settingsFlag) Set(v string) error {
	name, val, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("-c %s: want name=value", v)
	}
	// Names are case-insensitive and may use '-' for '_', as in postgres.
	s[strings.ReplaceAll(strings.ToLower(name), "-", "_")] = strings.TrimSpace(val)
	return nil
}

// options is the parsed command line.
type options struct {
	dataDir  string
	host     string // the listen address as given ("" for all interfaces)
	addr     string
	settings map[string]string
}

func parseArgs(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("minipg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("D", "data", "data directory (created if absent)")
	port := fs.Int("p", 5433, "TCP port")
	host := fs.String("h", "127.0.0.1", `listen address ("*" for all)`)
	settings := settingsFlag{}
	fs.Var(settings, "c", "setting name=value (repeatable)")
	// postgres also takes any setting as --name=value.
	var rewritten []string
	for _, a := range args {
		if name, _, ok := strings.Cut(strings.TrimPrefix(a, "--"), "="); ok && strings.HasPrefix(a, "--") &&
			name != "D" && name != "p" && name != "h" && name != "c" {
			rewritten = append(rewritten, "-c", a[2:])
			continue
		}
		rewritten = append(rewritten, a)
	}
	args = rewritten
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	explicit := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { explicit[f.Name] = true })
	if v, ok := settings["port"]; ok && !explicit["p"] {
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fmt.Errorf("invalid value for parameter \"port\": %q", v)
		}
		*port = n
	}
	if v, ok := settings["listen_addresses"]; ok && !explicit["h"] {
		*host = v
	}
	h := *host
	if h == "*" {
		h = ""
	}
	return &options{dataDir: *dataDir, host: h, addr: net.JoinHostPort(h, strconv.Itoa(*port)), settings: settings}, nil
}

// parseBytes parses a memory setting as postgres does: a number with an
// optional unit (B, kB, MB, GB, TB); a bare number counts blockUnit bytes.
func parseBytes(s string, blockUnit int64) (int64, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9') {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid value %q", s)
	}
	unit := strings.TrimSpace(s[i:])
	mult := map[string]int64{"": blockUnit, "B": 1, "kB": 1 << 10, "MB": 1 << 20, "GB": 1 << 30, "TB": 1 << 40}[unit]
	if mult == 0 {
		return 0, fmt.Errorf("invalid value %q: valid units are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\"", s)
	}
	return n * mult, nil
}

// hbaPath is the hba file to read: hba_file (relative to the data
// directory, as PostgreSQL reads it after moving there), else
// pg_hba.conf in the data directory if it exists; "" for the built-in
// rules.
func hbaPath(opts *options) string {
	if f := opts.settings["hba_file"]; f != "" {
		if !filepath.IsAbs(f) {
			f = filepath.Join(opts.dataDir, f)
		}
		return f
	}
	f := filepath.Join(opts.dataDir, "pg_hba.conf")
	if _, err := os.Stat(f); err == nil {
		return f
	}
	return ""
}

// loadTLS reads the certificate and key when ssl is on. As in PostgreSQL,
// relative file names are taken from the data directory.
func loadTLS(opts *options) (*tls.Config, error) {
	on := false
	if v, ok := opts.settings["ssl"]; ok {
		switch strings.ToLower(v) {
		case "on", "true", "yes", "1":
			on = true
		case "off", "false", "no", "0":
		default:
			return nil, fmt.Errorf("parameter \"ssl\" requires a Boolean value")
		}
	}
	if !on {
		return nil, nil
	}
	file := func(name, def string) string {
		f := opts.settings[name]
		if f == "" {
			f = def
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(opts.dataDir, f)
		}
		return f
	}
	return server.LoadTLS(file("ssl_cert_file", "server.crt"), file("ssl_key_file", "server.key"))
}

// loopbackHost reports whether host (a listen address; "" is every
// interface) names only loopback addresses.
func loopbackHost(host string) bool {
	if host == "" {
		return false
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return false
		}
	}
	return true
}

// run starts the server and blocks until ctx is cancelled. ready, if not
// nil, receives the listening address.
func run(ctx context.Context, args []string, stderr io.Writer, ready func(net.Addr)) error {
	opts, err := parseArgs(args, stderr)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if v, ok := opts.settings["log_level"]; ok {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			return fmt.Errorf("log_level: %v", err)
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	// Settings the server keeps; the rest go to the executor.
	password := os.Getenv("MINIPG_PASSWORD")
	if v, ok := opts.settings["password"]; ok {
		password = v
	}
	authMethod := opts.settings["auth_method"]
	var hba *server.HBA
	if path := hbaPath(opts); path != "" {
		if hba, err = server.LoadHBA(path); err != nil {
			return err
		}
	} else if password == "" && !loopbackHost(opts.host) {
		return fmt.Errorf("refusing to listen on %q with no password and no hba_file: "+
			"clients there could not authenticate; set password (or $MINIPG_PASSWORD) "+
			"for SCRAM-SHA-256, or hba_file with rules for them, or listen on a loopback address", opts.addr)
	}
	tlsConfig, err := loadTLS(opts)
	if err != nil {
		return err
	}
	maxMsg := 0
	if v, ok := opts.settings["max_message_size"]; ok {
		n, err := parseBytes(v, 1)
		if err != nil || n <= 0 || n > 1<<30 {
			return fmt.Errorf("max_message_size: invalid value %q", v)
		}
		maxMsg = int(n)
	}
	maxConns := 0
	if v, ok := opts.settings["max_connections"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("max_connections: invalid value %q", v)
		}
		maxConns = n // also kept in the executor's settings, for SHOW
	}
	engSettings := make(map[string]string, len(opts.settings))
	for k, v := range opts.settings {
		switch k {
		case "password", "auth_method", "hba_file", "ssl", "ssl_cert_file", "ssl_key_file", "unix_socket_directories",
			"max_message_size", "log_level", "port", "listen_addresses":
			continue
		}
		engSettings[k] = v
	}
	var sharedBuffers int64
	if v, ok := opts.settings["shared_buffers"]; ok {
		if sharedBuffers, err = parseBytes(v, 8192); err != nil {
			return fmt.Errorf("shared_buffers: %v", err)
		}
		if sharedBuffers < 16*8192 {
			return fmt.Errorf("shared_buffers: %s is less than the minimum of 128kB", v)
		}
	}

	// A failed WAL write or fsync is PostgreSQL's PANIC: no retry, no
	// shutdown checkpoint; the process ends and the next start recovers
	// from the WAL that is durable. The short delay lets the session that
	// met the failure report its error to its client.
	wal.SetPanicHandler(func(err error) {
		log.Error("PANIC: terminating the server: a write or fsync of the write-ahead log failed; restart it to run crash recovery", "err", err)
		time.AfterFunc(panicExitDelay, func() { os.Exit(panicExitCode) })
	})
	defer wal.SetPanicHandler(nil)

	if v := opts.settings["debug_pprof_addr"]; v != "" {
		stopPprof, err := startPprof(v, log)
		if err != nil {
			return err
		}
		defer stopPprof()
	}

	if err := os.MkdirAll(opts.dataDir, 0o700); err != nil {
		return err
	}
	eng, err := executor.Open(executor.Config{DataDir: opts.dataDir, SharedBuffers: sharedBuffers, Settings: engSettings}, log)
	if err != nil {
		return fmt.Errorf("opening %s: %w", opts.dataDir, err)
	}
	srv, err := server.New(server.Config{
		Backend:        execbackend.New(eng),
		Logger:         log,
		Password:       password,
		AuthMethod:     authMethod,
		HBA:            hba,
		TLS:            tlsConfig,
		MaxMessageSize: maxMsg,
		MaxConnections: maxConns,
	})
	if err != nil {
		_ = eng.Close()
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		_ = eng.Close()
		return err
	}
	lns := []net.Listener{ln}
	socketDirs := "/tmp"
	if v, ok := opts.settings["unix_socket_directories"]; ok {
		socketDirs = v
	}
	for _, dir := range strings.Split(socketDirs, ",") {
		if dir = strings.TrimSpace(dir); dir == "" {
			continue
		}
		uln, err := server.ListenUnix(dir, ln.Addr().(*net.TCPAddr).Port, opts.dataDir)
		if err != nil {
			for _, l := range lns {
				_ = l.Close()
			}
			_ = eng.Close()
			return err
		}
		log.Info("listening on Unix socket", "path", uln.Addr().String())
		lns = append(lns, uln)
	}
	rules := srv.AuthRules()
	log.Info("client authentication", "source", rules.Source, "rules", rules.Summary(), "ssl", tlsConfig != nil)
	log.Info("database system is ready to accept connections", "addr", ln.Addr().String(), "datadir", opts.dataDir)
	if ready != nil {
		ready(ln.Addr())
	}
	serveErr := srv.ServeListeners(ctx, lns...)
	log.Info("shutting down")
	closeErr := eng.Close()
	if err := errors.Join(serveErr, closeErr); err != nil {
		return err
	}
	log.Info("database system is shut down")
	return nil
}
