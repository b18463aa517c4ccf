//go:build unix

package faults

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// stopLimit is how long dbgov may take to end after a signal before the
// test fails. The contract says within a second; the limit leaves room for
// a loaded machine, and the time taken is logged.
const stopLimit = 5 * time.Second

// blocked sets up one run of dbgov that blocks somewhere.
type blocked struct {
	name string
	args []string
	env  map[string]string
	// setup, when set, gives the run its stdin or stdout, and may return
	// what waits until the run blocks (else a pause does).
	setup func(t *testing.T, cmd *exec.Cmd) (ready func(t *testing.T))
}

// signalled is how a run that was sent a signal ended.
type signalled struct {
	code   int
	stderr string
	took   time.Duration // from the signal to the end
}

// signalWhileBlocked runs dbgov as b says, sends sig once it had time to
// block, and waits for it to end.
func signalWhileBlocked(t *testing.T, b blocked, sig os.Signal) signalled {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, dbgovBin, b.args...)
	home := t.TempDir()
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "NO_COLOR=1", "DBGOV_SERVER_VERSION=3.14.1"}
	for k, v := range b.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ready := func(*testing.T) { time.Sleep(500 * time.Millisecond) }
	if b.setup != nil {
		if r := b.setup(t, cmd); r != nil {
			ready = r
		}
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbgov: %v", err)
	}
	ready(t)
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatalf("send %v: %v", sig, err)
	}
	err := cmd.Wait()
	res := signalled{stderr: stderr.String(), took: time.Since(sent)}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("dbgov %s did not end within %s of %v\nstderr: %s", quoteArgs(b.args), runLimit, sig, res.stderr)
	case errors.As(err, &exitErr):
		res.code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("run dbgov: %v", err)
	}
	return res
}

// pipe returns both ends of a pipe, closed when the test ends.
func pipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// fifo makes a named pipe nobody writes to.
func fifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fifo")
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return path
}

// stdinNobodyWrites gives the run a stdin that never ends.
func stdinNobodyWrites(t *testing.T, cmd *exec.Cmd) func(*testing.T) {
	cmd.Stdin, _ = pipe(t)
	return nil
}

// stdoutNobodyReads gives the run a stdout that fills up and blocks, and
// waits until dbgov has written to it.
func stdoutNobodyReads(t *testing.T, cmd *exec.Cmd) func(*testing.T) {
	r, w := pipe(t)
	cmd.Stdout = w
	return func(t *testing.T) {
		if err := r.SetReadDeadline(time.Now().Add(10 * time.Second)); err != nil {
			t.Fatal(err)
		}
		if n, _ := r.Read(make([]byte, 1)); n == 0 {
			t.Error("dbgov never wrote to stdout")
		}
		time.Sleep(100 * time.Millisecond) // until the pipe is full again
	}
}

func TestSignal_endsABlockedRunWithItsExitCode(t *testing.T) {
	t.Parallel()
	big := newServer(t, always(http.StatusOK, `{"name": "reviewConfigs/x", "title": "`+strings.Repeat("x", 4<<20)+`"}`))
	idle := newServer(t, always(http.StatusOK, `{}`))
	cases := []blocked{
		{name: "reading names on stdin", args: []string{"users", "batch-get", "-"}, env: withURL(idle, nil),
			setup: stdinNobodyWrites},
		{name: "reading a file on stdin", args: []string{"revisions", "batch-create", "--instance", "i", "--database", "d", "-f", "-"}, env: withURL(idle, nil),
			setup: stdinNobodyWrites},
		{name: "opening -f FIFO", args: []string{"revisions", "batch-create", "--instance", "i", "--database", "d", "-f", "FIFO"}, env: withURL(idle, nil)},
		{name: "opening --ca-cert FIFO", args: []string{"idps", "list", "--ca-cert", "FIFO"}, env: withURL(idle, nil)},
		{name: "evaluating --jq", args: []string{"version", "--jq", "last(range(1e12))"}},
		{name: "evaluating a looping --template", args: []string{"version", "--template", "{{range 1000000000000}}{{end}}"}},
		{name: "writing to a pipe nobody reads", args: []string{"review-configs", "get", "x", "-o", "json"}, env: withURL(big, nil),
			setup: stdoutNobodyReads},
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		code, word := exitInterrupted, "interrupted"
		if sig == syscall.SIGTERM {
			code, word = 143, "terminated"
		}
		for _, b := range cases {
			t.Run(b.name+" "+sig.String(), func(t *testing.T) {
				t.Parallel()
				b.args = slices.Clone(b.args)
				for i, a := range b.args {
					if a == "FIFO" {
						b.args[i] = fifo(t)
					}
				}
				res := signalWhileBlocked(t, b, sig)
				t.Logf("ended %s after %v", res.took.Round(time.Millisecond), sig)
				if res.code != code {
					t.Errorf("exit %d, want %d\nstderr: %s", res.code, code, res.stderr)
				}
				if res.took > stopLimit {
					t.Errorf("took %s to end after %v", res.took.Round(time.Millisecond), sig)
				}
				if !strings.HasPrefix(res.stderr, "dbgov: ") && !strings.HasPrefix(res.stderr, `{"error"`) || !strings.Contains(res.stderr, word) {
					t.Errorf("stderr does not say %q: %q", word, res.stderr)
				}
			})
		}
	}
}

