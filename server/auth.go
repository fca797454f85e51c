package server

import (
	"crypto/md5"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
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

// authenticator checks a client's password. One password serves every
// user name, as minipg has no roles.
type authenticator struct {
	method   string
	password string
	scram    *scram.Server // for AuthSCRAM
}

func newAuthenticator(password, method string) (*authenticator, error) {
	method = strings.ToLower(method)
	if password == "" {
		if method != "" && method != AuthTrust {
			return nil, fmt.Errorf("server: authentication method %q needs a password", method)
		}
		return &authenticator{method: AuthTrust}, nil
	}
	if method == "" || method == AuthTrust {
		method = AuthSCRAM
	}
	a := &authenticator{method: method, password: password}
	switch method {
	case AuthSCRAM:
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
	case AuthMD5, AuthPassword:
	default:
		return nil, fmt.Errorf("server: unknown authentication method %q (want scram-sha-256, md5, password or trust)", method)
	}
	return a, nil
}

func authFailed(user string) error {
	return fatal(pgerr.InvalidPassword, "password authentication failed for user %q", user)
}

// authenticate runs the exchange for c; it returns nil once the client is
// authenticated (AuthenticationOk is sent by the caller).
func (a *authenticator) authenticate(c *conn, user string) error {
	if a.method == AuthTrust {
		return nil
	}
	c.be.SetMaxBodyLen(maxAuthMessage)
	defer func() { _ = c.be.SetAuthType(pgproto3.AuthTypeOk) }()
	switch a.method {
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

// scramExchange is SCRAM-SHA-256 (RFC 5802, RFC 7677) over SASL messages,
// without channel binding (no TLS).
func (a *authenticator) scramExchange(c *conn, user string) error {
	c.send(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{"SCRAM-SHA-256"}})
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
	if first.AuthMechanism != "SCRAM-SHA-256" {
		return fatal(pgerr.ProtocolViolation, "client selected an invalid SASL authentication mechanism")
	}
	conv := a.scram.NewConversation()
	serverFirst, err := conv.Step(string(first.Data))
	if err != nil {
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
	if err != nil || !conv.Valid() {
		return authFailed(user)
	}
	c.send(&pgproto3.AuthenticationSASLFinal{Data: []byte(serverFinal)})
	return nil
}
