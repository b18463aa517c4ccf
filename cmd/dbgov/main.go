// Command dbgov is the command-line administration tool for a Database
// Governance Service.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/root"
	versioncmd "github.com/dbgov/dbgov/cmd/version"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// version and commit name the build; the release build sets them with
// -ldflags "-X main.version=... -X main.commit=...".
var (
	version = "dev"
	commit  = "none"
)

func main() {
	// A signal cancels the run, which ends with the signal's exit code:
	// root.Run stops waiting for a command that does not return in time.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	info, _ := debug.ReadBuildInfo()
	version, commit := versioncmd.Stamp(version, commit, info)
	f := factory.New(iostreams.System(), version, commit, os.Getenv)
	code := root.Run(ctx, f, os.Args[1:])
	stop()
	os.Exit(code)
}