func TestSignal_secondSignalEndsAtOnce(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, dbgovBin, "version", "--jq", "last(range(1e12))")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(50 * time.Millisecond) // two pending SIGINTs would be one
	sent := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) || exitErr.ExitCode() != exitInterrupted {
		t.Fatalf("after two SIGINTs: %v, want exit 130\nstderr: %s", err, &stderr)
	}
	t.Logf("ended %s after the second SIGINT", time.Since(sent).Round(time.Millisecond))
	if lines := strings.Count(stderr.String(), "\n"); lines != 1 {
		t.Errorf("stderr holds %d lines, want the one report: %q", lines, &stderr)
	}
}

// TestSignal_batchCreateStillSaysWhatWasCreated stops a batch-create while
// its second batch waits for an answer: the report of what was created
// comes out with the exit code of the signal.
func TestSignal_batchCreateStillSaysWhatWasCreated(t *testing.T) {
	t.Parallel()
	release, second := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n > 0 {
			close(second)
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		respond(w, http.StatusOK, `{"revisions": [{"name": "instances/i/databases/d/revisions/1"}, {"name": "instances/i/databases/d/revisions/2"}]}`)
	})
	var revs []string
	for i := 1; i <= 4; i++ {
		revs = append(revs, fmt.Sprintf(`{"version": "1.0.%d", "type": "VERSIONED", "sheet": "projects/p/sheets/%064d"}`, i, i))
	}
	file := writeFile(t, "revisions.json", []byte("["+strings.Join(revs, ",")+"]"))
	var stdout bytes.Buffer
	res := signalWhileBlocked(t, blocked{
		args: []string{"revisions", "batch-create", "--instance", "i", "--database", "d", "-f", file, "--batch-size", "2", "-o", "name"},
		env:  withURL(srv, nil),
		setup: func(t *testing.T, cmd *exec.Cmd) func(*testing.T) {
			cmd.Stdout = &stdout
			return func(t *testing.T) {
				await(t, second, "the second batch was never sent")
			}
		},
	}, os.Interrupt)
	if res.code != exitInterrupted {
		t.Fatalf("exit %d, want 130\nstderr: %s", res.code, res.stderr)
	}
	for _, want := range []string{"dbgov: interrupted", "created 2 of 4 revisions"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
		}
	}
	if want := "instances/i/databases/d/revisions/1\ninstances/i/databases/d/revisions/2\n"; stdout.String() != want {
		t.Errorf("stdout %q, want the created revisions %q", stdout.String(), want)
	}
}

// TestSignal_namesFromATerminal reads user names from a terminal: dbgov
// says what it waits for, and Ctrl-C ends it at once.
func TestSignal_namesFromATerminal(t *testing.T) {
	t.Parallel()
	controller, terminal, err := openTerminal()
	if err != nil {
		t.Skipf("no terminal: %v", err)
	}
	defer controller.Close()
	defer terminal.Close()
	notice := make(chan struct{})
	res := signalWhileBlocked(t, blocked{
		args: []string{"users", "batch-get", "-"},
		env:  withURL(newServer(t, always(http.StatusOK, `{}`)), nil),
		setup: func(t *testing.T, cmd *exec.Cmd) func(*testing.T) {
			r, w := pipe(t)
			cmd.Stdin, cmd.Stderr = terminal, w
			go func() {
				line, _ := bufio.NewReader(r).ReadString('\n')
				if strings.Contains(line, "Ctrl-D") {
					close(notice)
				}
				io.Copy(io.Discard, r)
			}()
			return func(t *testing.T) {
				await(t, notice, "dbgov did not say that it reads names from the terminal")
			}
		},
	}, os.Interrupt)
	t.Logf("ended %s after interrupt", res.took.Round(time.Millisecond))
	if res.code != exitInterrupted || res.took > stopLimit {
		t.Errorf("exit %d after %s, want 130 at once", res.code, res.took.Round(time.Millisecond))
	}
}
