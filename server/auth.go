package server

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"crypto/x509"
	"encoding/hex"
	"fmt"
	"hash"
	"strings"

	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/xdg-go/scram"

	"minipg/pgerr"
)

// Authentication methods (pg_hba.conf names).
const (
	AuthTrust    = "trust"
	AuthSCRAM    = "scram-sha-256"
	AuthMD5      = "md5"
	AuthPassword = "password"
)

// scramIterations is PostgreSQL's scram_iterations default.
const scramIterations = 4096

// maxAuthMessage bounds a password or SASL message (PG_MAX_AUTH_TOKEN_LENGTH).
const maxAuthMessage = 65535

// authenticator decides, by the host-based authentication rules, how a
// client authenticates, and checks its password. One password serves every
// user name, as minipg has no roles.
type authenticator struct {
	hba      *HBA
	password string
	scram    *scram.Server // when password is set
}

// newAuthenticator checks the password settings: method (AuthMethod) is
// the method of the built-in rules when hba is nil.
func newAuthenticator(password, method string, hba *HBA) (*authenticator, error) {
	method = strings.ToLower(method)
	switch method {
	case "", AuthTrust, AuthSCRAM, AuthMD5, AuthPassword:
	default:
		return nil, fmt.Errorf("server: unknown authentication method %q (want scram-sha-256, md5, password or trust)", method)
	}
	if password == "" && method != "" && method != AuthTrust {
		return nil, fmt.Errorf("server: authentication method %q needs a password", method)
	}
	if hba == nil {
		hba = DefaultHBA(password, method)
	}
	a := &authenticator{hba: hba, password: password}
	if password == "" {
		return a, nil
	}
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	// The user name plays no part in PostgreSQL's SCRAM (the client
	// sends "n=" empty), so one set of stored credentials serves all.
	// SASLprep the password when it is valid for it, as PostgreSQL does.
	creds, err := scram.SHA256.NewClient("", password, "")
	if err != nil {
		if creds, err = scram.SHA256.NewClientUnprepped("", password, ""); err != nil {
			return nil, err
		}
	}
	stored := creds.GetStoredCredentials(scram.KeyFactors{Salt: string(salt), Iters: scramIterations})
	srv, err := scram.SHA256.NewServer(func(string) (scram.StoredCredentials, error) { return stored, nil })
	if err != nil {
		return nil, err
	}
	a.scram = srv
	return a, nil
}

func authFailed(user string) error {
	return fatal(pgerr.InvalidPassword, "password authentication failed for user %q", user)
}

// authenticate finds the rule for cl and runs its exchange; it returns nil
// once the client is authenticated (AuthenticationOk is sent by the
// caller).
func (a *authenticator) authenticate(c *conn, cl hbaClient) error {
	rule := a.hba.match(cl)
	if rule == nil {
		return noHBAEntry(cl)
	}
	user := cl.user
	switch rule.Method {
	case AuthTrust:
		return nil
	case AuthReject:
		return hbaRejects(cl)
	}
	if a.password == "" {
		// PostgreSQL's "User has no password assigned" (told to the log,
		// not the client).
		c.log.Info("password authentication failed: the server has no password", "user", user)
		return authFailed(user)
	}
	c.be.SetMaxBodyLen(maxAuthMessage)
	defer func() { _ = c.be.SetAuthType(pgproto3.AuthTypeOk) }()
	switch rule.Method {
	case AuthSCRAM:
		return a.scramExchange(c, user)
	case AuthMD5:
		var salt [4]byte
		_, _ = rand.Read(salt[:])
		c.send(&pgproto3.AuthenticationMD5Password{Salt: salt})
		pw, err := c.receivePassword(pgproto3.AuthTypeMD5Password)
		if err != nil {
			return err
		}
		inner := md5.Sum([]byte(a.password + user))
		outer := md5.Sum(append([]byte(hex.EncodeToString(inner[:])), salt[:]...))
		want := "md5" + hex.EncodeToString(outer[:])
		if subtle.ConstantTimeCompare([]byte(pw), []byte(want)) != 1 {
			return authFailed(user)
		}
		return nil
	default: // AuthPassword
		c.send(&pgproto3.AuthenticationCleartextPassword{})
		pw, err := c.receivePassword(pgproto3.AuthTypeCleartextPassword)
		if err != nil {
			return err
		}
		if subtle.ConstantTimeCompare([]byte(pw), []byte(a.password)) != 1 {
			return authFailed(user)
		}
		return nil
	}
}

