package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"minipg/pgerr"
)

// Host-based authentication, as PostgreSQL's pg_hba.conf (hba.c).
//
// A rule says, for a kind of connection (a Unix-domain socket, TCP, TCP with
// or without SSL), a set of databases, users and client addresses, how the
// client authenticates. Rules are tried in order and the first whose
// connection type, database, user and address all match decides; there is
// no fall-through to a later rule when authentication fails. A connection
// no rule matches is refused with FATAL 28000 "no pg_hba.conf entry for
// host ...".
//
// The file format is PostgreSQL's: one record a line, fields separated by
// white space, '#' starts a comment, a field in double quotes may hold
// spaces, commas and '#' and loses any keyword meaning:
//
//	local      DATABASE  USER  METHOD
//	host       DATABASE  USER  ADDRESS  METHOD
//	hostssl    DATABASE  USER  ADDRESS  METHOD
//	hostnossl  DATABASE  USER  ADDRESS  METHOD
//
// DATABASE and USER are comma-separated lists of names or the keyword
// "all" (DATABASE also "sameuser"; "replication" matches nothing, as minipg
// has no replication connections). ADDRESS is "all", an address with a
// CIDR suffix (192.168.0.0/16, ::1/128), or an address followed by a mask
// in the next field (192.168.0.0 255.255.0.0). METHOD is trust, reject,
// scram-sha-256, md5 or password. What minipg does not have (host names,
// samehost/samenet, @file, +group, samerole, peer, ident, cert, ldap, ...
// and options after the method) is an error when the file is read, so a
// rule never means less than it says.

// Connection types of a rule.
const (
	HBALocal     = "local"
	HBAHost      = "host"
	HBAHostSSL   = "hostssl"
	HBAHostNoSSL = "hostnossl"
)

// Rule methods beyond the password methods of auth.go.
const AuthReject = "reject"

// HBARule is one line of pg_hba.conf.
type HBARule struct {
	Line      int      // line number in the file, 0 for built-in rules
	Type      string   // HBALocal, HBAHost, HBAHostSSL or HBAHostNoSSL
	Databases []string // names; keywords are kept as hbaAll, hbaSameUser, hbaReplication
	Users     []string // names; hbaAll
	Net       *net.IPNet
	Method    string // AuthTrust, AuthReject, AuthSCRAM, AuthMD5, AuthPassword
}

// Keywords of the database and user columns, kept apart from quoted names
// that spell the same.
const (
	hbaAll         = "\x00all"
	hbaSameUser    = "\x00sameuser"
	hbaReplication = "\x00replication"
)

// HBA is a parsed pg_hba.conf: rules in order.
type HBA struct {
	Source string // the file name, or "built-in"
	Rules  []HBARule
}

// hbaClient is what rules are matched against.
type hbaClient struct {
	local    bool   // Unix-domain socket
	ssl      bool   // TLS in use
	ip       net.IP // TCP peer address
	database string
	user     string
}

// DefaultHBA is the rule set of a server without an hba file. Without a
// password, clients on a Unix-domain socket or a loopback address are
// trusted and nobody else gets in; with one, every client authenticates
// with method (AuthSCRAM if empty).
func DefaultHBA(password, method string) *HBA {
	h := &HBA{Source: "built-in"}
	add := func(typ, cidr, m string) {
		r := HBARule{Type: typ, Databases: []string{hbaAll}, Users: []string{hbaAll}, Method: m}
		if cidr != "" {
			_, r.Net, _ = net.ParseCIDR(cidr)
		}
		h.Rules = append(h.Rules, r)
	}
	if password == "" {
		add(HBALocal, "", AuthTrust)
		add(HBAHost, "127.0.0.0/8", AuthTrust)
		add(HBAHost, "::1/128", AuthTrust)
		return h
	}
	if method == "" || method == AuthTrust {
		method = AuthSCRAM
	}
	add(HBALocal, "", method)
	add(HBAHost, "", method)
	return h
}

// LoadHBA reads and parses the pg_hba.conf file at path.
func LoadHBA(path string) (*HBA, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("could not open hba_file: %w", err)
	}
	defer f.Close()
	return ParseHBA(f, path)
}

