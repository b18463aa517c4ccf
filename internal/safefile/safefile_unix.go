//go:build !windows

package safefile

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
)

// NoFollow is the flag of os.OpenFile that refuses to open a link.
const NoFollow = syscall.O_NOFOLLOW

// openFlags open a file without following a link or waiting on a FIFO.
const openFlags = NoFollow | syscall.O_NONBLOCK

// modeBits says that a file's mode tells who may write it.
const modeBits = true

// ownedByUser reports whether info is the user's, or root's (which no
// other user can plant).
func ownedByUser(info fs.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid() || st.Uid == 0
}

// replace writes data beside path, syncs it and renames it over path.
func replace(path string, data []byte) error {
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
