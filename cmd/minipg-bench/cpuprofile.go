package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// profileWindow is the part of a mix of length d a CPU profile covers: the
// middle half, past the warm-up and clear of the end.
func profileWindow(d time.Duration) (wait, length time.Duration) {
	return d / 4, d / 2
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._=-]+`)

// profileFile names the profile of target in round (from 1) inside dir.
func profileFile(dir, target string, round int) string {
	return filepath.Join(dir, fmt.Sprintf("%s-round%d.pprof", unsafeName.ReplaceAllString(target, "_"), round))
}

// fetchCPUProfile waits wait, then asks the server's pprof listener at
// addr for a CPU profile of length seconds and writes it to path. It gives
// up when ctx ends first.
func fetchCPUProfile(ctx context.Context, addr string, wait, length time.Duration, path string) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(wait):
	}
	secs := max(1, int(length/time.Second))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", addr, secs), nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("%s: %s: %s", addr, resp.Status, b)
	}
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, resp.Body); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
