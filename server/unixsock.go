package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Unix-domain sockets, as PostgreSQL makes them (pqcomm.c, miscinit.c).
//
// In each of unix_socket_directories the server listens on the socket
// file ".s.PGSQL.<port>", mode 0777 as PostgreSQL's default
// unix_socket_permissions, and keeps next to it the lock file
// ".s.PGSQL.<port>.lock", created exclusively, which holds:
//
//	<pid>
//	<data directory>
//	<start time, seconds since the epoch>
//	<port>
//	<socket directory>
//
// A lock file whose process is gone (a crash) is stale: it and the socket
// are removed and made again. A live one means another server uses the
// socket and this one refuses to start. Both files are removed when the
// listener is closed.

// maxUnixPath is the longest socket path (sun_path less its NUL).
const maxUnixPath = 107

// unixListener is a Unix-domain socket listener that removes its lock file
// when closed (the socket file is removed by net.UnixListener).
type unixListener struct {
	*net.UnixListener
	lockPath string
}

func (l *unixListener) Close() error {
	err := l.UnixListener.Close()
	if rerr := os.Remove(l.lockPath); rerr != nil && !errors.Is(rerr, os.ErrNotExist) && err == nil {
		err = rerr
	}
	return err
}

// SocketPath is the socket file of port in dir.
func SocketPath(dir string, port int) string {
	return filepath.Join(dir, ".s.PGSQL."+strconv.Itoa(port))
}

// ListenUnix listens on the Unix-domain socket of port in dir, with its
// lock file, for a server whose data directory is dataDir. Closing the
// listener removes both files.
func ListenUnix(dir string, port int, dataDir string) (net.Listener, error) {
	path := SocketPath(dir, port)
	if len(path) > maxUnixPath {
		return nil, fmt.Errorf("Unix-domain socket path %q is too long (maximum %d bytes)", path, maxUnixPath)
	}
	lockPath := path + ".lock"
	if err := createSocketLock(lockPath, path, port, dir, dataDir); err != nil {
		return nil, err
	}
	// The lock is ours: a socket file left there is a crashed server's.
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		_ = os.Remove(lockPath)
		return nil, fmt.Errorf("could not remove old socket file %q: %w", path, err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		_ = os.Remove(lockPath)
		return nil, fmt.Errorf("could not create Unix-domain socket in directory %q: %w", dir, err)
	}
	if err := os.Chmod(path, 0o777); err != nil {
		_ = ln.Close()
		_ = os.Remove(lockPath)
		return nil, fmt.Errorf("could not set permissions of file %q: %w", path, err)
	}
	return &unixListener{UnixListener: ln, lockPath: lockPath}, nil
}

// createSocketLock makes the lock file of a socket, taking over a stale
// one, as miscinit.c's CreateLockFile.
func createSocketLock(lockPath, sockPath string, port int, dir, dataDir string) error {
	if abs, err := filepath.Abs(dataDir); err == nil {
		dataDir = abs
	}
	content := fmt.Sprintf("%d\n%s\n%d\n%d\n%s\n", os.Getpid(), dataDir, time.Now().Unix(), port, dir)
	for try := 0; try < 100; try++ {
		f, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			_, werr := f.WriteString(content)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				_ = os.Remove(lockPath)
				return fmt.Errorf("could not write lock file %q: %w", lockPath, werr)
			}
			return nil
		}
		if !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("could not create lock file %q: %w", lockPath, err)
		}
		b, err := os.ReadFile(lockPath)
		if errors.Is(err, os.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			return fmt.Errorf("could not open lock file %q: %w", lockPath, err)
		}
		first, _, _ := strings.Cut(string(b), "\n")
		pid, perr := strconv.Atoi(strings.TrimSpace(first))
		if perr == nil && pid < 0 {
			pid = -pid
		}
		if perr == nil && pid != os.Getpid() && pid > 0 && processAlive(pid) {
			return fmt.Errorf("lock file %q already exists: is another server (PID %d) using socket file %q?", lockPath, pid, sockPath)
		}
		// Stale (or empty, or our own pid reused after a crash).
		if err := os.Remove(lockPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("could not remove old lock file %q: %w", lockPath, err)
		}
	}
	return fmt.Errorf("could not create lock file %q: too many attempts", lockPath)
}

// processAlive reports whether a process with pid exists (kill(pid, 0)).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
