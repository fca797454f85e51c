package buffer

import (
	"os"
	"syscall"
)

// fallocateMinBlocks is where Extend switches from writing zero pages to
// fallocate, as PostgreSQL 16's mdzeroextend does above 8 blocks: the
// file system then records the range as allocated and unwritten (reads
// give zeroes) without the zero bytes passing through the page cache.
const fallocateMinBlocks = 9

// fallocate reserves [off, off+n) in f, extending its size. ok=false means
// the file system cannot do it (the caller writes zeroes instead).
func fallocate(f *os.File, off, n int64) (ok bool, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return false, nil
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) {
		for {
			ferr = syscall.Fallocate(int(fd), 0, off, n)
			if ferr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return false, nil
	}
	switch ferr {
	case nil:
		return true, nil
	case syscall.EOPNOTSUPP, syscall.ENOSYS, syscall.EINVAL:
		return false, nil
	}
	return false, ferr
}
