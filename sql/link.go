package sql

// pg_query_go (the parser) and github.com/DataDog/zstd (pebble's zstd codec,
// linked into every binary that also opens the catalog) both compile the
// xxhash C sources, so the final link sees XXH32/XXH64 twice. Both are the
// same algorithm; let the linker keep one. The flag is on cgo's allowlist.

// #cgo LDFLAGS: -Wl,--allow-multiple-definition
import "C"
