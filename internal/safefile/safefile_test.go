//go:build !windows

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestReadFile_refusesWhatDbgovDidNotMake(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the path to read
		want  string                                // "" for success
	}{
		{"a private file", func(t *testing.T, dir string) string {
			return write(t, filepath.Join(dir, "f"), 0o600)
		}, ""},
		{"a file writable by others", func(t *testing.T, dir string) string {
			return write(t, filepath.Join(dir, "f"), 0o666)
		}, "is writable by others (run chmod go-w"},
		{"a file writable by its group", func(t *testing.T, dir string) string {
			return write(t, filepath.Join(dir, "f"), 0o620)
		}, "is writable by others"},
		{"a link to a private file", func(t *testing.T, dir string) string {
			target := write(t, filepath.Join(dir, "target"), 0o600)
			return link(t, target, filepath.Join(dir, "f"))
		}, "is a symbolic link"},
		{"a link to /dev/zero", func(t *testing.T, dir string) string {
			return link(t, "/dev/zero", filepath.Join(dir, "f"))
		}, "is a symbolic link"},
		{"a FIFO", func(t *testing.T, dir string) string {
			return fifo(t, filepath.Join(dir, "f"))
		}, "is not a regular file"},
		{"a file in a linked directory", func(t *testing.T, dir string) string {
			real := filepath.Join(dir, "real")
			os.Mkdir(real, 0o700)
			write(t, filepath.Join(real, "f"), 0o600)
			return filepath.Join(link(t, real, filepath.Join(dir, "linked")), "f")
		}, "linked is a symbolic link"},
		{"a file in a directory writable by others", func(t *testing.T, dir string) string {
			open := filepath.Join(dir, "open")
			os.Mkdir(open, 0o700)
			os.Chmod(open, 0o777)
			return write(t, filepath.Join(open, "f"), 0o600)
		}, "open is writable by others"},
		{"a file in a sticky directory writable by all", func(t *testing.T, dir string) string {
			tmp := filepath.Join(dir, "tmp")
			os.Mkdir(tmp, 0o700)
			os.Chmod(tmp, 0o777|fs.ModeSticky)
			return write(t, filepath.Join(tmp, "f"), 0o600)
		}, ""},
		{"another user's file", func(t *testing.T, dir string) string {
			path := write(t, filepath.Join(dir, "f"), 0o600)
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file away")
			}
			if err := os.Chown(path, 65534, 65534); err != nil {
				t.Skip(err)
			}
			return path
		}, "belongs to another user"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t, t.TempDir())
			done := make(chan struct{})
			var data []byte
			var err error
			go func() {
				data, _, err = ReadFile(path, 100)
				close(done)
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("ReadFile blocked")
			}
			switch {
			case tt.want == "" && (err != nil || string(data) != "content"):
				t.Errorf("ReadFile = %q, %v; want the content", data, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, new(*UnsafeError))):
				t.Errorf("ReadFile = %q, %v; want an UnsafeError saying %q", data, err, tt.want)
			}
		})
	}
}

func TestReadFile_capped(t *testing.T) {
	path := write(t, filepath.Join(t.TempDir(), "f"), 0o600)
	if _, _, err := ReadFile(path, 3); err == nil || !strings.Contains(err.Error(), "larger than 3 bytes") {
		t.Errorf("ReadFile of 7 bytes capped at 3: %v", err)
	}
	if _, _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 3); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v", err)
	}
}

func TestWriteFile_replacesALinkAndLeavesItsTargetAlone(t *testing.T) {
	dir := t.TempDir()
	target := write(t, filepath.Join(dir, "target"), 0o644)
	path := link(t, target, filepath.Join(dir, "sub", "f"))
	if err := WriteFile(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "content" {
		t.Errorf("the link's target now holds %q", got)
	}
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
		t.Errorf("the file written: %v, %v; want a regular file 0600", info.Mode(), err)
	}
}

func TestMkdirAll_refusesALinkedDirectoryAndChangesNothing(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere")
	os.Mkdir(elsewhere, 0o755)
	cache := link(t, elsewhere, filepath.Join(dir, "cache"))
	for _, err := range []error{MkdirAll(cache), WriteFile(filepath.Join(cache, "token.json"), []byte("x"))} {
		if !errors.As(err, new(*UnsafeError)) {
			t.Errorf("error %v, want an UnsafeError", err)
		}
	}
	info, _ := os.Stat(elsewhere)
	entries, _ := os.ReadDir(elsewhere)
	if info.Mode().Perm() != 0o755 || len(entries) != 0 {
		t.Errorf("the link's target was changed: mode %v, %d entries", info.Mode().Perm(), len(entries))
	}
	made := filepath.Join(dir, "a", "b")
	if err := MkdirAll(made); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{made, filepath.Dir(made)} {
		if info, err := os.Stat(d); err != nil || info.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v, %v; want 0700", d, info.Mode().Perm(), err)
		}
	}
}

func write(t *testing.T, path string, mode os.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte("content"), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func link(t *testing.T, target, path string) string {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o700)
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	return path
}

// fifo makes a named pipe at path, or skips the test where there are none.
func fifo(t *testing.T, path string) string {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	return path
}

func TestAppend_addsToARegularFileOnly(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the path to append to
		want  string                                // the file's content after, or the error
	}{
		{"a missing file is made", func(t *testing.T, dir string) string { return filepath.Join(dir, "f") }, "more"},
		{"a file is added to", func(t *testing.T, dir string) string { return write(t, filepath.Join(dir, "f"), 0o600) }, "contentmore"},
		{"a file others may write, as a CI runner's", func(t *testing.T, dir string) string {
			return write(t, filepath.Join(dir, "f"), 0o666)
		}, "contentmore"},
		{"a link is not followed", func(t *testing.T, dir string) string {
			return link(t, write(t, filepath.Join(dir, "target"), 0o600), filepath.Join(dir, "f"))
		}, "is a symbolic link"},
		{"a FIFO without a reader does not block", func(t *testing.T, dir string) string {
			return fifo(t, filepath.Join(dir, "f"))
		}, "is not a regular file"},
		{"a missing directory", func(t *testing.T, dir string) string { return filepath.Join(dir, "none", "f") }, "no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t, t.TempDir())
			err := Append(path, []byte("more"))
			if err != nil {
				if !strings.Contains(err.Error(), tt.want) {
					t.Errorf("error %v, want one saying %q", err, tt.want)
				}
				return
			}
			got, _ := os.ReadFile(path)
			info, _ := os.Stat(path)
			if string(got) != tt.want {
				t.Errorf("the file holds %q, want %q", got, tt.want)
			}
			if tt.want == "more" && info.Mode().Perm() != 0o600 {
				t.Errorf("made with mode %v, want 0600", info.Mode().Perm())
			}
		})
	}
}
