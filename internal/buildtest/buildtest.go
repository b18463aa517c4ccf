// Package buildtest builds the dbgov binary for the tests that run it as a
// separate process, as a user would (the end-to-end and fault suites).
package buildtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
