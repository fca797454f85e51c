// Package durable writes small files so that a crash leaves either the old
// contents or the new ones: the control file, the commit log's files and
// the statistics files share it.
package durable

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data durably: a temporary file beside it,
// written and fsynced, renamed over path, then the directory fsynced. The
// error says which step failed and names the file.
func WriteFile(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("could not create file %q: %w", tmp, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("could not write file %q: %w", tmp, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("could not fsync file %q: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("could not close file %q: %w", tmp, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("could not rename file %q to %q: %w", tmp, path, err)
	}
	return SyncDir(filepath.Dir(path))
}

// SyncDir fsyncs directory dir, making the entries created or renamed in it
// durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("could not open directory %q: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("could not fsync directory %q: %w", dir, err)
	}
	return nil
}
