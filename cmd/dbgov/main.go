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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		// After the first signal, a second one ends dbgov at once.
		<-ctx.Done()
		stop()
	}()
	code := root.Run(ctx, iostreams.System(), version, commit, os.Args[1:], os.Getenv)
	stop()
	os.Exit(code)
}
