// Package faults attacks the dbgov binary from outside, as a CI pipeline runs
// it: against local servers that misbehave on purpose, with hostile input,
// and with distinctive credentials that must never come back out. Every test
// runs the real binary, built once for the package, and checks what a script
// relies on: the exit code, what reached the server, and what was printed.
package faults

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/buildtest"
)

// dbgovBin is the path of the binary under test, built by TestMain.
var dbgovBin string

// TestMain builds dbgov once, from the module root, into a temporary
// directory that lives as long as the tests.
func TestMain(m *testing.M) {
	flag.Parse()
	raiseParallelism()
	os.Exit(buildtest.Main(m, "", &dbgovBin))
}

// minParallel is how many tests run at once unless -parallel says otherwise.
// The tests spend their time waiting on dbgov processes that wait on
// servers (backoffs, time limits), not on the CPU, so they may overlap more
// than the machine has cores.
const minParallel = 16

func raiseParallelism() {
	explicit := false
	flag.Visit(func(f *flag.Flag) { explicit = explicit || f.Name == "test.parallel" })
	if f := flag.Lookup("test.parallel"); f != nil && !explicit {
		if n, err := strconv.Atoi(f.Value.String()); err == nil && n < minParallel {
			f.Value.Set(strconv.Itoa(minParallel))
		}
	}
}

// runLimit ends a run of dbgov that hangs, so that a hang fails one test
// instead of the whole suite.
const runLimit = 30 * time.Second

// opts set up one run of dbgov.
type opts struct {
	env   map[string]string // added to a clean environment; "" values are set empty
	stdin string
	home  string // HOME and XDG_CONFIG_HOME's parent; a fresh directory when empty
	umask string // when set, dbgov runs under this umask (octal), through sh
	tty   bool   // stdout is a terminal (the test skips where none can be opened)
	// typed, when set, is typed at a terminal that is dbgov's stdin (the
	// test skips where none can be opened).
	typed string
	// stdout, when set, is dbgov's stdout instead of a buffer.
	stdout *os.File
	// started, when set, is called once the process runs, with it.
	started func(*os.Process)
}

// result is what a run printed, how it ended and how long it took.
type result struct {
	args           []string
	stdout, stderr string
	code           int
	elapsed        time.Duration
	ended          time.Time
}

// run runs dbgov with args in a clean environment: no DBGOV_* variable of
// the test's own environment but DBGOV_SERVER_VERSION=3.14.1, HOME and the
// config directory in a fresh directory, no colour.
func run(t *testing.T, o opts, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	home := o.home
	if home == "" {
		home = t.TempDir()
	}
	cmd := exec.CommandContext(ctx, dbgovBin, args...)
	if o.umask != "" {
		script := "umask " + o.umask + ` && exec "$0" "$@"`
		cmd = exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", script, dbgovBin}, args...)...)
	}
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"NO_COLOR=1",
		"LANG=C.UTF-8",
		// The release the fake services answer as: a run does not ask them
		// (o.env may say "" to have it ask).
		"DBGOV_SERVER_VERSION=3.14.1",
	}
	for k, v := range o.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = strings.NewReader(o.stdin)
	if o.typed != "" {
		controller, term, err := openTerminal()
		if err != nil {
			t.Skipf("no terminal: %v", err)
		}
		defer controller.Close()
		defer term.Close()
		if _, err := controller.WriteString(o.typed); err != nil {
			t.Fatalf("type at the terminal: %v", err)
		}
		cmd.Stdin = term
	}
	if o.stdout != nil {
		cmd.Stdout = o.stdout
	}
	var terminal *os.File
	var copied chan struct{}
	if o.tty {
		controller, term, err := openTerminal()
		if err != nil {
			t.Skipf("no terminal: %v", err)
		}
		defer controller.Close()
		terminal = term
		cmd.Stdout = terminal
		copied = make(chan struct{})
		go func() {
			defer close(copied)
			io.Copy(&stdout, controller) // ends with EIO once the terminal end is closed
		}()
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbgov: %v", err)
	}
	if o.started != nil {
		o.started(cmd.Process)
	}
	err := cmd.Wait()
	if terminal != nil {
		terminal.Close()
		<-copied
	}
	ended := time.Now()
	res := result{args: args, stdout: stdout.String(), stderr: stderr.String(), elapsed: ended.Sub(start), ended: ended}
	var exitErr *exec.ExitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		t.Fatalf("dbgov %s did not end within %s\nstderr: %s", quoteArgs(args), runLimit, res.stderr)
	case errors.As(err, &exitErr):
		res.code = exitErr.ExitCode()
	default:
		t.Fatalf("run dbgov: %v", err)
	}
	return res
}

// expect fails the test unless the run ended with code.
func (r result) expect(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Errorf("dbgov %s: exit %d, want %d\nstdout: %s\nstderr: %s", quoteArgs(r.args), r.code, code, clip(r.stdout), clip(r.stderr))
	}
	return r
}

// noPanic fails the test when stderr shows a Go panic or a goroutine dump.
func (r result) noPanic(t *testing.T) result {
	t.Helper()
	for _, s := range []string{"panic:", "goroutine ", "runtime error"} {
		if strings.Contains(r.stderr, s) {
			t.Errorf("dbgov %s: stderr shows a crash (%q):\n%s", quoteArgs(r.args), s, clip(r.stderr))
		}
	}
	return r
}

