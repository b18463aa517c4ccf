// Command dbgov is the command-line administration tool for a Database
// Governance Service.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/dbgov/dbgov/cmd/root"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/iostreams"
)

// Set at build time with -ldflags "-X main.version=... -X main.commit=...".
var (
	version = "dev"
	commit  = "none"
)

func main() {
	// The first Ctrl-C or SIGTERM cancels the run, which ends with the
	// signal's exit code (root.Run stops waiting for a command that does
	// not return in time); a second one ends dbgov at once.
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		cause := exitcode.ErrInterrupted
		for i := 0; ; i++ {
			if <-signals == syscall.SIGTERM {
				cause = exitcode.ErrTerminated
			}
			if i > 0 {
				os.Exit(exitcode.Write(os.Stderr, cause, false, false, nil))
			}
			cancel(cause)
		}
	}()
	ios := iostreams.System()
	if !ios.OutTTY { // only terminal tables use tablewriter: its width cache (640 KB) can go
		twwidth.SetCacheCapacity(0)
	}
	os.Exit(root.Run(ctx, ios, version, commit, os.Args[1:], os.Getenv))
}
