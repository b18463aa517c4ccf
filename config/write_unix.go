//go:build !windows

package config

import (
	"path/filepath"

	"github.com/google/renameio/v2"
)

// replaceFile replaces the file at path with data, 0600 whatever the umask
// or the old file's mode: written beside it, synced, and renamed over it.
func replaceFile(path string, data []byte) error {
	t, err := renameio.NewPendingFile(path, renameio.WithTempDir(filepath.Dir(path)), renameio.WithStaticPermissions(0o600))
	if err != nil {
		return err
	}
	defer t.Cleanup()
	if _, err := t.Write(data); err != nil {
		return err
	}
	return t.CloseAtomicallyReplace()
}
