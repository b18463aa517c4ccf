package config

import "os"

// replaceFile writes data to the file at path. Windows cannot rename over a
// file another process has open, which is why renameio leaves it out; the
// lock of Edit keeps other dbgov runs from writing meanwhile.
func replaceFile(path string, data []byte) error {
	return os.WriteFile(path, data, 0o600)
}