// ParseHBA parses pg_hba.conf text; name is used in error messages, which
// give the line: `invalid authentication method "foo" (line 3 of "name")`.
func ParseHBA(r io.Reader, name string) (*HBA, error) {
	h := &HBA{Source: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		fields, err := hbaFields(sc.Text())
		if err == nil && len(fields) > 0 {
			var rule HBARule
			rule, err = parseHBARule(fields)
			rule.Line = line
			h.Rules = append(h.Rules, rule)
		}
		if err != nil {
			return nil, fmt.Errorf("%v (line %d of %q)", err, line, name)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return h, nil
}

// hbaField is one white-space separated field: its comma-separated items,
// each with whether it was quoted.
type hbaField []hbaItem

type hbaItem struct {
	text   string
	quoted bool
}

// hbaFields splits a line into fields, as hba.c's next_token: '#' outside
// quotes ends the line, double quotes protect white space, commas and '#',
// and a comma separates items of one field.
func hbaFields(line string) ([]hbaField, error) {
	var fields []hbaField
	var cur hbaField
	var item strings.Builder
	inQuote, quoted, inField := false, false, false
	endItem := func() {
		cur = append(cur, hbaItem{text: item.String(), quoted: quoted})
		item.Reset()
		quoted = false
	}
	endField := func() {
		if inField {
			endItem()
			fields = append(fields, cur)
			cur = nil
			inField = false
		}
	}
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case inQuote:
			if ch == '"' {
				inQuote = false
			} else {
				item.WriteByte(ch)
			}
		case ch == '"':
			inQuote, quoted, inField = true, true, true
		case ch == '#':
			endField()
			return fields, nil
		case ch == ' ' || ch == '\t' || ch == '\r':
			endField()
		case ch == ',':
			if !inField {
				return nil, fmt.Errorf("unexpected comma")
			}
			endItem()
			// "a, b" continues the field after white space.
			for i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t') {
				i++
			}
		default:
			item.WriteByte(ch)
			inField = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unterminated quoted string")
	}
	endField()
	return fields, nil
}

// single returns the field's only item, or an error naming what it is.
func (f hbaField) single(what string) (hbaItem, error) {
	if len(f) != 1 {
		return hbaItem{}, fmt.Errorf("multiple values specified for %s", what)
	}
	return f[0], nil
}

func parseHBARule(fields []hbaField) (HBARule, error) {
	var r HBARule
	typ, err := fields[0].single("connection type")
	if err != nil {
		return r, err
	}
	switch typ.text {
	case HBALocal, HBAHost, HBAHostSSL, HBAHostNoSSL:
		r.Type = typ.text
	case "hostgssenc":
		return r, fmt.Errorf("hostgssenc record cannot match because GSSAPI is not supported by this build")
	default:
		return r, fmt.Errorf("invalid connection type %q", typ.text)
	}
	if len(fields) < 2 {
		return r, fmt.Errorf("end-of-line before database specification")
	}
	for _, it := range fields[1] {
		switch {
		case it.quoted:
			r.Databases = append(r.Databases, it.text)
		case it.text == "all":
			r.Databases = append(r.Databases, hbaAll)
		case it.text == "sameuser":
			r.Databases = append(r.Databases, hbaSameUser)
		case it.text == "replication":
			r.Databases = append(r.Databases, hbaReplication)
		case it.text == "samerole" || it.text == "samegroup":
			return r, fmt.Errorf("database keyword %q is not supported: minipg has no roles", it.text)
		case strings.HasPrefix(it.text, "@"):
			return r, fmt.Errorf("database list files (%s) are not supported", it.text)
		default:
			r.Databases = append(r.Databases, it.text)
		}
	}
	if len(fields) < 3 {
		return r, fmt.Errorf("end-of-line before role specification")
	}
	for _, it := range fields[2] {
		switch {
		case it.quoted:
			r.Users = append(r.Users, it.text)
		case it.text == "all":
			r.Users = append(r.Users, hbaAll)
		case strings.HasPrefix(it.text, "+"):
			return r, fmt.Errorf("group membership (%s) is not supported: minipg has no roles", it.text)
		case strings.HasPrefix(it.text, "@"):
			return r, fmt.Errorf("user list files (%s) are not supported", it.text)
		default:
			r.Users = append(r.Users, it.text)
		}
	}
	rest := fields[3:]
	if r.Type != HBALocal {
		if len(rest) == 0 {
			return r, fmt.Errorf("end-of-line before IP address specification")
		}
		addr, err := rest[0].single("IP address")
		if err != nil {
			return r, err
		}
		rest = rest[1:]
		switch {
		case addr.text == "all" && !addr.quoted:
		case addr.text == "samehost" || addr.text == "samenet":
			return r, fmt.Errorf("address keyword %q is not supported", addr.text)
		case strings.Contains(addr.text, "/"):
			_, n, err := net.ParseCIDR(addr.text)
			if err != nil {
				return r, fmt.Errorf("invalid IP address/mask %q", addr.text)
			}
			r.Net = n
		default:
			ip := net.ParseIP(addr.text)
			if ip == nil {
				return r, fmt.Errorf("invalid IP address %q: host names are not supported", addr.text)
			}
			if len(rest) == 0 {
				return r, fmt.Errorf("end-of-line before netmask specification")
			}
			m, err := rest[0].single("netmask")
			if err != nil {
				return r, err
			}
			rest = rest[1:]
			mip := net.ParseIP(m.text)
			if mip == nil {
				return r, fmt.Errorf("invalid IP mask %q", m.text)
			}
			if v4 := ip.To4(); v4 != nil {
				ip, mip = v4, mip.To4()
				if mip == nil {
					return r, fmt.Errorf("IP address and mask do not match")
				}
			} else if mip.To4() != nil && len(mip) == net.IPv4len {
				return r, fmt.Errorf("IP address and mask do not match")
			}
			mask := net.IPMask(mip)
			if ones, bits := mask.Size(); ones == 0 && bits == 0 && !mip.IsUnspecified() {
				return r, fmt.Errorf("invalid IP mask %q", m.text)
			}
			r.Net = &net.IPNet{IP: ip.Mask(mask), Mask: mask}
		}
	}
	if len(rest) == 0 {
		return r, fmt.Errorf("end-of-line before authentication method")
	}
	m, err := rest[0].single("authentication method")
	if err != nil {
		return r, err
	}
	switch m.text {
	case AuthTrust, AuthReject, AuthSCRAM, AuthMD5, AuthPassword:
		r.Method = m.text
	case "peer", "ident", "gss", "sspi", "pam", "ldap", "radius", "cert", "bsd":
		return r, fmt.Errorf("authentication method %q is not supported by minipg", m.text)
	default:
		return r, fmt.Errorf("invalid authentication method %q", m.text)
	}
	if len(rest) > 1 {
		return r, fmt.Errorf("authentication option %q is not supported", rest[1][0].text)
	}
	return r, nil
}

