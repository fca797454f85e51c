package server

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"

	"minipg/pgerr"
)

// Startup packet codes (pqcomm.h).
const (
	cancelRequestCode = 1234<<16 | 5678
	sslRequestCode    = 1234<<16 | 5679
	gssEncRequestCode = 1234<<16 | 5680

	protocolMajor = 3
	protocolMinor = 0 // the newest minor version served

	maxStartupPacketLen = 10000 // MAX_STARTUP_PACKET_LENGTH
)

// readStartupPacket reads one length-prefixed startup packet straight from
// the socket (nothing has been buffered yet) and returns its code and the
// rest of its body.
func (c *conn) readStartupPacket() (code uint32, body []byte, err error) {
	var hdr [4]byte
	if _, err := io.ReadFull(c.nc, hdr[:]); err != nil {
		return 0, nil, &ioError{err}
	}
	n := int(int32(binary.BigEndian.Uint32(hdr[:])))
	if n < 8 || n > maxStartupPacketLen {
		return 0, nil, fatal(pgerr.ProtocolViolation, "invalid length of startup packet")
	}
	buf := make([]byte, n-4)
	if _, err := io.ReadFull(c.nc, buf); err != nil {
		return 0, nil, &ioError{err}
	}
	return binary.BigEndian.Uint32(buf), buf[4:], nil
}

// handshake runs the startup phase: SSL/GSS negotiation (declined),
// CancelRequest, protocol version check, authentication, session start,
// ParameterStatus, BackendKeyData and the first ReadyForQuery. It returns
// false when the connection should be closed (errors were already sent).
func (c *conn) handshake() bool {
	err := c.startup()
	if err == nil {
		return true
	}
	if !isIOError(err) && err != errCancelDone {
		c.log.Info("connection rejected", "user", c.user, "err", err)
		c.sendError(err)
		_ = c.flush()
	}
	return false
}

// errCancelDone ends a connection that carried a CancelRequest.
var errCancelDone = &ioError{io.EOF}

func (c *conn) startup() error {
	sslDone, gssDone := false, false
	var code uint32
	var body []byte
	for {
		var err error
		code, body, err = c.readStartupPacket()
		if err != nil {
			return err
		}
		if code == sslRequestCode && !sslDone {
			// With ssl off answer 'N': the client goes on in the clear
			// (or gives up, as sslmode=require does).
			sslDone = true
			if c.srv.cfg.TLS != nil && !isUnixConn(c.nc) {
				if err := c.startTLS(); err != nil {
					return err
				}
				continue
			}
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return &ioError{err}
			}
			continue
		}
		if code == gssEncRequestCode && !gssDone {
			// No GSSAPI: 'N', as a PostgreSQL built without it answers.
			gssDone = true
			if _, err := c.nc.Write([]byte{'N'}); err != nil {
				return &ioError{err}
			}
			continue
		}
		if code == cancelRequestCode {
			if len(body) >= 8 {
				c.srv.handleCancel(binary.BigEndian.Uint32(body[:4]), body[4:])
			}
			return errCancelDone
		}
		break
	}

	major, minor := code>>16, code&0xffff
	if major != protocolMajor {
		return &pgerr.Error{Code: pgerr.FeatureNotSupported, Severity: pgerr.SeverityFatal,
			Message: fmt.Sprintf("unsupported frontend protocol %d.%d: server supports %d.0 to %d.%d",
				major, minor, protocolMajor, protocolMajor, protocolMinor)}
	}
	params, unrecognized, err := parseStartupParams(body)
	if err != nil {
		return err
	}
	if minor > protocolMinor || len(unrecognized) > 0 {
		c.send(&pgproto3.NegotiateProtocolVersion{NewestMinorProtocol: protocolMinor, UnrecognizedOptions: unrecognized})
	}
	c.user = params["user"]
	if c.user == "" {
		return fatal(pgerr.InvalidAuthorizationSpec, "no PostgreSQL user name specified in startup packet")
	}
	if params["database"] == "" {
		params["database"] = c.user
	}
	if opts, ok := params["options"]; ok {
		// Command-line switches for the backend (libpq's PGOPTIONS); the
		// startup packet's own parameters take precedence, as in PostgreSQL.
		settings, err := parseOptions(opts)
		if err != nil {
			return err
		}
		for name, val := range settings {
			if _, set := params[name]; !set {
				params[name] = val
			}
		}
		delete(params, "options")
	}

	client := hbaClient{local: isUnixConn(c.nc), ssl: c.ssl, ip: c.srv.peerIP(c.nc),
		database: params["database"], user: c.user}
	if err := c.srv.auth.authenticate(c, client); err != nil {
		return err
	}

	c.key = make([]byte, 4)
	_, _ = rand.Read(c.key)
	if err := c.srv.register(c); err != nil {
		return err
	}
	c.sess = c.srv.cfg.Backend.NewSession(params)
	c.attachActivity()

	c.send(&pgproto3.AuthenticationOk{})
	status := c.initialParameterStatus(params)
	for name, val := range c.sess.ParamStatusChanges() {
		status[name] = val
	}
	names := make([]string, 0, len(status))
	for name := range status {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return strings.ToLower(names[i]) < strings.ToLower(names[j]) })
	for _, name := range names {
		c.send(&pgproto3.ParameterStatus{Name: name, Value: status[name]})
	}
	c.send(&pgproto3.BackendKeyData{ProcessID: c.pid, SecretKey: c.key})
	c.sendNotices()
	c.reportIdle()
	c.send(&pgproto3.ReadyForQuery{TxStatus: c.sess.TxStatus()})
	c.sentReady = true
	if err := c.flush(); err != nil {
		return err
	}
	return nil
}

