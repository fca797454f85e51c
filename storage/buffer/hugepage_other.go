//go:build !linux && unix && !race

package buffer

func adviseHugePages([]byte) {}