func (c *conn) receivePassword(authType uint32) (string, error) {
	if err := c.flush(); err != nil {
		return "", err
	}
	_ = c.be.SetAuthType(authType)
	msg, err := c.be.Receive()
	if err != nil {
		return "", receiveError(err)
	}
	pm, ok := msg.(*pgproto3.PasswordMessage)
	if !ok {
		return "", fatal(pgerr.ProtocolViolation, "expected password response, got message type %d", messageType(msg))
	}
	return pm.Password, nil
}

// Names of the SASL mechanisms.
const (
	mechSCRAM     = "SCRAM-SHA-256"
	mechSCRAMPlus = "SCRAM-SHA-256-PLUS"
)

// scramExchange is SCRAM-SHA-256 (RFC 5802, RFC 7677) over SASL messages.
// Over TLS the server also offers SCRAM-SHA-256-PLUS, bound to the channel
// by tls-server-end-point (RFC 5929: a hash of the server's certificate),
// as PostgreSQL does; a client that chooses it proves it talks to the
// holder of that certificate, and one that could bind but believes the
// server cannot (flag "y") is refused as a downgrade.
func (a *authenticator) scramExchange(c *conn, user string) error {
	mechs := []string{mechSCRAM}
	if c.tlsEndPoint != nil {
		mechs = []string{mechSCRAMPlus, mechSCRAM}
	}
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: mechs})
	if err := c.flush(); err != nil {
		return err
	}
	_ = c.be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, err := c.be.Receive()
	if err != nil {
		return receiveError(err)
	}
	first, ok := msg.(*pgproto3.SASLInitialResponse)
	if !ok {
		return fatal(pgerr.ProtocolViolation, "expected SASL response, got message type %d", messageType(msg))
	}
	var conv *scram.ServerConversation
	switch {
	case first.AuthMechanism == mechSCRAM && c.tlsEndPoint != nil:
		conv = a.scram.NewConversationWithChannelBinding(scram.ChannelBinding{
			Type: scram.ChannelBindingTLSServerEndpoint, Data: c.tlsEndPoint})
	case first.AuthMechanism == mechSCRAM:
		conv = a.scram.NewConversation()
	case first.AuthMechanism == mechSCRAMPlus && c.tlsEndPoint != nil:
		conv = a.scram.NewConversationWithChannelBindingRequired(scram.ChannelBinding{
			Type: scram.ChannelBindingTLSServerEndpoint, Data: c.tlsEndPoint})
	default:
		return fatal(pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	serverFirst, err := conv.Step(string(first.Data))
	switch {
	case err != nil && serverFirst == scram.ErrServerDoesSupportChannelBinding:
		return fatal(pgerr.ProtocolViolation, "SCRAM channel binding negotiation error").
			WithDetail("The client supports SCRAM channel binding but thinks the server does not.  However, this server does support channel binding.")
	case err != nil && (serverFirst == scram.ErrChannelBindingNotSupported || serverFirst == scram.ErrUnsupportedChannelBindingType):
		return fatal(pgerr.ProtocolViolation, "unsupported SCRAM channel-binding type")
	case err != nil:
		return fatal(pgerr.ProtocolViolation, "malformed SCRAM message").WithDetail("%s", err.Error())
	}
	c.send(&pgproto3.AuthenticationSASLContinue{Data: []byte(serverFirst)})
	if err := c.flush(); err != nil {
		return err
	}
	_ = c.be.SetAuthType(pgproto3.AuthTypeSASLContinue)
	msg, err = c.be.Receive()
	if err != nil {
		return receiveError(err)
	}
	final, ok := msg.(*pgproto3.SASLResponse)
	if !ok {
		return fatal(pgerr.ProtocolViolation, "expected SASL response, got message type %d", messageType(msg))
	}
	serverFinal, err := conv.Step(string(final.Data))
	if err != nil && serverFinal == scram.ErrChannelBindingsDontMatch {
		return fatal(pgerr.ProtocolViolation, "SCRAM channel binding check failed")
	}
	if err != nil || !conv.Valid() {
		return authFailed(user)
	}
	c.send(&pgproto3.AuthenticationSASLFinal{Data: []byte(serverFinal)})
	return nil
}

// tlsServerEndPoint is the tls-server-end-point channel binding data of
// cert (RFC 5929 section 4.1): its hash with the hash function of its
// signature algorithm, SHA-256 where that is MD5 or SHA-1.
func tlsServerEndPoint(cert *x509.Certificate) []byte {
	var h hash.Hash
	switch cert.SignatureAlgorithm {
	case x509.SHA384WithRSA, x509.SHA384WithRSAPSS, x509.ECDSAWithSHA384:
		h = sha512.New384()
	case x509.SHA512WithRSA, x509.SHA512WithRSAPSS, x509.ECDSAWithSHA512:
		h = sha512.New()
	default:
		h = sha256.New()
	}
	h.Write(cert.Raw)
	return h.Sum(nil)
}
