package safefile

import (
	"io/fs"
	"os"
)

// NoFollow: Windows has no flag to open without following a link.
const NoFollow = 0

// openFlags: nor one to open without waiting.
const openFlags = 0

// modeBits: on Windows, access lists, not the mode, say who may write.
const modeBits = false

// ownedByUser: files on Windows carry access lists, not an owner's mode bits.
func ownedByUser(fs.FileInfo) bool { return true }

// replace writes data to the file at path. Windows cannot rename over a
// file another process has open.
func replace(path string, data []byte) error {
	return os.WriteFile(path, data, 0o600)
}