// match returns the first rule matching cl, or nil.
func (h *HBA) match(cl hbaClient) *HBARule {
	for i := range h.Rules {
		r := &h.Rules[i]
		switch r.Type {
		case HBALocal:
			if !cl.local {
				continue
			}
		case HBAHost:
			if cl.local {
				continue
			}
		case HBAHostSSL:
			if cl.local || !cl.ssl {
				continue
			}
		case HBAHostNoSSL:
			if cl.local || cl.ssl {
				continue
			}
		}
		if !cl.local && r.Net != nil && (cl.ip == nil || !r.Net.Contains(cl.ip)) {
			continue
		}
		if !matchNames(r.Databases, cl.database, cl.user) || !matchNames(r.Users, cl.user, "") {
			continue
		}
		return r
	}
	return nil
}

func matchNames(list []string, name, user string) bool {
	for _, n := range list {
		switch n {
		case hbaAll:
			return true
		case hbaSameUser:
			if name == user {
				return true
			}
		case hbaReplication:
		default:
			if n == name {
				return true
			}
		}
	}
	return false
}

// String writes the rule as a pg_hba.conf line.
func (r *HBARule) String() string {
	names := func(list []string) string {
		out := make([]string, len(list))
		for i, n := range list {
			out[i] = strings.TrimPrefix(n, "\x00")
			if out[i] == n && (n == "all" || n == "sameuser" || n == "replication" || strings.ContainsAny(n, " ,#\"")) {
				out[i] = `"` + n + `"`
			}
		}
		return strings.Join(out, ",")
	}
	parts := []string{r.Type, names(r.Databases), names(r.Users)}
	if r.Type != HBALocal {
		if r.Net == nil {
			parts = append(parts, "all")
		} else {
			parts = append(parts, r.Net.String())
		}
	}
	return strings.Join(append(parts, r.Method), " ")
}

// Summary lists the rules in one line for the start-up log.
func (h *HBA) Summary() string {
	out := make([]string, len(h.Rules))
	for i := range h.Rules {
		out[i] = h.Rules[i].String()
	}
	if len(out) == 0 {
		return "(no rules: every connection is refused)"
	}
	return strings.Join(out, "; ")
}

// host is the client's host as PostgreSQL names it in its messages: the numeric
// address, or "[local]" for a Unix-domain socket.
func (cl hbaClient) host() string {
	if cl.local {
		return "[local]"
	}
	if cl.ip == nil {
		return "?"
	}
	return cl.ip.String()
}

func (cl hbaClient) encryption() string {
	if cl.ssl {
		return "SSL encryption"
	}
	return "no encryption"
}

// noHBAEntry is PostgreSQL's error for a connection no rule matches
// (auth.c, uaImplicitReject).
func noHBAEntry(cl hbaClient) error {
	return fatal(pgerr.InvalidAuthorizationSpec, "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s",
		cl.host(), cl.user, cl.database, cl.encryption())
}

// hbaRejects is PostgreSQL's error for a matching "reject" rule (uaReject).
func hbaRejects(cl hbaClient) error {
	return fatal(pgerr.InvalidAuthorizationSpec, "pg_hba.conf rejects connection for host \"%s\", user \"%s\", database \"%s\", %s",
		cl.host(), cl.user, cl.database, cl.encryption())
}
