//go:build !unix || race

package buffer

// newArena returns the frames' memory from the Go heap: on systems without
// mmap, and in race builds, where the detector watches only Go memory (so
// that it sees page accesses outside the content lock).
func newArena(_ *Pool, size int) []byte { return make([]byte, size) }
