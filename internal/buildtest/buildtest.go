// Package buildtest builds the dbgov binary for the tests that run it as a
// separate process, as a user would (the end-to-end and fault suites).
package buildtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Dbgov builds the module's ./cmd/dbgov (the tests run inside the module)
// into dir, with version stamped in when it is not empty, and returns the
// binary's path. It builds as make build does (static, without cgo, paths
// trimmed, symbols stripped), so that the tests run the binary that ships.
func Dbgov(dir, version string) (string, error) {
	bin := filepath.Join(dir, "dbgov")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	ldflags := "-s -w"
	if version != "" {
		ldflags += " -X main.version=" + version
	}
	build := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, "github.com/dbgov/dbgov/cmd/dbgov")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build dbgov: %v\n%s", err, out)
	}
	return bin, nil
}

// Main builds dbgov, with version stamped in when it is not empty, into a
// temporary directory, sets *bin to its path and runs the tests of m. It
// returns their exit code, or 1 when the build fails, for TestMain to exit
// with; the directory is removed after the tests.
func Main(m *testing.M, version string, bin *string) int {
	dir, err := os.MkdirTemp("", "dbgov-test-")
	if err == nil {
		defer os.RemoveAll(dir)
		*bin, err = Dbgov(dir, version)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "build dbgov for the tests: %v\n", err)
		return 1
	}
	return m.Run()
}
