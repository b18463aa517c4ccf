// Package e2e_test runs the dbgov binary, as a user would, against the
// reference server that `dbgov dev-server` starts, and checks what it prints
// and how it exits.
package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbgov/dbgov/internal/buildtest"
)

// Limits that keep a broken binary from hanging the suite.
const (
	startTimeout = 15 * time.Second // dev-server printing its URL
	runTimeout   = 30 * time.Second // one dbgov run
	stopTimeout  = 10 * time.Second // dev-server stopping on SIGINT
	logTimeout   = 5 * time.Second  // a request reaching the server's log
)

// dbgovPath is the binary built once by TestMain; every test only reads it.
var dbgovPath string

func TestMain(m *testing.M) {
	os.Exit(buildtest.Main(m, "e2e", &dbgovPath))
}

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor polls cond every few milliseconds until it holds or timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// server is one `dbgov dev-server` process with the demo data, logging each
// request it answers.
type server struct {
	url   string // base URL, http://127.0.0.1:PORT
	token string // the admin token of its export line

	cmd     *exec.Cmd
	stdout  *syncBuffer
	log     *syncBuffer   // its stderr: one line per request
	exited  chan struct{} // closed when the process has exited
	waitErr error         // how it exited, once exited is closed
	markers atomic.Int64
	stopped bool
}

var exportLine = regexp.MustCompile(`export DBGOV_URL=(\S+) DBGOV_TOKEN=(\S+)`)

// startServer starts a dev-server of its own for the test, on a free
// loopback port, with more flags when given, and stops it (checking the
// graceful stop) when the test ends.
func startServer(t *testing.T, flags ...string) *server {
	t.Helper()
	s := &server{stdout: &syncBuffer{}, log: &syncBuffer{}}
	s.cmd = exec.Command(dbgovPath, append([]string{"dev-server", "--addr", "127.0.0.1:0", "--log"}, flags...)...)
	s.cmd.Env = []string{"HOME=" + t.TempDir()}
	s.cmd.Stdout = s.stdout
	s.cmd.Stderr = s.log
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start dbgov dev-server: %v", err)
	}
	s.exited = make(chan struct{})
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })
	var m []string
	waitFor(startTimeout, func() bool {
		m = exportLine.FindStringSubmatch(s.stdout.String())
		select {
		case <-s.exited:
			return true
		default:
			return m != nil
		}
	})
	if m == nil {
		t.Fatalf("dbgov dev-server printed no export line within %s\nstdout:\n%s\nstderr:\n%s", startTimeout, s.stdout, s.log)
	}
	s.url, s.token = m[1], m[2]
	return s
}

// start runs the test in parallel with a dev-server of its own, and returns
// the server and a cli for it.
func start(t *testing.T) (*server, *cli) {
	t.Parallel()
	srv := startServer(t)
	return srv, newCLI(t, srv)
}

// stop sends SIGINT and checks that the server exits 0 in time: the
// graceful stop a user gets from Ctrl-C.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if s.stopped {
		return
	}
	s.stopped = true
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Errorf("send SIGINT to dbgov dev-server: %v", err)
	}
	select {
	case <-s.exited:
		if s.waitErr != nil {
			t.Errorf("dbgov dev-server did not stop cleanly on SIGINT: %v\nstderr:\n%s", s.waitErr, s.log)
		}
	case <-time.After(stopTimeout):
		_ = s.cmd.Process.Kill()
		<-s.exited
		t.Errorf("dbgov dev-server still running %s after SIGINT; killed it", stopTimeout)
	}
}

// requests returns the requests the server has answered so far, one
// "METHOD PATH STATUS" a line. It first sends a marker request and waits
// for it in the log, so every earlier request is in.
func (s *server) requests(t *testing.T) []string {
	t.Helper()
	marker := fmt.Sprintf("/v1/e2e-marker-%d", s.markers.Add(1))
	resp, err := http.Get(s.url + marker)
	if err != nil {
		t.Fatalf("send a marker request to the dev-server: %v", err)
	}
	resp.Body.Close()
	if !waitFor(logTimeout, func() bool { return strings.Contains(s.log.String(), "GET "+marker+" ") }) {
		t.Fatalf("the dev-server did not log %s within %s; log:\n%s", marker, logTimeout, s.log)
	}
	var out []string
	for _, line := range strings.Split(s.log.String(), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || !strings.HasPrefix(f[1], "/") || strings.HasPrefix(f[1], "/v1/e2e-marker-") {
			continue
		}
		out = append(out, strings.Join(f[:3], " "))
	}
	return out
}

