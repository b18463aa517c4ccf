//go:build unix

package root_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/dbgov/dbgov/cmd/factory"
	"github.com/dbgov/dbgov/cmd/root"
	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/exitcode"
)

// TestRun_signalEndsARunBlockedOutOfReach cancels a run blocked opening a
// named pipe as its CA bundle, which no context can stop: Run reports the signal and returns
// without it. The blocked goroutine stays behind, as it would until the
// process exits.
func TestRun_signalEndsARunBlockedOutOfReach(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "ca.pem")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"idps", "list", "--ca-cert", fifo}, "dbgov: terminated\n"},
		{[]string{"idps", "list", "--ca-cert", fifo, "-o", "json"}, `{"error":{"code":"TERMINATED","message":"terminated","exitCode":143}}` + "\n"},
	} {
		ios, _, out, errOut := cmdtest.Streams()
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(100*time.Millisecond, func() { cancel(exitcode.ErrTerminated) })
		env := map[string]string{"DBGOV_URL": "http://127.0.0.1:1", "DBGOV_CONFIG": filepath.Join(t.TempDir(), "config.yaml")}
		start := time.Now()
		code := root.Run(ctx, factory.New(ios, "v", "c", func(k string) string { return env[k] }), tt.args)
		took := time.Since(start)
		if code != exitcode.Terminated || errOut.String() != tt.want || out.Len() != 0 {
			t.Errorf("%v: exit %d after %s, stderr %q; want 143 and %q", tt.args, code, took, errOut, tt.want)
		}
		t.Logf("%v: returned %s after the start, the signal at 100ms", tt.args, took.Round(time.Millisecond))
	}
}