// stderrHas fails the test unless stderr holds each of subs, in any case.
func (r result) stderrHas(t *testing.T, subs ...string) result {
	t.Helper()
	for _, s := range subs {
		r.stderrHasAny(t, s)
	}
	return r
}

// stderrHasAny fails the test unless stderr holds one of subs, in any case.
func (r result) stderrHasAny(t *testing.T, subs ...string) result {
	t.Helper()
	low := strings.ToLower(r.stderr)
	for _, s := range subs {
		if strings.Contains(low, strings.ToLower(s)) {
			return r
		}
	}
	t.Errorf("dbgov %s: stderr holds none of %q:\n%s", quoteArgs(r.args), subs, clip(r.stderr))
	return r
}

// clip shortens a long output for a failure message.
func clip(s string) string {
	const max = 2000
	if len(s) <= max {
		return s
	}
	return s[:max] + fmt.Sprintf("... (%d more bytes)", len(s)-max)
}

// quoteArgs shows a command line with its odd arguments quoted.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\") || strings.IndexFunc(a, func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xfffd }) >= 0 {
			q[i] = fmt.Sprintf("%q", a)
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}

// seen is one request as the server received it.
type seen struct {
	Method string
	Path   string // escaped, as sent
	Query  string
	Header http.Header
	Body   []byte
	At     time.Time
}

// server is an httptest server on 127.0.0.1 that records every request and
// answers with its handler, which gets the request's number (from 0).
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

// handlerFunc answers the n-th request (from 0).
type handlerFunc func(w http.ResponseWriter, r *http.Request, n int)

// newServer starts a recording server, closed when the test ends.
func newServer(t *testing.T, h handlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(s.wrap(h))
	t.Cleanup(s.Close)
	return s
}

// newTLSServer starts a recording server with a self-signed certificate.
func newTLSServer(t *testing.T, h handlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewUnstartedServer(s.wrap(h))
	// dbgov refusing the certificate is the point: keep the server's
	// handshake errors out of the test log.
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.StartTLS()
	t.Cleanup(s.Close)
	return s
}

func (s *server) wrap(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, seen{
			Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
			Header: r.Header.Clone(), Body: body, At: time.Now(),
		})
		s.mu.Unlock()
		h(w, r, n)
	})
}

// requests returns the requests received so far.
func (s *server) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]seen(nil), s.reqs...)
}

// expectRequests fails the test unless the server received exactly n requests.
func (s *server) expectRequests(t *testing.T, n int) []seen {
	t.Helper()
	reqs := s.requests()
	if len(reqs) != n {
		var b strings.Builder
		for _, r := range reqs {
			fmt.Fprintf(&b, "\n  %s %s?%s", r.Method, r.Path, r.Query)
		}
		t.Errorf("server received %d requests, want %d:%s", len(reqs), n, b.String())
	}
	return reqs
}

// respond answers with status and a JSON body.
func respond(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// always answers every request with status and body.
func always(status int, body string) handlerFunc {
	return func(w http.ResponseWriter, _ *http.Request, _ int) { respond(w, status, body) }
}

// databaseList is a list of n databases, one a line, as --databases-from
// reads it; format, given i, is the i-th.
func databaseList(n int, format string) string {
	var list strings.Builder
	for i := range n {
		fmt.Fprintf(&list, format+"\n", i)
	}
	return list.String()
}

// throttled starts a server that answers every request with status, body
// and a Retry-After of retryAfter. answered returns once it has answered a
// request, or fails the test when none comes within 10 seconds.
func throttled(t *testing.T, status int, retryAfter, body string) (srv *server, answered func()) {
	got := make(chan struct{}, 4)
	srv = newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Retry-After", retryAfter)
		respond(w, status, body)
		got <- struct{}{}
	})
	return srv, func() { await(t, got, "dbgov never sent its request") }
}

// await waits for a value on ch, and fails the test with failure when
// none comes within 10 seconds.
func await[T any](t *testing.T, ch <-chan T, failure string) {
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Error(failure)
	}
}

// rawAnswer writes the text answer gives for a request straight to the
// connection, then closes it: an answer no HTTP server would send.
func rawAnswer(answer func(r *http.Request) string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		buf.WriteString(answer(r))
		buf.Flush()
	}
}

// apiError is the service's error body for a gRPC code.
func apiError(code int, msg string) string {
	return fmt.Sprintf(`{"code": %d, "message": %q, "details": []}`, code, msg)
}

// withURL returns env with DBGOV_URL (and a token unless env has one) set
// for s.
func withURL(s *server, env map[string]string) map[string]string {
	out := map[string]string{"DBGOV_URL": s.URL, "DBGOV_TOKEN": "test-token"}
	for k, v := range env {
		out[k] = v
	}
	return out
}

// writeFile writes data to name in a fresh directory and returns its path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// Bodies the fake service answers with.
const (
	reviewConfigBody = `{"name": "reviewConfigs/x", "title": "Production review", "enabled": true,
 "rules": [{"type": "naming.table", "level": "ERROR", "engine": "POSTGRES"}]}`
	userBody = `{"name": "users/a@x.com", "email": "a@x.com", "title": "Ann", "state": "ACTIVE", "userType": "USER"}`
)
