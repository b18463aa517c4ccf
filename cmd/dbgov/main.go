// Command dbgov is the command-line administration tool for a Database
// Governance Service.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/dbgov/dbgov/cmd/root"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// Set at build time with -ldflags "-X main.version=... -X main.commit=...".
var (
	version = "dev"
	commit  = "none"
)

func main() {
	// A signal cancels the run, which ends with the signal's exit code:
	// root.Run stops waiting for a command that does not return in time.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := root.Run(ctx, iostreams.System(), version, commit, os.Args[1:], os.Getenv)
	stop()
	os.Exit(code)
}
