//go:build race

package heap

// raceEnabled scales the big concurrency tests down under the race detector.
const raceEnabled = true
