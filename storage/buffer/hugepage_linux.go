//go:build !race

package buffer

import "syscall"

// adviseHugePages asks for transparent huge pages on the arena (where the
// kernel offers them on request): the first touch of a frame then faults
// in 2 MiB at a time instead of 4 KiB, which is what PostgreSQL's
// huge_pages=try is for. RSS still only grows with the frames used, in
// 2 MiB steps, and stays within shared_buffers. Failure is harmless.
func adviseHugePages(a []byte) {
	_ = syscall.Madvise(a, syscall.MADV_HUGEPAGE)
}
