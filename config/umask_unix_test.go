//go:build unix

package config

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSave_modesWhateverTheUmask changes the process umask, so it must not
// run in parallel with other tests.
func TestSave_modesWhateverTheUmask(t *testing.T) {
	for _, mask := range []int{0, 0o022, 0o077, 0o277} {
		t.Run(os.FileMode(mask).String(), func(t *testing.T) {
			root := t.TempDir()
			path := filepath.Join(root, "a", "b", "config.yaml")
			old := syscall.Umask(mask)
			f := loadFile(t, path)
			err := f.Set("default", "token", "abc")
			if err == nil {
				err = f.save()
			}
			syscall.Umask(old)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []struct {
				path string
				mode os.FileMode
			}{{filepath.Join(root, "a"), 0o700}, {filepath.Join(root, "a", "b"), 0o700}, {path, 0o600}} {
				info, err := os.Stat(want.path)
				if err != nil {
					t.Fatal(err)
				}
				if got := info.Mode().Perm(); got != want.mode {
					t.Errorf("%s mode %v, want %v", want.path, got, want.mode)
				}
			}
			entries, err := os.ReadDir(filepath.Dir(path))
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 {
				t.Errorf("directory holds %d entries, want only the file", len(entries))
			}
		})
	}
}