// initialParameterStatus is the GUC_REPORT set PostgreSQL 15 reports after
// authentication.
func (c *conn) initialParameterStatus(params map[string]string) map[string]string {
	setting := func(name, def string) string {
		if v, ok := c.srv.cfg.Backend.Setting(name); ok && v != "" {
			return v
		}
		return def
	}
	return map[string]string{
		"application_name":              params["application_name"],
		"client_encoding":               "UTF8",
		"DateStyle":                     setting("DateStyle", "ISO, MDY"),
		"default_transaction_read_only": "off",
		"in_hot_standby":                "off",
		"integer_datetimes":             "on",
		"IntervalStyle":                 setting("IntervalStyle", "postgres"),
		"is_superuser":                  "on",
		"server_encoding":               "UTF8",
		"server_version":                ServerVersion,
		"session_authorization":         c.user,
		"standard_conforming_strings":   "on",
		"TimeZone":                      setting("TimeZone", "UTC"),
	}
}

// parseStartupParams decodes the name/value pairs of a StartupMessage.
// Names starting with "_pq_." are protocol options, none of which is
// supported; they are returned for NegotiateProtocolVersion.
func parseStartupParams(b []byte) (map[string]string, []string, error) {
	params := make(map[string]string)
	var unrecognized []string
	bad := fatal(pgerr.ProtocolViolation, "invalid startup packet layout: expected terminator as last byte")
	for {
		if len(b) == 0 {
			return nil, nil, bad
		}
		if b[0] == 0 {
			if len(b) != 1 {
				return nil, nil, bad
			}
			return params, unrecognized, nil
		}
		i := bytes.IndexByte(b, 0)
		if i < 0 {
			return nil, nil, bad
		}
		name := string(b[:i])
		b = b[i+1:]
		j := bytes.IndexByte(b, 0)
		if j < 0 {
			return nil, nil, bad
		}
		val := string(b[:j])
		b = b[j+1:]
		if strings.HasPrefix(name, "_pq_.") {
			unrecognized = append(unrecognized, name)
			continue
		}
		params[name] = val
	}
}

// parseOptions reads the "options" startup parameter as PostgreSQL does
// (pg_split_opts, then the -c/-- switches): arguments are separated by
// white space, a backslash escapes the next character, and each setting is
// "-c name=value", "-cname=value" or "--name=value". Names are folded to
// lower case with '-' read as '_'.
func parseOptions(s string) (map[string]string, error) {
	var args []string
	var cur strings.Builder
	inArg, escaped := false, false
	for _, r := range s {
		switch {
		case escaped:
			cur.WriteRune(r)
			escaped, inArg = false, true
		case r == '\\':
			escaped, inArg = true, true
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if inArg {
		args = append(args, cur.String())
	}
	out := make(map[string]string)
	bad := func(arg string) error {
		return &pgerr.Error{Code: pgerr.SyntaxError, Severity: pgerr.SeverityFatal,
			Message: fmt.Sprintf("invalid command-line argument for server process: %s", arg),
			Hint:    "Try \"minipg --help\" for more information."}
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		var setting string
		switch {
		case arg == "-c":
			if i+1 == len(args) {
				return nil, bad(arg)
			}
			i++
			setting = args[i]
		case strings.HasPrefix(arg, "--"):
			setting = arg[2:]
		case strings.HasPrefix(arg, "-c"):
			setting = arg[2:]
		default:
			return nil, bad(arg)
		}
		name, val, ok := strings.Cut(setting, "=")
		if !ok || name == "" {
			return nil, &pgerr.Error{Code: pgerr.SyntaxError, Severity: pgerr.SeverityFatal,
				Message: fmt.Sprintf("-c %s requires a value", setting)}
		}
		out[strings.ReplaceAll(strings.ToLower(name), "-", "_")] = val
	}
	return out, nil
}
