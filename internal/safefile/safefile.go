// Package safefile reads and writes dbgov's private files (the config file,
// its lock, cached tokens) only when they are what dbgov made: no symbolic
// link, owned by the user, writable by no one else. Reads are capped and
// never block on a FIFO or a device.
package safefile

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// UnsafeError says why a file or directory is left alone.
type UnsafeError struct {
	Path, Why string
}

func (e *UnsafeError) Error() string { return e.Path + " " + e.Why }

// check returns an UnsafeError when info, found at path without following a
// link, is a link, another user's, or writable by others; a directory
// writable by all is fine with the sticky bit (as /tmp), where no one may
// replace another's files.
func check(path string, info fs.FileInfo, dir bool) error {
	mode := info.Mode()
	why := ""
	switch {
	case mode&fs.ModeSymlink != 0:
		why = "is a symbolic link"
	case dir && !mode.IsDir():
		why = "is not a directory"
	case !dir && !mode.IsRegular():
		why = "is not a regular file"
	case !ownedByUser(info):
		why = "belongs to another user"
	case modeBits && mode.Perm()&0o022 != 0 && !(dir && mode&fs.ModeSticky != 0):
		why = fmt.Sprintf("is writable by others (run chmod go-w %s)", path)
	}
	if why == "" {
		return nil
	}
	return &UnsafeError{Path: path, Why: why}
}

// CheckDir checks the directory dir, not following a link; a missing one
// is fs.ErrNotExist.
func CheckDir(dir string) error {
	info, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	return check(dir, info, true)
}

// ReadFile returns the content and information of the file at path, when
// it and its directory are safe, failing beyond limit bytes; a missing file
// is fs.ErrNotExist. It never follows a link or waits on a FIFO.
func ReadFile(path string, limit int64) ([]byte, fs.FileInfo, error) {
	if err := CheckDir(filepath.Dir(path)); err != nil {
		return nil, nil, err
	}
	fh, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, Explain(path, err)
	}
	defer fh.Close()
	info, err := fh.Stat()
	if err != nil {
		return nil, nil, err
	}
	if err := check(path, info, false); err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(io.LimitReader(fh, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return data, info, err
}

// Explain returns err, an error of opening the file at path without
// following a link, or an UnsafeError saying why the file is not opened.
func Explain(path string, err error) error {
	if info, lerr := os.Lstat(path); lerr == nil {
		return cmp.Or(check(path, info, false), err)
	}
	return err
}

// MkdirAll makes dir and its missing parents, each 0700 whatever the umask,
// and checks dir; directories that exist keep their mode.
func MkdirAll(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o700); errors.Is(err, fs.ErrExist) {
			continue // made meanwhile by someone else: checked below
		} else if err != nil {
			return err
		}
		if err := os.Chmod(missing[i], 0o700); err != nil {
			return err
		}
	}
	return CheckDir(dir)
}

// WriteFile replaces the file at path with data, 0600 whatever the umask,
// in one step (written beside it and renamed over it, so a link there is
// replaced, never followed), making its directory when missing.
func WriteFile(path string, data []byte) error {
	if err := MkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	return replace(path, data)
}

// Append appends data to the file at path, made 0600 when missing. It
// never follows a link nor waits on a FIFO, and writes to a regular file
// only; unlike dbgov's own files, the file may be another user's (a CI
// runner's step summary).
func Append(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|openFlags, 0o600)
	if err != nil {
		return Explain(path, err)
	}
	info, err := fh.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = &UnsafeError{Path: path, Why: "is not a regular file"}
	}
	if err == nil {
		_, err = fh.Write(data)
	}
	return cmp.Or(err, fh.Close())
}

// Remove removes the file at path, when its directory is safe; a missing
// file is no error.
func Remove(path string) error {
	if err := CheckDir(filepath.Dir(path)); err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