// sent runs do and returns the requests the server answered meanwhile.
func (s *server) sent(t *testing.T, do func()) []string {
	t.Helper()
	before := len(s.requests(t))
	do()
	return s.requests(t)[before:]
}

// cli runs dbgov with an environment of its own: nothing of the test's
// environment leaks in, HOME and the config file are in a temporary
// directory, and DBGOV_URL and DBGOV_TOKEN point at a server.
type cli struct {
	dir string
	env map[string]string
}

// newCLI returns a cli for srv with the admin token; srv may be nil for
// commands that need no service.
func newCLI(t *testing.T, srv *server) *cli {
	t.Helper()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	c := &cli{dir: dir, env: map[string]string{
		"HOME":         home,
		"DBGOV_CONFIG": filepath.Join(dir, "config.yaml"),
	}}
	if srv != nil {
		c.env["DBGOV_URL"] = srv.url
		c.env["DBGOV_TOKEN"] = srv.token
	}
	return c
}

// with returns a copy of c with the variables of kv (name, value, ...) set.
func (c *cli) with(kv ...string) *cli {
	out := &cli{dir: c.dir, env: make(map[string]string, len(c.env)+len(kv)/2)}
	for k, v := range c.env {
		out.env[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out.env[kv[i]] = kv[i+1]
	}
	return out
}

// without returns a copy of c without the variables named.
func (c *cli) without(names ...string) *cli {
	out := c.with()
	for _, n := range names {
		delete(out.env, n)
	}
	return out
}

// file writes content to a file of c's directory and returns its path.
func (c *cli) file(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(c.dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// result is what one dbgov run printed and how it exited.
type result struct {
	args   []string
	stdout string
	stderr string
	code   int
}

func (c *cli) run(t *testing.T, args ...string) result {
	t.Helper()
	return c.runStdin(t, "", args...)
}

func (c *cli) runStdin(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	r := runProcess(t, ctx, c.command(ctx, args...), stdin)
	r.args = args
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") {
		t.Errorf("dbgov %s panicked\n%s", strings.Join(args, " "), r.dump())
	}
	return r
}

// runProcess runs cmd, made with ctx, with stdin, and returns what it
// printed and its exit code; the test fails when ctx ends first.
func runProcess(t *testing.T, ctx context.Context, cmd *exec.Cmd, stdin string) result {
	t.Helper()
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := result{args: cmd.Args[1:], stdout: stdout.String(), stderr: stderr.String()}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("%s: still running after %s\n%s", strings.Join(cmd.Args, " "), runTimeout, r.dump())
	case errors.As(err, &exitErr):
		r.code = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("run %s: %v", strings.Join(cmd.Args, " "), err)
	}
	return r
}

// command returns dbgov with args, ready to start in c's directory and
// environment.
func (c *cli) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, dbgovPath, args...)
	cmd.Dir = c.dir
	for k, v := range c.env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	slices.Sort(cmd.Env)
	return cmd
}

func (r result) dump() string {
	return fmt.Sprintf("$ dbgov %s\nexit %d\n--- stdout\n%s--- stderr\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// expect fails the test unless dbgov exited with code.
func (r result) expect(t *testing.T, code int) result {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit code %d, want %d\n%s", r.code, code, r.dump())
	}
	return r
}

// stdoutIs fails the test unless stdout is exactly want.
func (r result) stdoutIs(t *testing.T, want string) {
	t.Helper()
	if r.stdout != want {
		t.Errorf("stdout differs\n--- got\n%s--- want\n%s\n%s", r.stdout, want, r.dump())
	}
}

// stdoutEmpty fails the test unless nothing went to stdout.
func (r result) stdoutEmpty(t *testing.T) {
	t.Helper()
	if r.stdout != "" {
		t.Errorf("stdout should be empty\n%s", r.dump())
	}
}

// stdoutHas fails the test unless stdout holds every one of parts.
func (r result) stdoutHas(t *testing.T, parts ...string) {
	t.Helper()
	r.check(t, "stdout", r.stdout, true, parts)
}

// stdoutLacks fails the test if stdout holds any of parts.
func (r result) stdoutLacks(t *testing.T, parts ...string) {
	t.Helper()
	r.check(t, "stdout", r.stdout, false, parts)
}

// check fails the test unless the stream called name, text, holds each of
// parts (want true), or none of them (want false).
func (r result) check(t *testing.T, name, text string, want bool, parts []string) {
	t.Helper()
	for _, p := range parts {
		if strings.Contains(text, p) != want {
			t.Errorf("%s holds %q: %t, want %t\n%s", name, p, !want, want, r.dump())
		}
	}
}

// stderrIsErrorLine fails the test unless stderr is the one line
// `dbgov: ...` of the contract, holding parts.
func (r result) stderrIsErrorLine(t *testing.T, parts ...string) {
	t.Helper()
	first, _, _ := strings.Cut(r.stderr, "\n")
	if !strings.HasPrefix(first, "dbgov: ") {
		t.Errorf("stderr should begin with a line \"dbgov: ...\"\n%s", r.dump())
	}
	for _, p := range parts {
		if !strings.Contains(first, p) {
			t.Errorf("the error line lacks %q\n%s", p, r.dump())
		}
	}
}

// stderrHas fails the test unless stderr holds every one of parts.
func (r result) stderrHas(t *testing.T, parts ...string) {
	t.Helper()
	r.check(t, "stderr", r.stderr, true, parts)
}

// jsonOut decodes stdout as one JSON document.
func (r result) jsonOut(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not a JSON object: %v\n%s", err, r.dump())
	}
	return doc
}

