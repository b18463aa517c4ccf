// Package buildtest builds the dbgov binary for the tests that run it as a
// separate process, as a user would (the end-to-end and fault suites).
package buildtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Dbgov builds ./cmd/dbgov from the module root into dir, with version
// stamped in when it is not empty, and returns the binary's path. It builds
// as make build does (static, without cgo, paths trimmed, symbols stripped),
// so that the tests run the binary that ships.
func Dbgov(dir, version string) (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("build dbgov: the go command is not on PATH: %w", err)
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "dbgov")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	ldflags := "-s -w"
	if version != "" {
		ldflags += " -X main.version=" + version
	}
	build := exec.Command(goTool, "build", "-trimpath", "-ldflags", ldflags, "-o", bin, "./cmd/dbgov")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build dbgov: %v\n%s", err, out)
	}
	return bin, nil
}

// ModuleRoot finds the directory holding go.mod, from the working directory
// (a test's package directory) upwards.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("find the module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("find the module root: no go.mod above the working directory")
		}
		dir = parent
	}
}
