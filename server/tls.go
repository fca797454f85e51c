package server

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"os"
	"syscall"
)

// LoadTLS reads the server's certificate chain and private key (PEM, as
// PostgreSQL's ssl_cert_file and ssl_key_file) and returns the TLS
// configuration for Config.TLS: TLS 1.2 or newer, as PostgreSQL's
// ssl_min_protocol_version default. Like PostgreSQL it refuses a key file
// that the group or others may read, unless root owns it and only its
// group may read it.
func LoadTLS(certFile, keyFile string) (*tls.Config, error) {
	fi, err := os.Stat(keyFile)
	if err != nil {
		return nil, fmt.Errorf("could not access private key file %q: %w", keyFile, err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("private key file %q is not a regular file", keyFile)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		perm := fi.Mode().Perm()
		if (st.Uid == uint32(os.Geteuid()) && perm&0o077 != 0) || (st.Uid == 0 && perm&0o037 != 0) {
			return nil, fmt.Errorf("private key file %q has group or world access "+
				"(it must have permissions u=rw (0600) or less if owned by the database user, "+
				"or u=rw,g=r (0640) or less if owned by root)", keyFile)
		}
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("could not load server certificate file %q or key %q: %w", certFile, keyFile, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// tlsEndPointOf is the tls-server-end-point channel binding data of the
// first certificate of cfg, or nil when there is none to bind to.
func tlsEndPointOf(cfg *tls.Config) []byte {
	if cfg == nil || len(cfg.Certificates) == 0 || len(cfg.Certificates[0].Certificate) == 0 {
		return nil
	}
	leaf := cfg.Certificates[0].Leaf
	if leaf == nil {
		var err error
		if leaf, err = x509.ParseCertificate(cfg.Certificates[0].Certificate[0]); err != nil {
			return nil
		}
	}
	return tlsServerEndPoint(leaf)
}

// startTLS answers an SSLRequest with 'S' and runs the TLS handshake on the
// socket; from then on the connection reads and writes through TLS.
func (c *conn) startTLS() error {
	if _, err := c.nc.Write([]byte{'S'}); err != nil {
		return &ioError{err}
	}
	tc := tls.Server(c.nc, c.srv.cfg.TLS)
	if err := tc.Handshake(); err != nil {
		c.log.Info("could not accept SSL connection", "err", err)
		return &ioError{err}
	}
	c.nc = tc
	c.io.nc = tc
	c.ssl = true
	c.tlsEndPoint = c.srv.tlsEndPoint
	return nil
}

// isUnixConn reports whether nc is a Unix-domain socket connection.
func isUnixConn(nc net.Conn) bool {
	_, ok := nc.LocalAddr().(*net.UnixAddr)
	return ok
}

// peerIP is the TCP peer's address, nil for other connections.
func peerIP(nc net.Conn) net.IP {
	if a, ok := nc.RemoteAddr().(*net.TCPAddr); ok {
		if v4 := a.IP.To4(); v4 != nil {
			return v4
		}
		return a.IP
	}
	return nil
}
