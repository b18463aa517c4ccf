// Command dbgov is the command-line administration tool for a Database
// Governance Service.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

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
	if os.Getenv("GOGC") == "" {
		// Large answers are held as bytes, which the collector does not scan:
		// collecting when garbage reaches a fifth of what is live keeps the
		// peak under four times the answer, at little cost.
		debug.SetGCPercent(20)
	}
	// The first Ctrl-C or SIGTERM cancels every request and ends dbgov with
	// the signal's exit code; a second one ends it at once.
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig, ok := <-signals
		if !ok {
			return
		}
		signal.Stop(signals)
		if sig == syscall.SIGTERM {
			cancel(exitcode.ErrTerminated)
			return
		}
		cancel(exitcode.ErrInterrupted)
	}()
	code := root.Run(ctx, iostreams.System(), version, commit, os.Args[1:], os.Getenv)
	signal.Stop(signals)
	close(signals)
	cancel(nil)
	os.Exit(code)
}