// jsonError decodes stderr as the one JSON line `{"error": {...}}` that
// -o json, --jq and --template give to errors.
func (r result) jsonError(t *testing.T) map[string]any {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("stderr should be one JSON line, got %d lines\n%s", len(lines), r.dump())
	}
	var doc struct {
		Error map[string]any `json:"error"`
	}
	dec := json.NewDecoder(strings.NewReader(lines[0]))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil || doc.Error == nil {
		t.Fatalf("stderr is not a JSON line {\"error\": {...}}: %v\n%s", err, r.dump())
	}
	return doc.Error
}

// apiErrorIs fails the test unless stderr is the JSON line of an error of
// the service with httpStatus status and code, and a message holding
// inMessage.
func (r result) apiErrorIs(t *testing.T, status, code, inMessage string) {
	t.Helper()
	e := r.jsonError(t)
	if e["httpStatus"] != json.Number(status) || e["code"] != code {
		t.Errorf("error = %v, want httpStatus %s and code %s", e, status, code)
	}
	if msg, _ := e["message"].(string); msg == "" || !strings.Contains(msg, inMessage) {
		t.Errorf("error message %q is empty or lacks %q", msg, inMessage)
	}
}

// field follows a path of object keys and array indexes into a decoded
// JSON document; it fails the test when the path is not there.
func field(t *testing.T, doc any, path ...any) any {
	t.Helper()
	cur := doc
	for i, step := range path {
		switch s := step.(type) {
		case string:
			m, ok := cur.(map[string]any)
			if !ok {
				t.Fatalf("%v: not an object at step %d", path, i)
			}
			v, ok := m[s]
			if !ok {
				t.Fatalf("%v: no key %q at step %d in %v", path, s, i, cur)
			}
			cur = v
		case int:
			a, ok := cur.([]any)
			if !ok || s >= len(a) {
				t.Fatalf("%v: no element %d at step %d in %v", path, s, i, cur)
			}
			cur = a[s]
		}
	}
	return cur
}

// lines returns the non-empty lines of s.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// tableRows parses a table printed for a pipe: a header row whose column
// names are apart by two spaces or more, then rows whose cells start where
// their column's name starts. Each row maps column names to trimmed cells.
func tableRows(t *testing.T, out string) []map[string]string {
	t.Helper()
	rows := lines(out)
	if len(rows) == 0 {
		t.Fatalf("no table in stdout:\n%s", out)
	}
	header := rows[0]
	type column struct {
		name  string
		start int
	}
	var cols []column
	for _, loc := range regexp.MustCompile(`\S+( \S+)*`).FindAllStringIndex(header, -1) {
		cols = append(cols, column{name: header[loc[0]:loc[1]], start: loc[0]})
	}
	var parsed []map[string]string
	for _, row := range rows[1:] {
		cells := make(map[string]string, len(cols))
		for i, col := range cols {
			if col.start >= len(row) {
				cells[col.name] = ""
				continue
			}
			end := len(row)
			if i+1 < len(cols) && cols[i+1].start < end {
				end = cols[i+1].start
			}
			cells[col.name] = strings.TrimSpace(row[col.start:end])
		}
		parsed = append(parsed, cells)
	}
	return parsed
}

// cellsAre fails the test unless column col of the table's rows holds want,
// row by row.
func cellsAre(t *testing.T, rows []map[string]string, col string, want ...string) {
	t.Helper()
	var got []string
	for _, r := range rows {
		cell, ok := r[col]
		if !ok {
			t.Errorf("the table has no column %s: %v", col, r)
			return
		}
		got = append(got, cell)
	}
	if !slices.Equal(got, want) {
		t.Errorf("column %s = %q, want %q", col, got, want)
	}
}
