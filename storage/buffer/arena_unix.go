//go:build unix && !race

package buffer

import (
	"runtime"
	"syscall"
)

// newArena returns the frames' memory: an anonymous private mapping, so the
// Go heap (and the GC's pacing and scanning) does not count it and pages
// untouched so far cost no RSS. The mapping is released when the Pool is
// unreachable: every *Buffer points at the Pool, so no pinned frame can
// outlive it. If mmap fails the arena comes from the Go heap.
func newArena(p *Pool, size int) []byte {
	a, err := syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]byte, size)
	}
	runtime.AddCleanup(p, func(a []byte) { _ = syscall.Munmap(a) }, a)
	adviseHugePages(a)
	return a
}
